package explore

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/mxcheck/mxcheck/model"
)

// StarvationFreedom is the name of the liveness property when the system
// does not name it.
const StarvationFreedom = "starvation-freedom"

// livenessNamer is the optional System capability that names the liveness
// property, e.g. "lockout-freedom". An empty name means the system makes no
// liveness claim.
type livenessNamer interface {
	LivenessProperty() string
}

// livenessProperty returns the liveness property's name for sys, and
// whether sys can be checked for liveness at all.
func livenessProperty(sys model.System) (string, error) {
	if _, ok := sys.(model.Fair); !ok {
		return "", fmt.Errorf("liveness checking needs a system that says which nodes are hungry and how steps count for fairness (model.Fair)")
	}
	if n, ok := sys.(livenessNamer); ok {
		name := n.LivenessProperty()
		if name == "" {
			return "", fmt.Errorf("this spec makes no liveness claim (it declares no hungry nodes)")
		}
		return name, nil
	}
	return StarvationFreedom, nil
}

// LivenessStats are the figures of the liveness pass. The counts are
// deterministic; the durations are not.
type LivenessStats struct {
	// Choices is how random choices counted: "probabilistic" or "adversarial".
	Choices string `json:"choices"`
	// States and Edges are the size of the stored state graph.
	States int64 `json:"states"`
	Edges  int64 `json:"edges"`
	// Classes is the number of distinct weak-fairness classes.
	Classes int `json:"fairness_classes"`
	// HungryStates is the number of states in which some node is hungry. If
	// it is 0, the property holds vacuously.
	HungryStates int64 `json:"hungry_states"`
	// Rounds is the largest number of SCC decompositions one node needed
	// (end-component refinement; 1 with adversarial choices).
	Rounds int `json:"rounds"`
	// GraphBytes is the memory of the stored graph.
	GraphBytes int64 `json:"graph_bytes"`
	// Build is the time to build the graph (when the BFS recorded it, only
	// the time to assemble the record: the recording counts in the search's
	// time), Analysis the time to search it.
	Build    time.Duration `json:"build_ns"`
	Analysis time.Duration `json:"analysis_ns"`
}

// Lasso marks a liveness counterexample: Trace.Steps[Loop] is where the
// loop starts, and the last state equals it, so steps Loop+1.. repeat
// forever. Loop equal to the last index means the system stays in the last
// state forever (no fair step is enabled there).
type Lasso struct {
	Loop int `json:"loop"`
	// Node is the node that stays hungry forever, e.g. "n1".
	Node string `json:"node"`
	// Choices is "probabilistic" (the loop's states and draws form an end
	// component: the node starves with positive probability) or
	// "adversarial" (the scheduler also picks random outcomes).
	Choices string `json:"choices"`
}

