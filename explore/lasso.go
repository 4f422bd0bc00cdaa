package explore

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

const noEdge = ^uint32(0)

// loopTarget is something the loop must reach: a state, or an edge to take.
type loopTarget struct{ state, edge uint32 }

// lasso builds the counterexample for node u from entry, a state of a fair
// component of a.comp (as left by analyse(u)): the shortest stem from an
// initial state, then a loop inside the component, as a replayable trace.
func (a *analysis) lasso(l *edgeLister, u model.NodeID, entry uint32) (Violation, error) {
	g := a.g
	loop, err := a.loopFrom(entry)
	if err != nil {
		return Violation{}, err
	}
	var chain []uint32
	for v := entry; v != noParent; v = g.parent[v] {
		chain = append(chain, v)
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	var path []uint32
	for i := 1; i < len(chain); i++ {
		p, c := chain[i-1], chain[i]
		e := g.off[p]
		for g.dst[e] != c {
			e++
		}
		path = append(path, e)
	}
	stem := len(path)
	path = append(path, loop...)
	ords, err := a.ordinals(l, chain[0], path)
	if err != nil {
		return Violation{}, err
	}
	tr, _ := buildTrace(l.sys, ords)
	mode := "probabilistic"
	if !a.prob {
		mode = "adversarial"
	}
	v := Violation{Kind: model.Eventually, Trace: tr, Lasso: &Lasso{Loop: stem, Node: u.String(), Choices: mode}}
	draws := false
	for _, e := range loop {
		if g.drawEnd(g.drawStart(e))-g.drawStart(e) > 1 {
			draws = true
		}
	}
	switch {
	case len(loop) == 0:
		v.Explanation = fmt.Sprintf("%s stays hungry forever: no fair step is enabled in the last state (only request calls and adversary moves, which owe nothing), so the system may stay there", u)
	case a.prob && draws:
		v.Explanation = fmt.Sprintf("%s stays hungry forever with positive probability: every random draw in the loop has all its outcomes among the loop's states, so a fair scheduler can keep the system in them (an end component), and every fairness class enabled throughout the loop is taken in it", u)
	default:
		v.Explanation = fmt.Sprintf("%s stays hungry forever: the loop can repeat forever, and every fairness class enabled throughout it is taken in it", u)
	}
	return v, nil
}

// loopFrom returns a closed walk from entry inside its component that is a
// certificate on its own: every class enabled in all the walk's states is
// taken on the walk and (probabilistic choices) every draw on the walk has
// all its outcomes among the walk's states. It grows the walk until both
// hold; each round adds a state or a class, so it ends.
func (a *analysis) loopFrom(entry uint32) ([]uint32, error) {
	g := a.g
	k := a.comp[entry]
	members := a.member[a.compStart[k]:a.compStart[k+1]]
	inC := func(v uint32) bool { return a.in.has(v) && a.comp[v] == k }
	intra := func(e uint32) bool { return a.alive.has(e) && inC(g.dst[e]) }
	var walk []uint32
	for round := 0; ; round++ {
		if round > len(members)+g.nclass+1 {
			return nil, errors.New("the loop construction does not converge")
		}
		onS := map[uint32]bool{entry: true}
		onWalk := map[uint32]bool{}
		for _, e := range walk {
			onS[g.dst[e]] = true
			onWalk[g.cls[e]] = true
		}
		var targets []loopTarget
		if a.prob {
			added := map[uint32]bool{}
			for _, e := range walk {
				d := g.drawStart(e)
				for x, end := d, g.drawEnd(d); x < end; x++ {
					if w := g.dst[x]; !onS[w] && !added[w] {
						added[w] = true
						targets = append(targets, loopTarget{w, noEdge})
					}
				}
			}
		}
		cnt := map[uint32]int{}
		for v := range onS {
			for _, c := range a.classesAt(v) {
				cnt[c]++
			}
		}
		var need []uint32
		for c, n := range cnt {
			if n == len(onS) && !onWalk[c] {
				need = append(need, c)
			}
		}
		sort.Slice(need, func(i, j int) bool { return need[i] < need[j] })
		if len(need) > 0 {
			dist := a.distances(entry, intra)
			for _, c := range need {
				t, ok := a.serve(c, members, dist, intra)
				if !ok {
					return nil, fmt.Errorf("the component is not fair to class %d", c)
				}
				targets = append(targets, t)
			}
		}
		if len(targets) == 0 {
			return walk, nil
		}
		cur := entry
		for _, t := range targets {
			to := t.state
			if t.edge != noEdge {
				to = g.srcOf(t.edge)
			}
			walk = append(walk, a.path(cur, to, intra)...)
			cur = to
			if t.edge != noEdge {
				walk = append(walk, t.edge)
				cur = g.dst[t.edge]
			}
		}
		walk = append(walk, a.path(cur, entry, intra)...)
	}
}

// classesAt returns the distinct fairness classes enabled in state v.
func (a *analysis) classesAt(v uint32) []uint32 {
	g := a.g
	var out []uint32
	for e := g.off[v]; e < g.off[v+1]; e++ {
		c := g.cls[e]
		if c == noClass {
			continue
		}
		dup := false
		for _, x := range out {
			dup = dup || x == c
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// serve picks the nearest way to satisfy class c inside the component: a
// state where c is disabled, or an edge of class c inside the component.
func (a *analysis) serve(c uint32, members []uint32, dist map[uint32]int, intra func(uint32) bool) (loopTarget, bool) {
	g := a.g
	best, bd := loopTarget{}, -1
	for _, v := range members {
		d, ok := dist[v]
		if !ok || (bd >= 0 && d >= bd) {
			continue
		}
		enabled := false
		for e := g.off[v]; e < g.off[v+1]; e++ {
			if g.cls[e] != c {
				continue
			}
			enabled = true
			if intra(e) {
				best, bd = loopTarget{v, e}, d
				break
			}
		}
		if !enabled {
			best, bd = loopTarget{v, noEdge}, d
		}
	}
	return best, bd >= 0
}

// distances is a BFS from src over the edges intra accepts.
func (a *analysis) distances(src uint32, intra func(uint32) bool) map[uint32]int {
	g := a.g
	dist := map[uint32]int{src: 0}
	queue := []uint32{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for e := g.off[v]; e < g.off[v+1]; e++ {
			if w := g.dst[e]; intra(e) {
				if _, ok := dist[w]; !ok {
					dist[w] = dist[v] + 1
					queue = append(queue, w)
				}
			}
		}
	}
	return dist
}

// path returns the edges of a shortest path from x to y over the edges
// intra accepts (nil when x == y).
func (a *analysis) path(x, y uint32, intra func(uint32) bool) []uint32 {
	g := a.g
	if x == y {
		return nil
	}
	via := map[uint32]uint32{x: noEdge}
	queue := []uint32{x}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for e := g.off[v]; e < g.off[v+1]; e++ {
			w := g.dst[e]
			if _, ok := via[w]; ok || !intra(e) {
				continue
			}
			via[w] = e
			if w == y {
				var rev []uint32
				for w != x {
					e := via[w]
					rev = append(rev, e)
					w = g.srcOf(e)
				}
				for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
					rev[i], rev[j] = rev[j], rev[i]
				}
				return rev
			}
			queue = append(queue, w)
		}
	}
	return nil // unreachable inside an SCC
}

// ordinals turns a path of graph edges from root into the successor
// ordinals buildTrace replays, checking each step against the graph.
func (a *analysis) ordinals(l *edgeLister, root uint32, path []uint32) ([]uint32, error) {
	g, sys := a.g, l.sys
	ords := []uint32{g.roots[root]}
	cur := sys.Clone(sys.Init()[g.roots[root]])
	v := root
	for _, e := range path {
		local := l.list(cur, nil)
		i := e - g.off[v]
		if int(i) >= len(local) || local[i].fp != g.fp[g.dst[e]] {
			return nil, fmt.Errorf("state %d has other successors than when the graph was built", v)
		}
		ord := local[i].ord
		_, next := nthSuccessor(sys, cur, ord)
		ords = append(ords, ord)
		cur, v = next, g.dst[e]
	}
	return ords, nil
}
