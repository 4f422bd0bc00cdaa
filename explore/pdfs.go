package explore

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The parallel DFS (SPIN's multicore DFS, with swarm-style diversified
// orders): Options.Workers depth-first workers share one seen-set; a state
// is expanded by the worker that first inserts it. Each worker has its own
// stack and visits successors in its own order (worker 0 in the sequential
// DFS's, the others in orders drawn from their index), so they spread over
// the state space; a worker whose stack empties takes work another one
// gave away. Run to the end it reaches exactly the states and transitions
// of the sequential DFS and the same verdicts; its traces (and, when it
// stops at a violation, its counts) depend on the scheduling.

// syncSeen is a seen-set safe for concurrent use: many shards, each with
// its own lock, so that workers rarely wait for one another.
type syncSeen struct {
	shards [syncShards]struct {
		mu sync.Mutex
		s  shard
		_  [40]byte // keep shards on separate cache lines
	}
}

const syncShards = 1024

func newSyncSeen(wide bool) *syncSeen {
	s := &syncSeen{}
	for i := range s.shards {
		s.shards[i].s.alloc(16, wide)
	}
	return s
}

// insert adds f and reports whether it was new.
func (s *syncSeen) insert(f fingerprint) bool {
	sh := &s.shards[(f.lo*0x9e3779b97f4a7c15)>>(64-10)]
	sh.mu.Lock()
	isNew, _ := sh.s.reach(f, 0)
	sh.mu.Unlock()
	return isNew
}

func (s *syncSeen) bytes() int64 {
	var b int64
	for i := range s.shards {
		b += s.shards[i].s.bytes()
	}
	return b
}

// dfsPool is the work workers give away, and the bookkeeping that ends the
// search when every worker is idle and nothing is left.
type dfsPool struct {
	mu    sync.Mutex
	cond  sync.Cond
	items [][]entry
	idle  int
	done  bool
	want  atomic.Int32 // workers waiting for work
}

// take returns work, or nil when the search is over.
func (p *dfsPool) take(workers int) []entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle++
	p.want.Add(1)
	for len(p.items) == 0 && !p.done {
		if p.idle == workers {
			p.done = true
			p.cond.Broadcast()
			break
		}
		p.cond.Wait()
	}
	p.want.Add(-1)
	if p.done {
		return nil
	}
	p.idle--
	it := p.items[len(p.items)-1]
	p.items = p.items[:len(p.items)-1]
	return it
}

func (p *dfsPool) give(e []entry) {
	p.mu.Lock()
	p.items = append(p.items, e)
	p.cond.Signal()
	p.mu.Unlock()
}

func (p *dfsPool) finish() {
	p.mu.Lock()
	p.done = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// dfsRun is one parallel DFS.
type dfsRun struct {
	s        *search
	seen     *syncSeen
	next     atomic.Uint32 // the next id
	done     atomic.Uint64 // bit i: state property i has had its first event
	deadDone atomic.Bool   // a deadlock has been found (or is not looked for)
	stopped  atomic.Bool
	mu       sync.Mutex // guards s's records
	pool     dfsPool
	trans    atomic.Int64
	depth    atomic.Int64
}

// parallelDFS runs Options.Workers depth-first workers.
func (c *Checker) parallelDFS() *Result {
	s := c.newSearch()
	r := &dfsRun{s: s, seen: newSyncSeen(c.opt.Fingerprint == 128)}
	r.pool.cond.L = &r.pool.mu
	s.seenBytes = r.seen.bytes
	s.queue = func() int { return 0 }
	var kids []entry
	for i, st := range c.sys.Init() {
		if !r.seen.insert(s.x.fingerprint(st)) {
			continue
		}
		id := r.next.Add(1) - 1
		s.links.set(id, link{noParent, uint32(i)})
		s.at = panicSite{id: id, valid: true}
		s.n = id + 1
		s.checkNew(s.x, st, id, 0)
		kids = append(kids, entry{st: c.sys.Clone(st), id: id})
	}
	r.done.Store(s.props.done)
	r.deadDone.Store(!s.props.checkDeadlock())
	if s.stop {
		return s.result()
	}
	n := c.opt.Workers
	var wg sync.WaitGroup
	panics := make([]*workerPanic, n)
	for k := 0; k < n; k++ {
		var stack []entry
		if k == 0 {
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, kids[i])
			}
		}
		w := &dfsWorker{r: r, k: k, x: c.newExpander(func() bool { return r.stopped.Load() }), stack: stack}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					panics[k] = &workerPanic{value: v, id: w.cur, inv: w.x.inv}
					r.stop()
				}
			}()
			w.run()
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
	s.n = r.next.Load()
	if ms := c.opt.MaxStates; s.limit == "max-states" && int(s.n) > ms {
		s.n = uint32(ms) // the states other workers reached meanwhile do not count
	}
	s.trans = r.trans.Load()
	s.depth = int(r.depth.Load())
	return s.result()
}