// liveness runs the liveness pass after a search and adds its property,
// figures and counterexample to r. It only runs when the search expanded
// every reachable state; otherwise the property is unknown.
func (s *search) liveness(r *Result) {
	name, _ := livenessProperty(s.c.sys) // New has checked it
	status := Unknown
	defer func() {
		r.Properties = append(r.Properties, PropertyResult{Name: name, Status: status, Kind: model.Eventually})
	}()
	if !r.Exhausted {
		return
	}
	opt := &s.c.opt
	mode := opt.Choices.String()
	l := &edgeLister{sys: s.c.sys, fair: s.c.sys.(model.Fair), adv: opt.Choices == Adversarial, classes: map[string]uint32{}}
	lim := &graphLimits{maxStates: opt.MaxStates, lim: s.lim}
	var progress func(int, int)
	if w := opt.Progress; w != nil {
		last := time.Now()
		progress = func(n, m int) {
			if now := time.Now(); now.Sub(last) >= opt.ProgressEvery {
				last = now
				fmt.Fprintf(w, "mxcheck: liveness graph: states=%d edges=%d\n", n, m)
			}
		}
	}
	t0 := time.Now()
	g, limit := s.live.graph(), "" // liverecord.go: recorded during the BFS
	recorded := g != nil
	if !recorded {
		g, limit = buildGraph(l, lim, progress)
	} else if lim.maxStates > 0 && g.states() > lim.maxStates {
		limit = "max-states"
	}
	if testLiveGraph != nil {
		testLiveGraph(g, recorded)
	}
	build := time.Since(t0)
	stopped := r.stopped // props.go
	if limit != "" {
		stopped(limit)
		return
	}
	t1 := time.Now()
	a := newAnalysis(g, opt.Choices == Probabilistic)
	a.lim = s.lim
	u, entry, found := a.search()
	if a.limit != "" {
		stopped(a.limit)
		return
	}
	st := &LivenessStats{
		Choices: mode, States: int64(g.states()), Edges: int64(len(g.dst)), Classes: g.nclass,
		HungryStates: a.hungryStates, Rounds: a.maxRounds, GraphBytes: g.bytes(), Build: build,
	}
	r.Liveness = st
	if !found {
		st.Analysis = time.Since(t1)
		status = Holds
		return
	}
	v, err := a.lasso(l, u, entry)
	st.Analysis = time.Since(t1)
	if err != nil {
		// The model is not deterministic or a fingerprint collided: say so
		// rather than print a lasso that does not replay.
		v = Violation{Property: name, Kind: model.Eventually, Explanation: "could not rebuild the lasso: " + err.Error()}
	}
	v.Property = name
	r.Violations = append(r.Violations, v)
	r.Verdict = Violated
	status = Fails
}

// analysis searches a liveness graph for fair end components (fair SCCs
// with adversarial choices) in which one node stays hungry.
type analysis struct {
	g     *liveGraph
	prob  bool
	in    bitset   // states where the node is hungry
	alive bitset   // edges of draws that stay inside the candidate set
	comp  []uint32 // component of each state in `in`
	scc   sccFinder
	// scratch for the fairness check, one slot per class
	cnt, stamp, taken []uint32
	touched           []uint32
	compStart, member []uint32

	hungryStates int64
	maxRounds    int
	// lim stops the analysis between SCC decompositions; limit then names
	// the limit reached and the result is not to be used.
	lim   *limits
	limit string
}

func newAnalysis(g *liveGraph, prob bool) *analysis {
	n := g.states()
	a := &analysis{g: g, prob: prob, in: newBitset(n), alive: newBitset(len(g.dst)), comp: make([]uint32, n),
		cnt: make([]uint32, g.nclass), stamp: make([]uint32, g.nclass), taken: make([]uint32, g.nclass)}
	for _, h := range g.hungry {
		if !h.Empty() {
			a.hungryStates++
		}
	}
	return a
}

// search returns the starving node and the entry state of a fair
// component whose stem is shortest (smallest id: ids are in BFS order),
// preferring the smaller node on ties. It leaves a.comp and a.alive set for
// that node.
func (a *analysis) search() (model.NodeID, uint32, bool) {
	var all model.NodeSet
	for _, h := range a.g.hungry {
		all |= h
	}
	best, bestU, found := noParent, model.NodeID(0), false
	for _, u := range all.All() {
		e, ok := a.analyse(u)
		if a.limit != "" {
			return 0, 0, false
		}
		if ok && e < best {
			best, bestU, found = e, u, true
		}
	}
	if found {
		a.analyse(bestU)
	}
	return bestU, best, found
}

