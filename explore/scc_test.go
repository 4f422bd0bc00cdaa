package explore

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dominikbraun/graph"
)

// randomCSR is a random directed graph in CSR form with n states and about
// deg edges per state, self-loops and parallel edges included.
func randomCSR(rng *rand.Rand, n, deg int) (off, dst []uint32) {
	off = make([]uint32, 0, n+1)
	off = append(off, 0)
	for v := 0; v < n; v++ {
		for k := rng.IntN(2 * deg); k > 0; k-- {
			// Mostly local edges, so that there are sizeable SCCs.
			w := v + rng.IntN(7) - 3
			if rng.IntN(4) == 0 {
				w = rng.IntN(n)
			}
			dst = append(dst, uint32((w+n)%n))
		}
		off = append(off, uint32(len(dst)))
	}
	return off, dst
}

func full(n int) bitset {
	b := newBitset(n)
	for i := 0; i < n; i++ {
		b.set(uint32(i))
	}
	return b
}

// partition renders a component assignment as a sorted list of sorted
// member lists, so that two numberings can be compared.
func partition(comp []uint32) string {
	groups := map[uint32][]int{}
	for v, c := range comp {
		if c != noComp {
			groups[c] = append(groups[c], v)
		}
	}
	var out []string
	for _, g := range groups {
		sort.Ints(g)
		out = append(out, fmt.Sprint(g))
	}
	sort.Strings(out)
	return fmt.Sprint(out)
}

// dominikSCC decomposes the subgraph with github.com/dominikbraun/graph.
// Vertices are named v+1: its StronglyConnectedComponents (v0.23.0) never
// pops a vertex whose hash is the zero value, and merges it into a later
// component (see TestDominikbraunZeroVertex).
func dominikSCC(t testing.TB, off, dst []uint32, in, alive bitset) []uint32 {
	n := len(off) - 1
	g := graph.New(graph.IntHash, graph.Directed())
	for v := 0; v < n; v++ {
		if in.has(uint32(v)) {
			_ = g.AddVertex(v + 1)
		}
	}
	for v := 0; v < n; v++ {
		for e := off[v]; e < off[v+1]; e++ {
			if alive.has(e) && int(dst[e]) != v {
				_ = g.AddEdge(v+1, int(dst[e])+1) // parallel edges: ErrEdgeAlreadyExists
			}
		}
	}
	sccs, err := graph.StronglyConnectedComponents(g)
	if err != nil {
		t.Fatal(err)
	}
	comp := make([]uint32, n)
	for i := range comp {
		comp[i] = noComp
	}
	for k, c := range sccs {
		for _, v := range c {
			comp[v-1] = uint32(k)
		}
	}
	return comp
}

// TestDominikbraunZeroVertex pins a bug of dominikbraun/graph v0.23.0: with
// vertices 0 and 3 and the one edge 3→0, StronglyConnectedComponents
// never returns the right {0}, {3}: depending on map order it merges them
// and may add an empty component (vertex 0, the zero value, is never
// popped). If this fails,
// the bug is fixed upstream and dominikSCC no longer needs to shift vertex
// names.
func TestDominikbraunZeroVertex(t *testing.T) {
	g := graph.New(graph.IntHash, graph.Directed())
	_ = g.AddVertex(0)
	_ = g.AddVertex(3)
	_ = g.AddEdge(3, 0)
	sccs, err := graph.StronglyConnectedComponents(g)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range sccs {
		sort.Ints(c)
		got = append(got, fmt.Sprint(c))
	}
	sort.Strings(got)
	if fmt.Sprint(got) == "[[0] [3]]" {
		t.Errorf("dominikbraun/graph now finds %d components %v: the zero-vertex bug is fixed", len(sccs), sccs)
	}
}

// reachSCC is the definition: v and w share a component iff each reaches
// the other.
func reachSCC(off, dst []uint32, in, alive bitset) []uint32 {
	n := len(off) - 1
	reach := make([][]bool, n)
	for v := 0; v < n; v++ {
		reach[v] = make([]bool, n)
		if !in.has(uint32(v)) {
			continue
		}
		reach[v][v] = true
		stack := []int{v}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for e := off[x]; e < off[x+1]; e++ {
				if y := int(dst[e]); alive.has(e) && !reach[v][y] {
					reach[v][y] = true
					stack = append(stack, y)
				}
			}
		}
	}
	comp := make([]uint32, n)
	for v := range comp {
		comp[v] = noComp
		if !in.has(uint32(v)) {
			continue
		}
		for w := 0; w <= v; w++ {
			if reach[v][w] && reach[w][v] {
				comp[v] = uint32(w)
				break
			}
		}
	}
	return comp
}

// Our iterative Tarjan agrees with dominikbraun/graph on random graphs, and
// with the definition on random subgraphs (states and edges left out).
func TestSCCCrossCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var f sccFinder
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(60)
		off, dst := randomCSR(rng, n, 1+rng.IntN(3))
		comp := make([]uint32, n)
		in, alive := full(n), full(len(dst))
		f.run(off, dst, in, alive, comp)
		if got, want := partition(comp), partition(dominikSCC(t, off, dst, in, alive)); got != want {
			t.Fatalf("graph %d: ours %s, dominikbraun %s", i, got, want)
		}
		// A random subgraph: every alive edge must have both ends in `in`.
		for v := 0; v < n; v++ {
			if rng.IntN(5) == 0 {
				in.unset(uint32(v))
			}
		}
		for v := 0; v < n; v++ {
			for e := off[v]; e < off[v+1]; e++ {
				if !in.has(uint32(v)) || !in.has(dst[e]) || rng.IntN(6) == 0 {
					alive.unset(e)
				}
			}
		}
		f.run(off, dst, in, alive, comp)
		want := reachSCC(off, dst, in, alive)
		if got, want := partition(comp), partition(want); got != want {
			t.Fatalf("subgraph %d: ours %s, definition %s", i, got, want)
		}
		if got, want := partition(comp), partition(dominikSCC(t, off, dst, in, alive)); got != want {
			t.Fatalf("subgraph %d: ours %s, dominikbraun %s", i, got, want)
		}
	}
}

// A long path closed into one cycle: deep DFS, no recursion to overflow.
func TestSCCDeep(t *testing.T) {
	n := 1 << 20
	off, dst := make([]uint32, n+1), make([]uint32, n)
	for v := 0; v < n; v++ {
		dst[v] = uint32((v + 1) % n)
		off[v+1] = uint32(v + 1)
	}
	comp := make([]uint32, n)
	var f sccFinder
	if k := f.run(off, dst, full(n), full(n), comp); k != 1 {
		t.Fatalf("%d components, want 1", k)
	}
	dst[n-1] = 0
	dst[n-1] = uint32(n - 1) // now a path plus a self-loop: n components
	if k := f.run(off, dst, full(n), full(n), comp); k != uint32(n) {
		t.Fatalf("%d components, want %d", k, n)
	}
}

// BenchmarkSCC compares our Tarjan with dominikbraun/graph's on a random
// graph of the shape of a state graph (about 6 edges per state).
func BenchmarkSCC(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 100_000
	off, dst := randomCSR(rng, n, 3)
	in, alive := full(n), full(len(dst))
	b.Run("tarjan", func(b *testing.B) {
		comp := make([]uint32, n)
		var f sccFinder
		for i := 0; i < b.N; i++ {
			f.run(off, dst, in, alive, comp)
		}
		b.ReportMetric(float64(n), "states")
	})
	b.Run("dominikbraun", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dominikSCC(b, off, dst, in, alive)
		}
		b.ReportMetric(float64(n), "states")
	})
}
