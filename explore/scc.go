package explore

import "math/bits"

// noComp marks a state outside the subgraph an SCC decomposition looked at.
const noComp = ^uint32(0)

// sccFinder computes strongly connected components with Tarjan's algorithm,
// iteratively (state graphs have millions of states: no recursion), over a
// subgraph of a CSR graph: the states in a set and the edges in a set. Its
// arrays are reused across runs.
type sccFinder struct {
	index []uint32 // DFS number + 1; 0 = not yet visited
	low   []uint32
	stack []uint32 // Tarjan's stack of visited, unassigned states
	call  []sccFrame
}

type sccFrame struct{ v, e uint32 }

// run assigns comp[v] for every state v in `in`: states with equal numbers
// form one SCC of the subgraph with states `in` and edges `alive` (every
// alive edge must have both ends in `in`). Components are numbered in
// reverse topological order. States outside `in` get noComp. It returns
// the number of components.
func (f *sccFinder) run(off, dst []uint32, in, alive bitset, comp []uint32) uint32 {
	n := len(off) - 1
	if len(f.index) < n {
		f.index, f.low = make([]uint32, n), make([]uint32, n)
	}
	index, low := f.index[:n], f.low[:n]
	clear(index)
	for i := range comp[:n] {
		comp[i] = noComp
	}
	var next, ncomp uint32
	for w, word := range in {
		for ; word != 0; word &= word - 1 {
			r := uint32(w*64 + bits.TrailingZeros64(word))
			if index[r] != 0 {
				continue
			}
			next++
			index[r], low[r] = next, next
			f.stack = append(f.stack, r)
			f.call = append(f.call[:0], sccFrame{r, off[r]})
			for len(f.call) > 0 {
				fr := &f.call[len(f.call)-1]
				v := fr.v
				if e := fr.e; e < off[v+1] {
					fr.e++
					if !alive.has(e) {
						continue
					}
					u := dst[e]
					switch {
					case index[u] == 0:
						next++
						index[u], low[u] = next, next
						f.stack = append(f.stack, u)
						f.call = append(f.call, sccFrame{u, off[u]})
					case comp[u] == noComp: // visited, not yet in a component: on the stack
						low[v] = min(low[v], index[u])
					}
					continue
				}
				if low[v] == index[v] {
					for {
						u := f.stack[len(f.stack)-1]
						f.stack = f.stack[:len(f.stack)-1]
						comp[u] = ncomp
						if u == v {
							break
						}
					}
					ncomp++
				}
				f.call = f.call[:len(f.call)-1]
				if len(f.call) > 0 {
					p := f.call[len(f.call)-1].v
					low[p] = min(low[p], low[v])
				}
			}
		}
	}
	return ncomp
}
