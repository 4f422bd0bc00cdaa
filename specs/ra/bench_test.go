package ra_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// BenchmarkRA explores fixed RA configurations (one worker unless the name
// ends in -w2) and reports
// distinct states, states/s and seen-set bytes per distinct state.
// Run with -benchtime 1x: one iteration is a whole search.
func BenchmarkRA(b *testing.B) {
	for _, bc := range []struct {
		name    string
		params  model.Values
		workers int
	}{
		{"n3-r2", model.Values{"nodes": "3", "requests": "2"}, 1},
		{"n4-r1", model.Values{"nodes": "4"}, 1},
		{"n4-r1-w2", model.Values{"nodes": "4"}, 2},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sys, _ := spectest.Build(b, ra.Spec, bc.params)
			var r *explore.Result
			for i := 0; i < b.N; i++ {
				r = spectest.Run(b, sys, explore.Options{Workers: bc.workers})
			}
			if r.Verdict != explore.Verified {
				b.Fatalf("verdict %s", r.Verdict)
			}
			b.ReportMetric(float64(r.Stats.Distinct), "states")
			b.ReportMetric(r.Stats.Rate, "states/s")
			b.ReportMetric(r.Stats.BytesPerState, "B/state")
		})
	}
}

// BenchmarkReductions: RA with no reduction and with POR (ids break ties,
// so RA has no symmetry).
func BenchmarkReductions(b *testing.B) {
	spectest.BenchReductions(b, ra.Spec, model.Values{"nodes": "3", "requests": "2"})
}
