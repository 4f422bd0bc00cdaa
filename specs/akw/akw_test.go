package akw_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/akw"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// repaired are the readings under which every small configuration is
// verified: new-color() avoids all neighbours' colors, and a link failure
// re-runs L19–L22.
var repaired = model.Values{"new-color": "avoids-neighbours", "link-down": "recheck"}

// oracle adds the doorways with the real-time guarantee.
var oracle = model.Values{"doorways": "oracle"}

// with returns the union of sets of parameters and key-value pairs.
func with(sets []model.Values, kv ...string) model.Values {
	out := model.Values{}
	for _, set := range sets {
		for k, v := range set {
			out[k] = v
		}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// v is a set of parameters given as key-value pairs.
func v(kv ...string) model.Values { return with(nil, kv...) }

// TestGolden pins state counts and verdicts of the small configurations of
// issue 14, each cross-checked (BFS = DFS = parallel, disk levels, replay).
func TestGolden(t *testing.T) {
	cases := []spectest.Case{
		// Static topology: the faithful reading is verified.
		{Name: "static/n2-path", Params: v()},
		{Name: "static/n2-path-r2", Params: v("requests", "2")},
		{Name: "static/n3-path", Params: v("nodes", "3")},
		{Name: "static/n3-ring", Params: v("nodes", "3", "topology", "ring")},
		// Mobility: the findings and the readings that remove them.
		{Name: "move/n2-path-disconnect", Params: v("disconnects", "1")},
		{Name: "move/n2-path-disconnect@linkdown-recheck", Params: v("disconnects", "1", "link-down", "recheck")},
		{Name: "move/n2-none-connect", Params: v("topology", "none", "connects", "1")},
		{Name: "move/n2-none-connect@oracle", Params: v("topology", "none", "connects", "1", "doorways", "oracle")},
		{Name: "move/n2-none-connect@avoids", Params: v("topology", "none", "connects", "1", "new-color", "avoids-neighbours")},
		{Name: "move/n2-none-connect@nested", Params: v("topology", "none", "connects", "1", "link-up-moving", "nested")},
		{Name: "move/n2-path-connect-disconnect", Params: v("connects", "1", "disconnects", "1")},
		{Name: "move/n2-path-connect-disconnect@repaired", Params: with([]model.Values{repaired}, "connects", "1", "disconnects", "1")},
		{Name: "move/n2-path-connect-disconnect@repaired+oracle", Params: with([]model.Values{repaired, oracle}, "connects", "1", "disconnects", "1")},
		{Name: "move/n3-path-disconnect@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "disconnects", "1")},
		{Name: "move/n3-path-disconnect2@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "disconnects", "2")},
		// Crashes: excused within the claimed failure locality.
		{Name: "crash/n2-path", Params: v("crashes", "1")},
		{Name: "crash/n2-path-locality0", Params: v("crashes", "1", "locality", "0")},
		{Name: "crash/n3-path", Params: v("nodes", "3", "crashes", "1")},
		{Name: "crash/n3-path-locality1", Params: v("nodes", "3", "crashes", "1", "locality", "1")},
		// §3's doorway guarantee (ghost variables): the message-passing
		// doorways break it, the oracle doorways keep it.
		{Name: "doorway/n2-path@ghost", Params: v("doorway-ghost", "true")},
		{Name: "doorway/n2-path@ghost+oracle", Params: v("doorway-ghost", "true", "doorways", "oracle")},
		{Name: "doorway/n3-path@ghost+oracle", Params: v("nodes", "3", "doorway-ghost", "true", "doorways", "oracle")},
		{Name: "doorway/n2-path-connect-disconnect@ghost+repaired+oracle", Params: with([]model.Values{repaired, oracle}, "connects", "1", "disconnects", "1", "doorway-ghost", "true")},
		// Readings of L10 and L17–L23.
		{Name: "reading/n2-path-r2@req-waits", Params: v("requests", "2", "req", "waits")},
		{Name: "reading/n3-path@req-waits", Params: v("nodes", "3", "req", "waits")},
		{Name: "reading/n2-path-r2@fork-anywhere", Params: v("requests", "2", "fork-outside", "anywhere")},
	}
	spectest.Golden(t, akw.Spec, "testdata/golden.txt", cases)
}

// TestGoldenHeavy pins the larger configurations (BFS only), behind
// MXCHECK_HEAVY: about a minute on a loaded 2-core machine.
func TestGoldenHeavy(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") == "" {
		t.Skip("set MXCHECK_HEAVY=1 to run")
	}
	spectest.GoldenBFS(t, akw.Spec, "testdata/golden_heavy.txt", []spectest.Case{
		{Name: "static/n3-path-r2", Params: v("nodes", "3", "requests", "2")},
		{Name: "move/n3-ring-disconnect", Params: v("nodes", "3", "topology", "ring", "disconnects", "1")},
		{Name: "move/n3-ring-disconnect@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "topology", "ring", "disconnects", "1")},
		// A node that moves from one neighbour to another.
		{Name: "move/n3-hop@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "topology", "0.1-1.1", "connects", "1", "disconnects", "1")},
		{Name: "move/n3-path-connect@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "connects", "1")},
		// Two components, a crash in one: the other must progress.
		{Name: "crash/n4-two-components-locality1", Params: v("nodes", "4", "topology", "0.1-1.1,2.1-3.1", "crashes", "1", "locality", "1")},
		{Name: "crash/n3-ring", Params: v("nodes", "3", "topology", "ring", "crashes", "1")},
	})
}

// TestCounterexamples checks the findings and the mutants: each is caught
// by the named property with a shortest trace of the pinned length, stored
// under counterexamples/akw.
func TestCounterexamples(t *testing.T) {
	spectest.Violations(t, akw.Spec, "../../counterexamples/akw", []spectest.Expect{
		// Finding 1: a high neighbour holding the missing fork moves away;
		// L56–L61 do not make the node eat.
		{Name: "finding-linkdown-high-neighbour", Params: v("disconnects", "1"), Property: explore.Deadlock, Steps: 10},
		// Finding 2: a mover's greedy color on its own subgraph equals a
		// static neighbour's initial color.
		{Name: "finding-new-color-clash", Params: v("topology", "none", "connects", "1"), Property: akw.PropColorsDiffer, Steps: 15},
		{Name: "finding-new-color-clash-oracle", Params: v("topology", "none", "connects", "1", "doorways", "oracle"), Property: akw.PropColorsDiffer, Steps: 15},
		// The message-passing doorways do not meet §3's guarantee.
		{Name: "doorway-messages-guarantee", Params: v("doorway-ghost", "true"), Property: akw.PropDoorway, Steps: 6},
		// Readings.
		{Name: "reading-linkup-nested", Params: with([]model.Values{repaired}, "connects", "1", "disconnects", "1", "link-up-moving", "nested"), Property: explore.Deadlock, Steps: 10},
		{Name: "reading-req-waits", Params: v("requests", "2", "req", "waits"), Property: explore.Deadlock, Steps: 31},
		{Name: "reading-fork-anywhere", Params: v("requests", "2", "fork-outside", "anywhere"), Property: akw.PropCSInForks, Steps: 20},
		// Mutants.
		{Name: "mutant-send-fork-keeps-at", Params: v("mutant", "send-fork-keeps-at"), Property: akw.PropForks, Steps: 7},
		{Name: "mutant-eat-with-low-forks", Params: v("nodes", "3", "topology", "ring", "mutant", "eat-with-low-forks"), Property: akw.PropLME, Steps: 12},
		{Name: "mutant-doorways-open", Params: v("doorway-ghost", "true", "doorways", "oracle", "mutant", "doorways-open"), Property: akw.PropDoorway, Steps: 6},
		{Name: "mutant-linkup-moving-keeps-eating", Params: v("topology", "none", "connects", "1", "mutant", "linkup-moving-keeps-eating"), Property: akw.PropCSInForks, Steps: 5},
	})
}

// TestBadConfigurations: impossible configurations are one-line errors.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"too-many-nodes":   {"nodes": "5"},
		"one-node":         {"nodes": "1"},
		"unknown-reading":  {"doorways": "bogus"},
		"unknown-mutant":   {"mutant": "bogus"},
		"bad-locality":     {"locality": "far"},
		"locality-range":   {"locality": "9"},
		"bad-topology":     {"topology": "blob"},
		"bad-edges":        {"topology": "0.1-1"},
		"negative-crashes": {"crashes": "-1"},
		"delta-too-small":  {"nodes": "3", "topology": "ring", "delta": "1"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := akw.Spec.Compile(v); err == nil {
				t.Errorf("Compile(%v) succeeded, want an error", v)
			} else if strings.Contains(err.Error(), "\n") {
				t.Errorf("Compile(%v): error of several lines: %v", v, err)
			}
		})
	}
}

// TestStarvationFreedom pins starvation freedom under weak fairness. Move
// budgets are finite, so every node is eventually static: a hungry node,
// mover or not, must eat. The faithful disconnect row starves through
// finding 1; the repaired reading does not.
func TestStarvationFreedom(t *testing.T) {
	spectest.Liveness(t, akw.Spec, "testdata/liveness.txt", []spectest.Case{
		{Name: "static/n2-path", Params: v()},
		{Name: "static/n2-path-r2", Params: v("requests", "2")},
		{Name: "static/n3-path", Params: v("nodes", "3")},
		{Name: "move/n2-path-disconnect", Params: v("disconnects", "1")},
		{Name: "move/n2-path-connect-disconnect@repaired", Params: with([]model.Values{repaired}, "connects", "1", "disconnects", "1")},
		{Name: "move/n3-path-disconnect@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "disconnects", "1")},
	})
}
