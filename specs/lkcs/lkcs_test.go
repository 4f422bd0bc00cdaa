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
	// A path of three, (l, k) = (0, 3) (k capped at |N_i|+1 = 2 at the
	// ends), the middle process in the CS.
	path3 = model.Values{"l": "0", "k": "3", "cs": "1", "fifo": "true", "report-trigger": "true"}
)

// TestGolden pins verdicts, state counts and shortest counterexample
// lengths, cross-checked BFS = DFS = parallel, with levels on disk and
// every reduction. Every row reports whether the leader's trigger fires
// (trigger-never-fires=violated: it does).
func TestGolden(t *testing.T) {
	spectest.Golden(t, lkcs.Spec, "testdata/golden.txt", []spectest.Case{
		{Name: "n2-l0k2", Params: n2},
		{Name: "n2-l0k2-no-trigger", Params: with(n2, model.Values{"variant": "no-trigger"})},
		{Name: "n2-l0k2-trigger-when-full", Params: with(n2, model.Values{"variant": "trigger-when-full"})},
		{Name: "n2-l0k2-trigger-repaired", Params: with(n2, model.Values{"variant": "trigger-repaired"})},
		{Name: "n2-l0k2-bag", Params: with(n2, model.Values{"fifo": "false"})},
		{Name: "n2-l0k2-deadlock-any", Params: with(n2, model.Values{"deadlock": "any"})},
		{Name: "path3-l0k3", Params: path3},
		{Name: "path3-l0k3-no-trigger", Params: with(path3, model.Values{"variant": "no-trigger"})},
		{Name: "path3-l0k3-trigger-repaired", Params: with(path3, model.Values{"variant": "trigger-repaired"})},
		// A process that stopped between sequences: some waiting process
		// is stuck, not every one.
		{Name: "path3-l0k3-trigger-repaired-deadlock-any", Params: with(path3, model.Values{"variant": "trigger-repaired", "deadlock": "any"})},
		{Name: "path3-l0k3-cs02", Params: with(path3, model.Values{"cs": "0,2"})},
		{Name: "path3-l0k3-leader1", Params: with(path3, model.Values{"leader": "1"})},
		{Name: "path3-l0k3-init-as-printed", Params: with(path3, model.Values{"variant": "init-as-printed"})},
		{Name: "path3-l0k3-preempt-carries-ts", Params: with(path3, model.Values{"variant": "preempt-carries-ts"})},
		// (l, k) = (1, 2): L_i = 2 > K_i = 1 near the leader.
		{Name: "path3-l1k2-bag", Params: with(path3, model.Values{"l": "1", "k": "2", "fifo": "false"})},
		// l = k = 1: no process can ever move without breaking safety.
		{Name: "path3-l1k1", Params: with(path3, model.Values{"l": "1", "k": "1"})},
		{Name: "star4-l0k4-c1", Params: with(path3, model.Values{"nodes": "4", "topology": "star", "k": "4", "cs": "0", "changes": "1"})},
		{Name: "triangle-l0k3-c1", Params: with(path3, model.Values{"topology": "complete", "changes": "1"})},
	})
}

// TestCounterexamples: the findings and the mutants are caught by the named
// property, with the pinned shortest trace, stored under
// counterexamples/lkcs.
func TestCounterexamples(t *testing.T) {
	noWitness := func(v model.Values) model.Values { return with(v, model.Values{"report-trigger": "false"}) }
	spectest.Violations(t, lkcs.Spec, "../../counterexamples/lkcs", []spectest.Expect{
		// Finding 1: the leader calls TriggerNomination, which sends no
		// Trigger: neither of its tests holds when the grant sets are full.
		{Name: "trigger-sends-nothing", Params: noWitness(n2), Property: explore.Deadlock, Steps: 7},
		// The same deadlock without the trigger.
		{Name: "no-trigger-deadlock", Params: noWitness(with(n2, model.Values{"variant": "no-trigger"})), Property: explore.Deadlock, Steps: 6},
		// Mutants.
		{Name: "mutant-grant-without-cond", Params: model.Values{"l": "0", "k": "2", "cs": "1", "fifo": "true", "mutant": "grant-without-cond"}, Property: lkcs.PropGrantBound},
		{Name: "mutant-trigger-wrong-candidate", Params: noWitness(with(path3, model.Values{"variant": "trigger-repaired", "mutant": "trigger-wrong-candidate"})), Property: explore.Deadlock},
	})
}

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
			full, err := lkcs.Spec.Normalize(v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lkcs.Spec.Build(full); err == nil {
				t.Errorf("Build(%v) succeeded, want an error", v)
			}
		})
	}
}
