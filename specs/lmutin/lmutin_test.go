package lmutin_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestFiles runs the scenarios of testdata/ with every cross-check.
func TestFiles(t *testing.T) { spectest.Files(t, lmutin.Spec, "testdata") }

// TestBadConfigurations: impossible configurations are one-line errors,
// never panics.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"unsafe-c0":       {"cs": "0"},
		"l-too-big":       {"l": "3"},
		"l-at-too-big":    {"l-at": "1:4"},
		"l-at-garbage":    {"l-at": "1=2"},
		"l-at-range":      {"l-at": "5:1"},
		"cs-range":        {"cs": "3"},
		"cs-garbage":      {"cs": "x"},
		"too-many-nodes":  {"nodes": "7"},
		"zero-nodes":      {"nodes": "0"},
		"bad-topology":    {"topology": "torus"},
		"edge-range":      {"topology": "0.1-5.1"},
		"edge-self":       {"topology": "1.1-1.2"},
		"exits-too-big":   {"exits": "16"},
		"unknown-variant": {"variant": "bogus"},
		"unknown-mutant":  {"mutant": "bogus"},
		"fifo-garbage":    {"fifo": "maybe"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := lmutin.Spec.Compile(v)
			if err == nil {
				t.Fatalf("Compile(%v) succeeded, want an error", v)
			}
			if msg := err.Error(); len(msg) == 0 || msg[0] != '-' {
				t.Errorf("error %q does not name the flag", msg)
			}
		})
	}
}
