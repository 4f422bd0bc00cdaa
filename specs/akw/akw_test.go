package akw_test

import (
	"os"
	"strings"
	"testing"

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

// TestFiles runs the pinned scenarios of testdata/ (UPDATE_GOLDEN=1
// rewrites them): static, mobile and crash configurations, the findings,
// the readings, the mutants and starvation freedom, each cross-checked
// (BFS = DFS = parallel, disk levels, reductions, replay).
func TestFiles(t *testing.T) { spectest.Files(t, akw.Spec, "testdata") }

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
		{Name: "move/n3-hop@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "topology", "0.1-1.1", "connects", "1", "disconnects", "1", "starvation", "every")},
		{Name: "move/n3-path-connect@repaired", Params: with([]model.Values{repaired}, "nodes", "3", "connects", "1", "starvation", "every")},
		// Two components, a crash in one: the other must progress.
		{Name: "crash/n4-two-components-locality1", Params: v("nodes", "4", "topology", "0.1-1.1,2.1-3.1", "crashes", "1", "locality", "1")},
		{Name: "crash/n3-ring", Params: v("nodes", "3", "topology", "ring", "crashes", "1")},
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

// TestFailureLocality separates the failure locality from n on the 4-node
// path with one crash (BFS only, 2.2M states each, behind MXCHECK_HEAVY):
// a node 3 links from the crash can wait forever (crash → fork → SD^f →
// AD^f), so locality 2 is violated and 3 holds. Lemma 4 claims
// max(f_c, 4) + 2 ≥ 6, more than any distance at n ≤ 4: consistent, and
// not refutable at this size (doc.go).
func TestFailureLocality(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") == "" {
		t.Skip("set MXCHECK_HEAVY=1 to run (about 30 s)")
	}
	spectest.GoldenBFS(t, akw.Spec, "testdata/locality.txt", []spectest.Case{
		{Name: "n4-path-crash-locality2", Params: v("nodes", "4", "crashes", "1", "locality", "2")},
		{Name: "n4-path-crash-locality3", Params: v("nodes", "4", "crashes", "1", "locality", "3")},
	})
}
