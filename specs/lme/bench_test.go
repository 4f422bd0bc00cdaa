package lme_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lme"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// BenchmarkReductions: distinct states and states/s of fixed lme
// configurations with no reduction, POR, symmetry and both.
func BenchmarkReductions(b *testing.B) {
	for _, c := range []struct {
		name string
		v    model.Values
	}{
		{"n2-none-connect", model.Values{"nodes": "2", "topology": "none", "connects": "1"}},
		{"n2-path-connect-disconnect", model.Values{"nodes": "2", "connects": "1", "disconnects": "1"}},
		{"n3-path", model.Values{"nodes": "3"}},
	} {
		b.Run(c.name, func(b *testing.B) { spectest.BenchReductions(b, lme.Spec, c.v) })
	}
}
