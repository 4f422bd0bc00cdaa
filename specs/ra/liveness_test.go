package ra_test

import (
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestStarvationFreedom checks the liveness of RA under weak fairness, in
// both choice modes (RA draws nothing, so they must agree): it holds with
// full membership and, surprisingly or not, also under the membership
// faults that break mutual exclusion (a node outside one's list is still
// answered, so nobody waits forever); it fails for the defer-forever
// mutant, whose lasso must replay.
func TestStarvationFreedom(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params model.Values
		holds  bool
		stem   int // stem length of the lasso when it fails
	}{
		{"full-n3-r1", model.Values{"nodes": "3"}, true, 0},
		{"full-n3-r2", model.Values{"nodes": "3", "requests": "2"}, true, 0},
		{"asymmetric-n3", model.Values{"nodes": "3", "missing": "1:0"}, true, 0},
		{"symmetric-n3", model.Values{"nodes": "3", "missing": "0:1,1:0"}, true, 0},
		{"churn1-n3", model.Values{"nodes": "3", "churn": "1"}, true, 0},
		{"defer-forever-n3", model.Values{"nodes": "3", "mutant": "defer-forever"}, false, 11},
	} {
		for _, mode := range []explore.Choices{explore.Probabilistic, explore.Adversarial} {
			t.Run(tc.name+"/"+mode.String(), func(t *testing.T) {
				sys, v := spectest.Build(t, ra.Spec, tc.params)
				r := spectest.Run(t, sys, explore.Options{Liveness: true, Choices: mode, Continue: true, NoDeadlock: true})
				if r.Liveness == nil || r.Liveness.States != r.Stats.Distinct {
					t.Fatalf("liveness graph %+v differs from the search's %d states", r.Liveness, r.Stats.Distinct)
				}
				var got explore.Status
				for _, p := range r.Properties {
					if p.Name == explore.StarvationFreedom {
						got = p.Status
					}
				}
				if want := map[bool]explore.Status{true: explore.Holds, false: explore.Fails}[tc.holds]; got != want {
					t.Fatalf("starvation-freedom %s, want %s", got, want)
				}
				for _, x := range r.Violations {
					if x.Kind != model.Eventually {
						continue
					}
					if x.Lasso.Loop != tc.stem {
						t.Errorf("stem of %d steps, want %d", x.Lasso.Loop, tc.stem)
					}
					spectest.MustReplay(t, sys, ra.Spec.Name, v, x)
				}
			})
		}
	}
}

// BenchmarkRALiveness compares the liveness pass with the safety search on
// the configurations of BenchmarkRA: distinct states, graph edges, the
// seconds of each pass, and bytes per state of the safety seen-set and of
// the liveness graph. Run with -benchtime 1x.
func BenchmarkRALiveness(b *testing.B) {
	for _, bc := range []struct {
		name   string
		params model.Values
	}{
		{"n3-r2", model.Values{"nodes": "3", "requests": "2"}},
		{"n4-r1", model.Values{"nodes": "4"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sys, _ := spectest.Build(b, ra.Spec, bc.params)
			var r *explore.Result
			var total time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				r = spectest.Run(b, sys, explore.Options{Liveness: true})
				total += time.Since(t0)
			}
			if r.Verdict != explore.Verified || r.Liveness == nil {
				b.Fatalf("verdict %s", r.Verdict)
			}
			l := r.Liveness
			safety := r.Stats.Elapsed.Seconds()
			live := (l.Build + l.Analysis).Seconds()
			b.ReportMetric(float64(r.Stats.Distinct), "states")
			b.ReportMetric(float64(l.Edges), "edges")
			b.ReportMetric(safety, "safety-s")
			b.ReportMetric(l.Build.Seconds(), "build-s")
			b.ReportMetric(l.Analysis.Seconds(), "analysis-s")
			b.ReportMetric((safety+live)/safety, "x-safety")
			b.ReportMetric(r.Stats.BytesPerState, "seen-B/state")
			b.ReportMetric(float64(l.GraphBytes)/float64(l.States), "graph-B/state")
		})
	}
}
