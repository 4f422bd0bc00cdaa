package akw2_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
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

// TestGolden pins state counts and verdicts, each cross-checked (BFS = DFS
// = parallel, disk levels, replay).
func TestGolden(t *testing.T) {
	cases := []spectest.Case{
		{Name: "static/n2-path", Params: model.Values{}},
		{Name: "static/n2-path-r2", Params: model.Values{"requests": "2"}},
		{Name: "static/n2-path-r2@prio-token", Params: model.Values{"requests": "2", "exit-priority": "token"}},
		{Name: "static/n3-path", Params: model.Values{"nodes": "3"}},
		{Name: "static/n3-ring", Params: model.Values{"nodes": "3", "topology": "ring"}},
		{Name: "static/n3-ring@best", Params: with(best, "nodes", "3", "topology", "ring")},
		{Name: "static/n3-path-r2@best", Params: with(best, "nodes", "3", "requests", "2")},
		{Name: "move/n2-none-connect@best", Params: with(best, "topology", "none", "connects", "1")},
		{Name: "move/n2-path-connect-disconnect@best", Params: with(best, "connects", "1", "disconnects", "1")},
		{Name: "move/n3-hop@best", Params: with(best, "nodes", "3", "topology", "0.1-1.1", "connects", "1", "disconnects", "1")},
		{Name: "crash/n4-two-components-locality1@best", Params: with(best, "nodes", "4", "topology", "0.1-1.1,2.1-3.1", "crashes", "1", "locality", "1")},
	}
	spectest.Golden(t, akw2.Spec, "testdata/golden.txt", cases)
}

// TestFailureLocality pins Theorem 8 on the 4-node path with one crash
// (BFS only: 400k states): locality 2 holds under the best readings,
// locality 1 does not, and without higher-forks-first a node 3 links
// from the crash waits forever.
func TestFailureLocality(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	spectest.GoldenBFS(t, akw2.Spec, "testdata/locality.txt", []spectest.Case{
		{Name: "n4-path-crash@best", Params: with(best, "nodes", "4", "crashes", "1")},
		{Name: "n4-path-crash-locality1@best", Params: with(best, "nodes", "4", "crashes", "1", "locality", "1")},
		{Name: "n4-path-crash@prio-token,notify-lowers-all", Params: model.Values{"nodes": "4", "crashes": "1", "exit-priority": "token", "notify-lowers": "all"}},
	})
}

// TestCounterexamples checks the readings the checker refutes and the
// mutants, with traces stored under counterexamples/akw2.
func TestCounterexamples(t *testing.T) {
	spectest.Violations(t, akw2.Spec, "../../counterexamples/akw2", []spectest.Expect{
		// Exit tells every neighbour, also those that already had
		// priority: two crossing priority messages leave both with it.
		{Name: "reading-exit-tells-all", Params: model.Values{"requests": "2"}, Property: akw2.PropPriority, Steps: 11},
		// Lowering on one link only closes a priority cycle.
		{Name: "reading-notify-one-link", Params: model.Values{"nodes": "3", "topology": "ring"}, Property: akw2.PropAcyclic, Steps: 3},
		// Even the best readings let asynchronous priority messages close
		// a cycle on the triangle (no deadlock follows at these sizes).
		{Name: "best-priority-cycle", Params: with(best, "nodes", "3", "topology", "ring"), Property: akw2.PropAcyclic, Steps: 20},
		{Name: "mutant-send-fork-keeps-at", Params: model.Values{"mutant": "send-fork-keeps-at"}, Property: akw2.PropForks, Steps: 3},
		{Name: "mutant-mover-keeps-eating", Params: with(best, "topology", "none", "connects", "1", "mutant", "mover-keeps-eating"), Property: akw2.PropLME, Steps: 5},
		{Name: "mutant-no-preemption", Params: model.Values{"nodes": "3", "topology": "ring", "exit-priority": "token", "notify-lowers": "all", "mutant": "no-preemption"}, Property: explore.Deadlock, Steps: 16},
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