// analyse finds the maximal end components (SCCs, with adversarial
// choices) of the subgraph where u is hungry and returns the smallest state
// of a fair one.
func (a *analysis) analyse(u model.NodeID) (uint32, bool) {
	g := a.g
	a.in.clear()
	a.alive.clear()
	for v, h := range g.hungry {
		if h.Has(u) {
			a.in.set(uint32(v))
		}
	}
	// A draw can be used inside the set only if every outcome stays in it.
	a.eachDraw(func(v, d, end uint32) {
		for x := d; x < end; x++ {
			if !a.in.has(g.dst[x]) {
				return
			}
		}
		for x := d; x < end; x++ {
			a.alive.set(x)
		}
	})
	rounds := 0
	for {
		if a.limit = a.lim.check(true); a.limit != "" {
			return 0, false
		}
		rounds++
		a.scc.run(g.off, g.dst, a.in, a.alive, a.comp)
		if !a.prob {
			break
		}
		// Drop draws with an outcome that leaves its source's SCC; when a
		// dropped draw also had an outcome inside, the SCC may split.
		changed := false
		a.eachDraw(func(v, d, end uint32) {
			if end-d == 1 || !a.alive.has(d) {
				return
			}
			leaves, stays := false, false
			for x := d; x < end; x++ {
				if a.comp[g.dst[x]] == a.comp[v] {
					stays = true
				} else {
					leaves = true
				}
			}
			if leaves {
				for x := d; x < end; x++ {
					a.alive.unset(x)
				}
				changed = changed || stays
			}
		})
		if !changed {
			break
		}
	}
	a.maxRounds = max(a.maxRounds, rounds)
	return a.fairComponent()
}

// eachDraw calls f for every draw (first edge d, end) of every state v in a.in.
func (a *analysis) eachDraw(f func(v, d, end uint32)) {
	g := a.g
	for w, word := range a.in {
		for ; word != 0; word &= word - 1 {
			v := uint32(w*64 + bits.TrailingZeros64(word))
			for d, end := g.off[v], g.off[v+1]; d < end; {
				e := d + 1
				for e < end && !g.start.has(e) {
					e++
				}
				f(v, d, e)
				d = e
			}
		}
	}
}

// fairComponent checks every component of a.comp for weak fairness: each
// class enabled in all its states must have an edge inside it (an alive
// edge to a state of the same component). The components include single
// states without a loop: the system may stay in such a state forever when
// no fair step is enabled there (stuttering). It returns the smallest state
// of the fair components.
func (a *analysis) fairComponent() (uint32, bool) {
	g := a.g
	ncomp := uint32(0)
	for w, word := range a.in {
		for ; word != 0; word &= word - 1 {
			ncomp = max(ncomp, a.comp[w*64+bits.TrailingZeros64(word)]+1)
		}
	}
	// Counting sort of the states by component; members stay in id order.
	a.compStart = append(a.compStart[:0], make([]uint32, ncomp+1)...)
	a.member = a.member[:0]
	for w, word := range a.in {
		for ; word != 0; word &= word - 1 {
			a.compStart[a.comp[w*64+bits.TrailingZeros64(word)]+1]++
			a.member = append(a.member, 0)
		}
	}
	for k := uint32(1); k <= ncomp; k++ {
		a.compStart[k] += a.compStart[k-1]
	}
	fill := append([]uint32(nil), a.compStart[:ncomp]...)
	for w, word := range a.in {
		for ; word != 0; word &= word - 1 {
			v := uint32(w*64 + bits.TrailingZeros64(word))
			k := a.comp[v]
			a.member[fill[k]] = v
			fill[k]++
		}
	}
	clear(a.stamp)
	clear(a.taken)
	best, found := noParent, false
	for k := uint32(0); k < ncomp; k++ {
		members := a.member[a.compStart[k]:a.compStart[k+1]]
		if members[0] >= best {
			continue // a fair component with a shorter stem is known
		}
		a.touched = a.touched[:0]
		for _, v := range members {
			for e := g.off[v]; e < g.off[v+1]; e++ {
				c := g.cls[e]
				if c == noClass {
					continue
				}
				if a.stamp[c] != v+1 {
					a.stamp[c] = v + 1
					if a.cnt[c] == 0 {
						a.touched = append(a.touched, c)
					}
					a.cnt[c]++
				}
				if a.alive.has(e) && a.comp[g.dst[e]] == k {
					a.taken[c] = k + 1
				}
			}
		}
		fair := true
		for _, c := range a.touched {
			if a.cnt[c] == uint32(len(members)) && a.taken[c] != k+1 {
				fair = false
			}
			a.cnt[c] = 0
		}
		if fair {
			best, found = members[0], true
		}
	}
	return best, found
}