// stop ends the search: every worker returns.
func (r *dfsRun) stop() {
	r.stopped.Store(true)
	r.pool.finish()
}

// dfsWorker is one depth-first worker.
type dfsWorker struct {
	r     *dfsRun
	k     int
	x     *expander
	stack []entry
	kids  []entry
	cur   uint32
	ticks int
	order uint64 // this worker's successor order
}

func (w *dfsWorker) run() {
	r, s := w.r, w.r.s
	c := s.c
	workers := c.opt.Workers
	w.order = uint64(w.k) * 0x9e3779b97f4a7c15
	for !r.stopped.Load() {
		if len(w.stack) == 0 {
			w.stack = r.pool.take(workers)
			if w.stack == nil {
				return
			}
			continue
		}
		if w.ticks++; w.ticks&255 == 0 {
			if l := s.lim.check(w.k == 0 && w.ticks&(1<<14-1) == 0); l != "" {
				r.mu.Lock()
				s.halt(l)
				r.mu.Unlock()
				r.stop()
				return
			}
			if w.k == 0 {
				s.progress(func() (int64, uint32) { return r.trans.Load(), r.next.Load() })
			}
		}
		e := w.stack[len(w.stack)-1]
		w.stack[len(w.stack)-1] = entry{}
		w.stack = w.stack[:len(w.stack)-1]
		w.expand(e)
		// Give half of a deep stack away to an idle worker.
		if r.pool.want.Load() > 0 && len(w.stack) >= 2 {
			half := len(w.stack) / 2
			given := make([]entry, half)
			copy(given, w.stack[:half])
			w.stack = append(w.stack[:0], w.stack[half:]...)
			r.pool.give(given)
		}
	}
}

// expand expands e, discovering its successors and pushing the new ones.
func (w *dfsWorker) expand(e entry) {
	r, s := w.r, w.r.s
	c := s.c
	w.cur = e.id
	cut := c.opt.MaxDepth > 0 && e.depth >= c.opt.MaxDepth
	w.kids = w.kids[:0]
	n, dead := w.x.expand(e.st, -1, !cut, !r.deadDone.Load(), func(sc *succ) bool {
		if cut {
			r.mu.Lock()
			if s.limit == "" {
				s.limit = "max-depth"
			}
			r.mu.Unlock()
			return true
		}
		if !r.seen.insert(sc.fp) {
			return true
		}
		id := r.next.Add(1) - 1
		s.links.set(id, link{e.id, sc.ord})
		if d := int64(e.depth + 1); d > r.depth.Load() {
			for old := r.depth.Load(); d > old && !r.depth.CompareAndSwap(old, d); old = r.depth.Load() {
			}
		}
		if ev := w.x.events(sc.next, r.done.Load()); ev != 0 {
			w.report(ev, false, id, e.depth+1)
		}
		if ms := c.opt.MaxStates; ms > 0 && int(id)+1 >= ms {
			r.mu.Lock()
			s.halt("max-states")
			r.mu.Unlock()
			r.stop()
		}
		w.kids = append(w.kids, entry{st: w.x.h.Clone(sc.next), id: id, depth: e.depth + 1})
		return !r.stopped.Load()
	})
	r.trans.Add(int64(n))
	if dead && !r.stopped.Load() {
		w.report(0, true, e.id, e.depth)
	}
	// Push so that the worker's first successor is expanded first.
	if w.k > 0 && len(w.kids) > 1 {
		w.order = w.order*6364136223846793005 + 1442695040888963407
		rot := int(w.order>>33) % len(w.kids)
		slices.Reverse(w.kids[:rot])
		slices.Reverse(w.kids[rot:])
		slices.Reverse(w.kids)
	}
	for i := len(w.kids) - 1; i >= 0; i-- {
		w.stack = append(w.stack, w.kids[i])
	}
}

// report records the events ev (and a deadlock, when dead) of state id at
// depth, unless another worker was first.
func (w *dfsWorker) report(ev uint64, dead bool, id uint32, depth int) {
	r, s := w.r, w.r.s
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev != 0 && s.props.note(ev, id, depth) {
		s.stop = true
	}
	if dead && s.props.deadlocked(id, depth) {
		s.stop = true
	}
	r.done.Store(s.props.done)
	r.deadDone.Store(!s.props.checkDeadlock())
	if s.stop {
		r.stopped.Store(true)
		r.pool.finish()
	}
}
