package reduce_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
)

// Issue 18 item 6: on a ring of 8 or 10 identical nodes (every node
// renaming ties on the nodes' own states, and so do their ports) the
// canonical labelling used to try every renaming among ties: 8!·2^8 keys
// for the first state. Refinement by relations and port links bounds it.
func TestCanonicalBoundedOnLargeRings(t *testing.T) {
	for _, n := range []int{8, 10} {
		m := machineP(t, n, "ring", model.Budget{}, true)
		canon := reduce.NewCanonical(m.Symmetric())
		states := []model.State{m.Init()[0]}
		m.Successors(states[0], func(_ model.Transition, s model.State) bool {
			states = append(states, m.Clone(s))
			return true
		})
		start := time.Now()
		keys := map[string]bool{}
		for _, s := range states {
			keys[string(canon.AppendKey(nil, s))] = true
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("N=%d: %d states took %v", n, len(states), el)
		}
		// Every Set successor is the same up to rotation and reflection:
		// two orbits in all. Refinement (nodes by their neighbours, then
		// each node's ports by its neighbours' new names) keeps the search
		// to 2N leaves of one port renaming each, so none is cut short.
		if len(keys) != 2 || canon.Bounded != 0 {
			t.Errorf("N=%d: %d keys, %d bounded", n, len(keys), canon.Bounded)
		}
		t.Logf("N=%d: %d states, %d keys, %d bounded, %v", n, len(states), len(keys), canon.Bounded, time.Since(start))
	}
}

// Refinement by relations separates nodes that their own states do not:
// on a ring of 6 identical nodes, once one node is picked its neighbours,
// theirs and the opposite node are told apart, so the search tree has 12
// leaves instead of 6! = 720 orders, stays below the budget and stays
// canonical (no bounded state).
func TestRefinementKeepsCanonical(t *testing.T) {
	m := machineP(t, 6, "ring", model.Budget{}, false)
	canon := reduce.NewCanonical(m.Symmetric())
	for _, s := range reachable(m)[:200] {
		canon.AppendKey(nil, s)
	}
	if canon.Bounded != 0 {
		t.Errorf("%d states bounded on a ring of 6", canon.Bounded)
	}
}

// A search cut short (here after one key) still never merges two orbits:
// the key is always that of a renaming of the state.
func TestBoundedKeysAreSound(t *testing.T) {
	for _, tc := range []struct {
		n     int
		topo  string
		b     model.Budget
		ports bool
	}{
		{3, "ring", model.Budget{Disconnects: 1}, true},
		{4, "ring", model.Budget{}, true},
		{4, "path", model.Budget{Disconnects: 1, Connects: 1}, false},
		{3, "none", model.Budget{Connects: 2}, true},
	} {
		t.Run(fmt.Sprintf("%d-%s-%v-%v", tc.n, tc.topo, tc.b, tc.ports), func(t *testing.T) {
			m := machineP(t, tc.n, tc.topo, tc.b, tc.ports)
			sym := m.Symmetric()
			canon := reduce.NewCanonical(sym)
			canon.MaxKeys = 1
			orbitOf := map[string]string{}
			for _, s := range reachable(m) {
				ck := string(canon.AppendKey(nil, s))
				bk := string(reduce.BruteForce(nil, sym, s))
				if prev, ok := orbitOf[ck]; ok && prev != bk {
					t.Fatal("a bounded key merged two orbits")
				}
				orbitOf[ck] = bk
			}
			if canon.Bounded == 0 {
				t.Error("no search was cut short with one key per state")
			}
		})
	}
}
