package akw2_test

import (
	"os"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/akw2"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// best is the combination of readings under which the most configurations
// are verified (doc.go).
var best = model.Values{"exit-priority": "token", "notify-lowers": "all", "preemption": "higher-forks-first"}

// with returns base with the key-value pairs added.
func with(base model.Values, kv ...string) model.Values {
	out := model.Values{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestFiles runs the pinned scenarios of testdata/ (UPDATE_GOLDEN=1
// rewrites them), each cross-checked (BFS = DFS = parallel, disk levels,
// reductions, replay).
func TestFiles(t *testing.T) { spectest.Files(t, akw2.Spec, "testdata") }

// TestFailureLocality pins Theorem 8 on the 4-node path with one crash
// (BFS only: 400k states each, behind MXCHECK_HEAVY): locality 2 holds under the best readings,
// locality 1 does not, and without higher-forks-first a node 3 links
// from the crash waits forever.
func TestFailureLocality(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") == "" {
		t.Skip("set MXCHECK_HEAVY=1 to run (about 30 s)")
	}
	spectest.GoldenBFS(t, akw2.Spec, "testdata/locality.txt", []spectest.Case{
		{Name: "n4-path-crash@best", Params: with(best, "nodes", "4", "crashes", "1")},
		{Name: "n4-path-crash-locality1@best", Params: with(best, "nodes", "4", "crashes", "1", "locality", "1")},
		{Name: "n4-path-crash@prio-token,notify-lowers-all", Params: model.Values{"nodes": "4", "crashes": "1", "exit-priority": "token", "notify-lowers": "all"}},
	})
}

// TestFailureLocalityN5 pins Theorem 8 on the 5-node path with one crash:
// nodes 3 and 4 links from the crash must make progress (BFS, 14.1M
// states, about a minute and 3 GB: behind MXCHECK_HEAVY=2).
func TestFailureLocalityN5(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") != "2" {
		t.Skip("set MXCHECK_HEAVY=2 to run (about a minute, 3 GB)")
	}
	spectest.GoldenBFS(t, akw2.Spec, "testdata/locality_n5.txt", []spectest.Case{
		{Name: "n5-path-crash@best", Params: with(best, "nodes", "5", "crashes", "1")},
	})
}

// TestBadConfigurations: impossible configurations are one-line errors.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"one-node":        {"nodes": "1"},
		"unknown-reading": {"preemption": "bogus"},
		"unknown-mutant":  {"mutant": "bogus"},
		"bad-locality":    {"locality": "far"},
		"bad-topology":    {"topology": "blob"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := akw2.Spec.Compile(v); err == nil {
				t.Errorf("Compile(%v) succeeded, want an error", v)
			}
		})
	}
}
