package maekawa_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/mxtest"
	"github.com/mxcheck/mxcheck/specs/maekawa"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

func heavy(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") == "" {
		t.Skip("set MXCHECK_HEAVY=1 to run")
	}
}

// TestFiles runs the pinned scenarios of testdata/ (make golden rewrites
// them).
func TestFiles(t *testing.T) { spectest.Files(t, maekawa.Spec, "testdata") }

// TestGrid checks the voting sets: row ∪ column, self included, pairwise
// intersecting; non-squares are rejected.
func TestGrid(t *testing.T) {
	for _, n := range []int{1, 4, 9, 16} {
		sets, err := maekawa.Grid(n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range sets {
			k := map[int]int{1: 1, 4: 2, 9: 3, 16: 4}[n]
			if !sets[i].Has(model.NodeID(i)) || sets[i].Len() != 2*k-1 {
				t.Errorf("N=%d: V%d = %v", n, i, sets[i])
			}
			for j := range sets {
				if sets[i]&sets[j] == 0 {
					t.Errorf("N=%d: V%d and V%d are disjoint", n, i, j)
				}
			}
		}
	}
	if _, err := maekawa.Grid(3); err == nil {
		t.Error("N=3 accepted")
	}
}

// TestBadInput checks the one-line errors for bad configurations.
func TestBadInput(t *testing.T) {
	for _, c := range []model.Values{
		{"nodes": "5"},
		{"replace": "0:1"},
		{"replace": "0:1=9"},
		{"replace": "0:0=3"},
		{"replace": "0:3=1"},
		{"replace": "0:1=2"},
		{"requesters": "7"},
		{"variant": "nope"},
		{"mutant": "yield-in-cs"},
	} {
		if _, _, err := maekawa.Spec.Compile(c); err == nil {
			t.Errorf("%v: accepted", c)
		} else {
			t.Logf("%v: %v", c, err)
		}
	}
}

// fewestBreaking returns the fewest replacements (each I:J=K keeping |V_I|)
// after which two voting sets of requesters are disjoint, searching up to
// limit replacements; 0 when none up to limit does. Two sets of size s on
// N nodes always meet when 2s > N, so on a full √N×√N grid this needs
// N ≥ 16.
func fewestBreaking(sets []model.NodeSet, limit int) (int, string) {
	n := len(sets)
	var best int
	var how string
	var rec func(sets []model.NodeSet, depth int, desc string)
	rec = func(sets []model.NodeSet, depth int, desc string) {
		for i := range sets {
			for j := i + 1; j < n; j++ {
				if sets[i]&sets[j] == 0 && (best == 0 || depth < best) {
					best, how = depth, desc
				}
			}
		}
		if depth == limit || best != 0 && depth >= best {
			return
		}
		for i := range sets {
			for _, j := range sets[i].Remove(model.NodeID(i)).All() {
				for k := 0; k < n; k++ {
					if sets[i].Has(model.NodeID(k)) {
						continue
					}
					next := append([]model.NodeSet(nil), sets...)
					next[i] = next[i].Remove(j).Add(model.NodeID(k))
					rec(next, depth+1, fmt.Sprintf("%s%d:%d=%d,", desc, i, j, k))
				}
			}
		}
	}
	rec(sets, 0, "")
	return best, how
}

// TestFewestReplacements: replacing voting-set entries cannot break
// Maekawa on N=4 or N=9 (two (2√N−1)-sets of N nodes always meet), and two
// replacements do on N=16. The checker confirms the N=16 witness by DFS
// (BFS does not finish without partial-order reduction).
func TestFewestReplacements(t *testing.T) {
	for _, c := range []struct{ n, limit, want int }{{4, 3, 0}, {9, 2, 0}, {16, 2, 2}} {
		sets, _ := maekawa.Grid(c.n)
		got, how := fewestBreaking(sets, c.limit)
		if got != c.want {
			t.Errorf("N=%d: fewest replacements that make two voting sets disjoint = %d (%s), want %d", c.n, got, how, c.want)
		}
		t.Logf("N=%d: fewest = %d %s", c.n, got, how)
	}
	mxtest.Violates(t, maekawa.Spec, model.Values{"nodes": "16", "requesters": "0,5", "replace": "0:1=10,0:4=11"},
		"mutual-exclusion", 0, explore.Options{Strategy: explore.DFS, NoDeadlock: true})
}

// TestFullGrid checks N=4 with every node requesting: classic deadlocks,
// the repaired yield variant is safe and deadlock-free.
func TestFullGrid(t *testing.T) {
	heavy(t)
	mxtest.Violates(t, maekawa.Spec, model.Values{"variant": "classic"}, explore.Deadlock, 0)
	r := mxtest.Check(t, maekawa.Spec, model.Values{"variant": "yield-fail-displaced"})
	t.Logf("yield-fail-displaced: %v distinct=%d", r.Properties, r.Stats.Distinct)
}
