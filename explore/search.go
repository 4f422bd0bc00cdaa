package explore

import (
	"errors"
	"fmt"
	"time"

	"github.com/mxcheck/mxcheck/model"
)

// Checker runs searches over one System with one set of Options.
type Checker struct {
	sys    model.System
	opt    Options
	inv    []model.Invariant
	worker model.WorkPending
	desc   model.Describer
	sym    model.Symmetric    // non-nil when symmetry reduction is on
	ind    model.Independence // non-nil when partial-order reduction is on
	codec  model.Codec        // non-nil when states can be written to disk
	active *search            // the latest search, for SpecPanic
	resume *manifest          // the checkpoint to resume from (Options.Resume)
}

// New validates opt against sys and returns a Checker.
func New(sys model.System, opt Options) (*Checker, error) {
	if sys == nil {
		return nil, fmt.Errorf("no system to check")
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if opt.POR {
		if _, ok := sys.(model.Independence); !ok {
			return nil, fmt.Errorf("partial-order reduction requested, but this system cannot tell which steps are independent")
		}
		if opt.Liveness {
			return nil, fmt.Errorf("partial-order reduction cannot be combined with liveness checking: its cycle proviso only preserves safety and deadlocks")
		}
	}
	if opt.Liveness {
		if _, err := livenessProperty(sys); err != nil {
			return nil, err
		}
	}
	c := &Checker{sys: sys, opt: opt, inv: sys.Invariants()}
	if len(c.inv) > maxStateProps {
		return nil, fmt.Errorf("a search handles at most %d state properties, this system has %d", maxStateProps, len(c.inv))
	}
	if opt.POR {
		c.ind = sys.(model.Independence)
	}
	if opt.Symmetry {
		sp, ok := sys.(model.SymmetryProvider)
		if !ok || sp.Symmetric() == nil {
			return nil, fmt.Errorf("symmetry requested, but this spec does not declare its nodes interchangeable")
		}
		c.sym = sp.Symmetric()
	}
	if w, ok := sys.(model.WorkPending); ok && !opt.NoDeadlock {
		c.worker = w
	}
	c.desc, _ = sys.(model.Describer)
	if cd, ok := sys.(model.Codec); ok && cd.Encodable() {
		c.codec = cd
	}
	if opt.Cluster != nil && c.codec == nil {
		return nil, errors.New("the distributed search sends states as bytes: this spec's states cannot be encoded")
	}
	if err := c.checkpointCheck(); err != nil { // checkpoint.go
		return nil, err
	}
	return c, nil
}

// Run searches the state space and returns the result.
func (c *Checker) Run() *Result {
	if c.opt.Strategy == DFS {
		if c.opt.Workers > 1 {
			return c.parallelDFS()
		}
		return c.dfs()
	}
	var r *Result
	if c.opt.Cluster != nil {
		r = c.bfsDistributed()
	} else {
		r = c.bfs()
	}
	if c.opt.POR && r.Verdict == Violated {
		c.shorten(r)
	}
	return r
}

// workers is the number of workers that ran the search: goroutines, or
// the worker processes of a distributed search.
func (c *Checker) workers() int {
	if c.opt.Cluster != nil {
		return c.opt.Cluster.Workers
	}
	return max(1, c.opt.Workers)
}

// fingerprintBits is the width of the fingerprints: 64 or 128.
func (c *Checker) fingerprintBits() int {
	if c.opt.Fingerprint == 128 {
		return 128
	}
	return 64
}

// noParent marks an initial state's parent link.
const noParent = ^uint32(0)

// link is a state's parent link: the parent's id and the ordinal of the
// transition (among all the parent's successors) that reached it. For an
// initial state, idx is its index among the initial states.
type link struct{ parent, idx uint32 }

// search is the state of one run.
type search struct {
	c          *Checker
	seen       *seenSet // the DFS's (each BFS worker has its own)
	seenBytes  func() int64
	x          *expander // the search goroutine's expansion core
	links      *linkStore
	queueDisk  int64  // bytes of BFS levels written to disk
	n          uint32 // distinct states so far
	trans      int64
	depth      int
	props      *propTracker // statuses, first violations and witnesses
	stop       bool
	limit      string
	start      time.Time
	lim        *limits
	lastTick   time.Time
	ticks      int
	queue      func() int
	key        []byte
	keyA       []byte
	reduced    int64     // states expanded with an ample set
	at         panicSite // what the search is doing, for SpecPanic
	canonCalls uint32
	symBounded int64 // from the canonicalisers of every expander
	warnings   []string
	live       *liveRecord // liverecord.go: the liveness graph the BFS recorded
}

func (c *Checker) newSearch() *search {
	s := &search{c: c, seen: newSeenSet(c.opt.Fingerprint == 128), links: newLinkStore(), start: time.Now()}
	s.props = newPropTracker(c.inv, c.worker != nil, c.opt.Liveness, c.opt.Continue)
	s.lastTick = s.start
	s.lim = newLimits(&c.opt, s.start)
	c.active = s
	s.x = c.newExpander(func() bool { return s.lim.check(false) != "" })
	s.seenBytes = s.seen.bytes
	return s
}

func (s *search) addLink(l link) uint32 {
	id := s.n
	s.links.add(id, l)
	s.n++
	return id
}

func (s *search) linkOf(id uint32) link { return s.links.get(id) }

// discover records state st reached by link l. It reports whether the state
// is new; when it is, its invariants are checked and limits applied.
func (s *search) discover(l link, st model.State, depth int) (uint32, bool) {
	return s.discoverFP(l, s.fingerprint(st), st, depth)
}

// discoverFP is discover for a state whose fingerprint is known.
func (s *search) discoverFP(l link, f fingerprint, st model.State, depth int) (uint32, bool) {
	if !s.seen.insert(f) {
		return 0, false
	}
	id := s.addLink(l)
	if depth > s.depth {
		s.depth = depth
	}
	s.checkNew(s.x, st, id, depth)
	return id, true
}

// checkNew evaluates the state properties of new state id (each until its
// first event), then the state limit.
func (s *search) checkNew(x *expander, st model.State, id uint32, depth int) {
	outer := s.at
	s.at = panicSite{id: id, valid: true}
	if ev := x.events(st, s.props.done); ev != 0 && s.props.note(ev, id, depth) {
		s.stop = true
	}
	s.at = outer
	if s.c.opt.MaxStates > 0 && int(s.n) >= s.c.opt.MaxStates && !s.stop {
		s.halt("max-states")
	}
}

// fingerprint is the fingerprint of st's key, canonical under symmetry.
func (s *search) fingerprint(st model.State) fingerprint {
	if s.x.canon != nil {
		// Canonical labelling can take milliseconds a state: look at the
		// limits between states too, not only between expansions.
		if s.canonCalls++; s.canonCalls&15 == 0 && !s.stop {
			if limit := s.lim.check(false); limit != "" {
				s.halt(limit)
			}
		}
	}
	return s.x.fingerprint(st)
}

// warn notes something the user should know about the run.
func (s *search) warn(msg string) { s.warnings = append(s.warnings, msg) }

// halt stops the search because a limit was reached.
func (s *search) halt(limit string) {
	s.stop = true
	if s.limit == "" {
		s.limit = limit
	}
}

// expand generates the successors of st (id, at depth) and hands each new
// one to keep, unless the depth bound cuts it off. It then checks st for
// deadlock: pending work and no step but stutters and adversary moves.
func (s *search) expand(id uint32, st model.State, depth int, keep func(next model.State, id uint32)) {
	s.tick()
	if s.stop {
		return
	}
	s.at = panicSite{id: id, valid: true} // left set if the system panics
	cut := s.c.opt.MaxDepth > 0 && depth >= s.c.opt.MaxDepth
	ample := -1 // under POR, the node whose steps form the ample set
	if s.c.opt.POR {
		ample = s.ampleNode(s.x, st, s.seen.contains)
	}
	n, dead := s.x.expand(st, ample, !cut, s.props.checkDeadlock(), func(sc *succ) bool {
		if cut {
			// A depth cut leaves the search running but incomplete.
			if s.limit == "" {
				s.limit = "max-depth"
			}
			return true
		}
		nid, isNew := s.discoverFP(link{id, sc.ord}, sc.fp, sc.next, depth+1)
		if isNew {
			keep(sc.next, nid)
		}
		return !s.stop
	})
	s.trans += int64(n)
	if dead && !s.stop && s.props.deadlocked(id, depth) {
		s.stop = true
	}
	s.at.valid = false
}

// tick applies the time and memory limits and prints progress.
func (s *search) tick() {
	s.ticks++
	if s.ticks&255 != 0 {
		return
	}
	if limit := s.lim.check(s.ticks&(1<<14-1) == 0); limit != "" {
		s.halt(limit)
	}
	s.progress(func() (int64, uint32) { return s.trans, s.n })
}

// progress prints a progress line when one is due; counts gives the
// transitions and distinct states so far.
func (s *search) progress(counts func() (int64, uint32)) {
	now := time.Now()
	if w := s.c.opt.Progress; w != nil && now.Sub(s.lastTick) >= s.c.opt.ProgressEvery {
		s.lastTick = now
		el := now.Sub(s.start).Seconds()
		q := 0
		if s.queue != nil {
			q = s.queue()
		}
		trans, n := counts()
		fmt.Fprintf(w, "mxcheck: %6.1fs  transitions=%d distinct=%d queue=%d depth=%d states/s=%.0f\n",
			el, trans, n, q, s.depth, float64(n)/el)
	}
}

// result assembles the Result, rebuilding the trace of each violation.
func (s *search) result() *Result {
	s.at.valid = false
	el := time.Since(s.start)
	r := &Result{Strategy: s.c.opt.Strategy.String(), Limit: s.limit, Exhausted: !s.stop && s.limit == ""}
	s.props.finish(r, s.c.sys, s.trace)
	if s.x.canon != nil {
		s.symBounded += s.x.canon.Bounded
	}
	if s.links.err != nil {
		s.warn(fmt.Sprintf("parent links stayed in memory: the temporary file (TMPDIR) failed: %v", s.links.err))
	}
	r.Warnings = s.warnings
	lb := s.links.memory()
	s.links.close()
	n := float64(s.n)
	r.Stats = Stats{
		Distinct:        int64(s.n),
		Transitions:     s.trans,
		Depth:           s.depth,
		Elapsed:         el,
		SeenBytes:       s.seenBytes() + lb,
		LinkDisk:        s.links.disk,
		QueueDisk:       s.queueDisk,
		Collision:       collisionEstimate(n, s.c.fingerprintBits()),
		Fingerprint:     s.c.fingerprintBits(),
		Workers:         s.c.workers(),
		AmpleStates:     s.reduced,
		SymmetryBounded: s.symBounded,
	}
	if el > 0 {
		r.Stats.Rate = n / el.Seconds()
	}
	if s.n > 0 {
		r.Stats.BytesPerState = float64(r.Stats.SeenBytes) / n
	}
	if s.c.opt.Liveness {
		s.liveness(r) // liveness.go
	}
	return r
}

// path returns the link ordinals from an initial state to id.
func (s *search) path(id uint32) []uint32 {
	var rev []uint32
	for {
		l := s.linkOf(id)
		rev = append(rev, l.idx)
		if l.parent == noParent {
			break
		}
		if l.parent >= id {
			// A parent is always discovered before its child.
			panic(fmt.Sprintf("mxcheck: corrupt parent links: state %d has parent %d", id, l.parent))
		}
		id = l.parent
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// trace rebuilds the trace to state id by replaying the model along its
// parent links.
func (s *search) trace(id uint32) (Trace, model.State) {
	return buildTrace(s.c.sys, s.path(id))
}

// buildTrace replays a path of ordinals (an initial-state index, then
// successor ordinals) and renders each step; it also returns the last state.
func buildTrace(sys model.System, path []uint32) (Trace, model.State) {
	desc, _ := sys.(model.Describer)
	cur := sys.Clone(sys.Init()[path[0]])
	var tr Trace
	tr.Steps = append(tr.Steps, TraceStep{State: itf(desc, cur)})
	if desc != nil {
		tr.Initial = desc.Dump(cur)
	}
	for _, idx := range path[1:] {
		t, next := nthSuccessor(sys, cur, idx)
		if next == nil {
			panic(fmt.Sprintf("mxcheck: a stored trace leads to successor %d of a state that has fewer", idx))
		}
		step := TraceStep{Kind: t.Kind.String(), State: itf(desc, next)}
		if desc != nil {
			step.Label = desc.DescribeStep(cur, t)
			step.Changes = desc.Changes(cur, next)
		} else {
			step.Label = fmt.Sprintf("step %d", idx)
		}
		tr.Steps = append(tr.Steps, step)
		cur = next
	}
	if desc != nil {
		tr.Final = desc.Dump(cur)
	}
	return tr, cur
}

func itf(desc model.Describer, s model.State) map[string]any {
	if desc == nil {
		return map[string]any{}
	}
	return desc.ITF(s)
}
