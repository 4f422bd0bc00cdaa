package lkcs_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lkcs"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// with returns base with extra's entries added.
func with(base model.Values, extra model.Values) model.Values {
	v := model.Values{}
	for k, x := range base {
		v[k] = x
	}
	for k, x := range extra {
		v[k] = x
	}
	return v
}

var (
	// Two neighbours, (l, k) = (0, 2) — no constraint at all — and the
	// leader's macros make it (L, K) = (1, 1): the smallest deadlock.
	n2 = model.Values{"nodes": "2", "l": "0", "k": "2", "cs": "0", "fifo": "true", "report-trigger": "true"}
)

// TestFiles runs the scenarios of testdata/ with every cross-check.
func TestFiles(t *testing.T) { spectest.Files(t, lkcs.Spec, "testdata") }

// TestFindings stores the shortest trace of one property among several
// violated ones (spectest.Violations keeps the first violation only).
func TestFindings(t *testing.T) {
	for _, c := range []struct {
		name, property string
		params         model.Values
		steps          int
	}{
		// Finding 2: with the tests at the bounds Cond uses, the Trigger
		// resolves the 7-step deadlock, and the leader's own `wait until
		// Waiting_LDR < |N_LDR|+1` deadlocks it again (the leader counts
		// itself in Grant_LDR while it exits).
		{"trigger-wait-blocks-leader", explore.Deadlock, with(n2, model.Values{"variant": "trigger-when-full", "report-trigger": "false"}), 20},
		// Finding 3: with both repairs, a TriggerNomination that finds no
		// candidate (min of ∅) leaves the leader waiting forever.
		{"trigger-no-candidate", explore.Deadlock, with(n2, model.Values{"variant": "trigger-repaired", "report-trigger": "false"}), 28},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys, v := spectest.Build(t, lkcs.Spec, c.params)
			r := spectest.Run(t, sys, explore.Options{Continue: true})
			for _, x := range r.Violations {
				if x.Property != c.property {
					continue
				}
				if x.Trace.Len() != c.steps {
					t.Errorf("shortest %s trace has %d steps, want %d", c.property, x.Trace.Len(), c.steps)
				}
				spectest.MustReplay(t, sys, lkcs.Spec.Name, v, x)
				var buf bytes.Buffer
				if err := explore.NewITF(lkcs.Spec.Name, v, x).Write(&buf); err != nil {
					t.Fatal(err)
				}
				spectest.Compare(t, filepath.Join("../../counterexamples/lkcs", c.name+".itf.json"), buf.Bytes())
				return
			}
			t.Fatalf("%s holds, want a violation", c.property)
		})
	}
}

// TestBadConfigurations: impossible configurations are one-line errors,
// never panics.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"unsafe-c0-lower": {"cs": ""},
		"unsafe-c0-upper": {"cs": "0,1,2", "k": "2"},
		"l-above-k":       {"l": "2", "k": "1", "cs": "0,1,2"},
		"k-at-too-big":    {"k-at": "0:3"},
		"l-at-garbage":    {"l-at": "x"},
		"leader-range":    {"leader": "3"},
		"changes-too-big": {"changes": "15"},
		"bad-deadlock":    {"deadlock": "some"},
		"bad-topology":    {"topology": "grid"},
		"unknown-variant": {"variant": "bogus"},
		"unknown-mutant":  {"mutant": "bogus"},
		"too-many-nodes":  {"nodes": "7"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := lkcs.Spec.Compile(v)
			if err == nil {
				t.Fatalf("Compile(%v) succeeded, want an error", v)
			}
			if msg := err.Error(); len(msg) == 0 || msg[0] != '-' {
				t.Errorf("error %q does not name the flag", msg)
			}
		})
	}
}
