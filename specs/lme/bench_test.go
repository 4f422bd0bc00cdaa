package lme_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
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

// BenchmarkWorkers: lme N=3 on a path, the whole space (--continue), plain
// and under symmetry, with 1 and 2 workers (the -w2 rows), for the
// parallel search's speedup measured in one process.
func BenchmarkWorkers(b *testing.B) {
	sys, _ := spectest.Build(b, lme.Spec, model.Values{"nodes": "3"})
	for _, sym := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			name := "n3-path"
			if sym {
				name += "-sym"
			}
			if workers > 1 {
				name += "-w2"
			}
			b.Run(name, func(b *testing.B) {
				var r *explore.Result
				for i := 0; i < b.N; i++ {
					r = spectest.Run(b, sys, explore.Options{Continue: true, Symmetry: sym, Workers: workers})
				}
				b.ReportMetric(float64(r.Stats.Distinct), "states")
				b.ReportMetric(r.Stats.Rate, "states/s")
				b.ReportMetric(r.Stats.BytesPerState, "B/state")
			})
		}
	}
}
