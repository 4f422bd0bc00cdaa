package explore

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/mxcheck/mxcheck/model"
)

// The BFS, sequential or parallel, in two forms.
//
// In process, with several workers, the workers share one seen-set
// (seen_shared.go: sharded, a lock per shard) and each offers the
// successors it generates there itself: the first to reach a state in a
// level keeps it among its candidates; another worker's offer of it is
// noted, and after the level the least key offered wins (bfs_late.go).
// Worker i holds the i-th of n ranges of the next level's ids and starts
// the level's expansion on it: states close in id order share ancestors,
// so most diamonds close within one worker's range and a state is rarely
// offered by two workers. A worker that runs out takes the second half of
// what another has left, provided it comes after every state it expanded
// before (expandUnits): so each still offers in increasing key order, and
// the workers finish the level together (the last worker, who can take
// from no one, starts with a larger range than the others: shareStart).
//
// A distributed search's worker processes use owner computes (after Stern
// and Dill's hash-partitioned Murφ): a state's fingerprint picks its owner
// among the workers. Each worker owns its partition's seen-set and
// frontier and expands its own states; a successor owned by another worker
// travels to it in a batch (its fingerprint, its candidate parent link and
// its encoding). One worker alone is the same code with one partition.
//
// Levels end at a barrier, so counterexamples stay shortest.
//
// Ids, traces and counts are exactly those of a sequential BFS, whatever
// the scheduling: a state's id is its rank in the level, ordered by the
// (parent id, ordinal) of its first discovery, and each owner keeps, for
// each new state, the least (parent id, ordinal) it was offered — the one a
// sequential search meets first (in a shared BFS, the worker holding the
// candidate). After a level, the owners sort their new states by that key
// and count, in every other owner's sorted keys, how many come before each
// of theirs: that sum is the state's rank (in a shared BFS, each worker
// merges a share of the ranks out of every worker's keys: bfs_merge.go). A
// sequential search stops in the middle of a level (at a violation, or at
// max-states); the parallel one expands the whole level, then finds the
// moment the sequential one would have stopped — the least (parent id,
// ordinal) of a stopping event — and counts states and transitions up to
// it.

// newState is a state first reached in this level, as its owner keeps it.
type newState struct {
	fp  fingerprint
	key uint64 // parent id << 32 | ordinal: when a sequential BFS reaches it
	tix uint32 // transitions of the parent counted up to it, itself included
	sw  int32  // the worker whose store holds its encoding, or its clone
	ev  uint64 // bit i: invariant i fails in it
	blk int32  // its encoding: block and offset in worker sw's store (codec); its clone's index in worker sw's clones (no codec)
	off int32
	n   int32
	// No pointer: the garbage collector does not scan candidates, and
	// never reads the room a growth leaves (whose pages it would map to
	// the zero page, to be replaced at the first write with a flush of
	// every other core's TLB).
}

// batch carries successors to their owner.
type batch struct {
	fps  []fingerprint
	keys []uint64
	tixs []uint32
	ends []int // end of each encoding in data
	data []byte
	sts  []model.State // clones, for systems without a codec
	last bool          // the sender has nothing more this level
	from int           // the sending worker (in process)
}

func (b *batch) len() int { return len(b.fps) }

func (b *batch) reset() {
	b.fps, b.keys, b.tixs, b.ends, b.data = b.fps[:0], b.keys[:0], b.tixs[:0], b.ends[:0], b.data[:0]
	clear(b.sts)
	b.sts, b.last = b.sts[:0], false
}

// batchStates and batchBytes bound a batch before it is sent (variables,
// so that tests can make many small batches).
var (
	batchStates = 512
	batchBytes  = 64 << 10
)

// inbox is a worker's queue of incoming batches; put never blocks, so two
// workers sending to each other cannot deadlock.
type inbox struct {
	mu   sync.Mutex
	cond sync.Cond
	q    []*batch
}

func (ib *inbox) put(b *batch) {
	ib.mu.Lock()
	ib.q = append(ib.q, b)
	ib.cond.Signal()
	ib.mu.Unlock()
}

// take moves every queued batch to into; with wait it blocks until there
// is at least one.
func (ib *inbox) take(wait bool, into []*batch) []*batch {
	ib.mu.Lock()
	for wait && len(ib.q) == 0 {
		ib.cond.Wait()
	}
	into = append(into, ib.q...)
	clear(ib.q)
	ib.q = ib.q[:0]
	ib.mu.Unlock()
	return into
}

// firstEvent is the first state of a level, in sequential order, where an
// invariant fails.
type firstEvent struct {
	key uint64
	id  uint32
	tix uint32
	ok  bool
}

// bfsWorker owns one partition.
type bfsWorker struct {
	r       *bfsRun
	id      int
	x       *expander
	seen    *seenSet
	index   *fpIndex // fingerprint → candidate of this level, with several workers
	indexed bool
	local   *batch // successors it owns itself, probed together (nil: offered at once)
	sent    *offeredCache
	sink    uint64 // what the prefetching loads read, so they are not dropped
	cands   []newState
	late    []newState   // in a shared BFS: offers of states another worker reached first in the level (bfs_late.go)
	lowered []int32      // settleDone's scratch: candidates whose key was lowered
	parts   []settlePart // what settling each part of its candidates found (settlePart)
	pending atomic.Int32 // parts of its candidates still to settle (settleParts)
	side    []newState   // mergeLowered's scratch
	reached atomic.Int64
	store   blocks        // candidates' encodings
	clones  []model.State // candidates' clones, without a codec (newState.blk)
	ids     []uint32
	cur     *level
	next    *level
	out     []*batch // per destination
	in      inbox
	taken   []*batch
	ends    int         // last batches received this level
	stamp   uint64      // in a shared BFS, the stamp of the level being reached
	into    model.State // evaluate's decoding target
	dec     model.State // expandUnits' decoding target
	buf     []byte
	outcome []uint8 // offerSharedBatch's scratch

	// per level, in expansion order: ids expanded and transitions counted
	expanded []uint32
	succN    []uint32
	deadlock uint32 // first deadlocked state of the level, if hasDead
	hasDead  bool
	first    []firstEvent     // per invariant
	trans    int64            // transitions this level
	state    uint32           // the state being expanded or checked, for SpecPanic
	onSucc   func(*succ) bool // w.successor, made once
	order    []uint32         // sortCandidates' scratch
	packed   []uint64         // sortPacked's scratch
	radix    []uint64         // radixSort's other buffer
	panicked *workerPanic
	done     atomic.Int64  // states expanded, for progress
	rec      *liveRecorder // liverecord.go: the liveness graph's part of this worker
}

// bfsRun is one BFS.
type bfsRun struct {
	s       *search
	c       *Checker
	w       []*bfsWorker
	sym     bool
	stopped atomic.Bool     // a limit or a panic: every worker winds up the level
	limit   atomic.Value    // string: the limit reached mid-level
	pool    sync.Pool       // *batch
	net     *workerNet      // a distributed search's worker process: batches go over the network, links stay with the coordinator
	fetch   func()          // a distributed search's coordinator: fetch what account needs at a stop
	ck      ckState         // checkpoints (checkpoint_write.go)
	live    *liveRecord     // liverecord.go: nil unless the liveness graph is recorded
	vmap    []int32         // a distributed search's virtual partitions → workers (nil: the fingerprint picks the worker)
	shared  *sharedSeen     // the seen-set the workers share (in process, several workers); nil: each owns a partition
	alive   []bool          // a distributed search's members still in the run (nil: all)
	faultAt func(string)    // a distributed worker's fault-injection point (DistFault)
	late    lateTable       // the storage of each level's late offers (lateTable)
	units   []int           // shareLevel: the level's units, cumulative per worker (nil: each expands its own)
	shares  []atomic.Uint64 // shareLevel: per worker, the units it has left to claim (first << 32 | end)
	crew    *crew           // runs the phases of an in-process search's workers (nil: a goroutine for each worker and phase)
	settled atomic.Int32    // the parts of the level's candidates claimed to be settled (level)
}

// owner returns the worker that owns fingerprint f.
func (r *bfsRun) owner(f fingerprint) int {
	if r.vmap == nil {
		return f.owner(len(r.w))
	}
	return int(r.vmap[f.owner(len(r.vmap))])
}

// peers is the number of other workers that send a worker their last
// batches of a level.
func (r *bfsRun) peers() int {
	if r.alive == nil {
		return len(r.w) - 1
	}
	n := -1
	for _, a := range r.alive {
		if a {
			n++
		}
	}
	return n
}

// bfs explores level by level, so the first violation of each invariant is
// found at the least depth: its trace is shortest.
func (c *Checker) bfs() *Result {
	s := c.newSearch()
	n := max(1, c.opt.Workers)
	r := &bfsRun{s: s, c: c, sym: c.sym != nil}
	r.limit.Store("")
	r.pool.New = func() any { return new(batch) }
	inMem := c.levelInMemory()
	if n > 1 {
		r.shared = newSharedSeen(c.opt.Fingerprint == 128)
	}
	for i := 0; i < n; i++ {
		r.w = append(r.w, r.newWorker(i, n, inMem))
	}
	s.x = r.w[0].x
	r.live = newLiveRecord(r)
	s.live = r.live
	s.seenBytes = func() int64 {
		if r.shared != nil {
			return r.shared.bytes()
		}
		var b int64
		for _, w := range r.w {
			b += w.seen.bytes()
		}
		return b
	}
	s.queue = func() int {
		q := 0
		for _, w := range r.w {
			q += w.cur.n - int(w.done.Load()) + w.next.n
		}
		return q
	}
	if n > 1 {
		r.crew = newCrew(n)
		defer r.crew.stop()
	}
	defer func() {
		for _, w := range r.w {
			w.cur.close()
			w.next.close()
		}
	}()
	first := 0
	r.ck.last = s.start
	if c.resume != nil {
		first = r.restore(c.resume) // checkpoint_load.go
	} else {
		r.initial()
	}
	for depth := first; !s.stop; depth++ {
		total := 0
		for _, w := range r.w {
			w.cur, w.next = w.next, w.cur
			w.next.reset()
			total += w.cur.n
		}
		if total == 0 {
			break
		}
		r.level(depth)
		r.afterLevel(depth) // a checkpoint, when due
	}
	for _, w := range r.w {
		s.queueDisk += w.cur.disk + w.next.disk
		if w.x.canon != nil {
			s.symBounded += w.x.canon.Bounded
			w.x.canon.Bounded = 0 // s.x is worker 0's: result must not add it again
		}
	}
	for _, w := range r.w {
		for _, l := range []*level{w.cur, w.next} {
			if l.spillErr != nil {
				s.warn(fmt.Sprintf("BFS levels beyond %d states stayed in memory: cannot create a temporary file (TMPDIR): %v", inMem, l.spillErr))
				return r.result()
			}
		}
	}
	return r.result()
}

// levelInMemory is how many states of a BFS level stay in memory.
func (c *Checker) levelInMemory() int {
	switch inMem := c.opt.LevelInMemory; {
	case inMem == 0:
		return defaultLevelInMemory
	case inMem < 0:
		return int(^uint(0) >> 1)
	default:
		return inMem
	}
}

// newWorker returns the owner of partition i of n, with its share of the
// states a level keeps in memory.
func (r *bfsRun) newWorker(i, n, inMem int) *bfsWorker {
	c, s := r.c, r.s
	w := &bfsWorker{r: r, id: i,
		cur: &level{codec: c.codec, max: max(1, inMem/n)}, next: &level{codec: c.codec, max: max(1, inMem/n)},
		out: make([]*batch, n), first: make([]firstEvent, len(c.inv))}
	w.in.cond.L = &w.in.mu
	w.indexed = n > 1
	if r.shared == nil {
		w.seen, w.index = newSeenSet(c.opt.Fingerprint == 128), newFPIndex()
	}
	if c.codec != nil && !c.opt.POR {
		// Partial-order reduction's cycle proviso asks the seen-set
		// about this level's states as they are reached: no batching.
		w.local = new(batch)
	}
	w.x = c.newExpander(func() bool { return s.lim.check(false) != "" })
	w.sent = newOfferedCache(c.opt.Fingerprint == 128)
	return w
}

// broken reports whether a distributed search lost its network.
func (r *bfsRun) broken() bool { return r.net != nil && r.net.broken.Load() }

// deliver hands batch b to the owner of partition o: in process, to its
// inbox; in a distributed search, over the network.
func (r *bfsRun) deliver(o int, b *batch) {
	if r.net != nil {
		r.net.sendBatch(o, b)
		return
	}
	r.w[o].in.put(b)
}

// initial discovers the initial states, in order, on the calling goroutine.
func (r *bfsRun) initial() {
	s := r.s
	for i, st := range r.c.sys.Init() {
		x := r.w[0].x
		f := x.fingerprint(st)
		w := r.w[r.owner(f)]
		if !r.insert(w, f) {
			continue
		}
		id := s.addLink(link{noParent, uint32(i)})
		r.live.root(w, f, id, i)
		s.at = panicSite{id: id, valid: true}
		s.checkNew(x, st, id, 0)
		s.at.valid = false
		w.next.push(x.h, st, id)
		if s.stop {
			return
		}
	}
}

// insert adds f to the seen-set (worker w's, unless shared) and reports
// whether it was new.
func (r *bfsRun) insert(w *bfsWorker, f fingerprint) bool {
	if r.shared != nil {
		return r.shared.insert(f)
	}
	return w.seen.insert(f)
}

// level expands one level (depth) and turns the states it reaches into
// the next one.
func (r *bfsRun) level(depth int) {
	s, c := r.s, r.c
	cut := c.opt.MaxDepth > 0 && depth >= c.opt.MaxDepth
	wantDeadlock := s.props.checkDeadlock()
	start := s.n // the first id of the next level
	r.shareLevel()
	r.parallel(func(w *bfsWorker) {
		w.stamp = stampOf(depth + 1)
		w.expandLevel(cut, wantDeadlock)
	})
	if r.failed() {
		return
	}
	total := 0
	if !cut {
		// The level is expanded: its blocks hold the next one.
		for _, w := range r.w {
			w.cur.handBlocks(w.next)
		}
		// Late offers are settled in parts of every worker's
		// candidates, each part by the first worker to claim it;
		// whoever settles the last part of a worker's candidates puts
		// them back in key order, while the others settle what is
		// left. The last worker's are settled first: it reached most
		// states late in the level, so its candidates are the ones
		// lowered most, and the longest to put back in order.
		late := r.lateTable()
		parts := settleShare * len(r.w)
		if late != nil {
			for _, w := range r.w {
				w.settleParts(parts)
			}
			r.settled.Store(0)
		}
		r.parallel(func(w *bfsWorker) {
			if late == nil {
				w.sortCandidates()
				return
			}
			for {
				t := int(r.settled.Add(1)) - 1
				if t >= parts*len(r.w) {
					return
				}
				o := r.w[len(r.w)-1-t/parts]
				w.settlePart(late, o, t%parts, parts)
				if o.pending.Add(-1) == 0 && !o.settleDone() {
					o.sortCandidates()
				}
			}
		})
		for _, w := range r.w {
			total += len(w.cands)
		}
		if r.shared != nil {
			// Each worker ranks, links and gathers a share of the
			// level (bfs_merge.go).
			for _, w := range r.w {
				w.ids = slices.Grow(w.ids[:0], len(w.cands))[:len(w.cands)]
			}
			r.parallel(func(w *bfsWorker) { w.mergeShare(start, total) })
		} else {
			r.parallel(func(w *bfsWorker) { w.finish(start) })
		}
		if r.failed() {
			return
		}
		r.live.levelDone(start, total)
	}
	r.account(depth, cut, start, total)
}

// parallel runs fn on every worker, each on its own goroutine (the calling
// one for a single worker), and waits for all.
func (r *bfsRun) parallel(fn func(w *bfsWorker)) {
	run := func(w *bfsWorker) {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(*workerPanic); !ok {
					v = &workerPanic{value: v, id: w.state, inv: w.x.inv}
				}
				w.panicked = v.(*workerPanic)
				r.stopped.Store(true)
			}
		}()
		fn(w)
	}
	if len(r.w) == 1 {
		run(r.w[0])
		return
	}
	if r.crew != nil {
		phases := make([]func(), len(r.w))
		for i, w := range r.w {
			phases[i] = func() { run(w) }
		}
		r.crew.phase(phases)
		return
	}
	var wg sync.WaitGroup
	for _, w := range r.w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	wg.Wait()
}

// failed reports whether a panic or a limit stopped the level; a panic is
// raised again on the search's goroutine, a limit halts the search.
func (r *bfsRun) failed() bool {
	for _, w := range r.w {
		if w.panicked != nil {
			panic(w.panicked)
		}
	}
	if l := r.limit.Load().(string); l != "" {
		for _, w := range r.w {
			r.s.trans += w.trans
		}
		r.s.halt(l)
		return true
	}
	return false
}

// expandLevel expands the worker's states, offering each successor to its
// owner, then exchanges the last batches of the level.
func (w *bfsWorker) expandLevel(cut, wantDeadlock bool) {
	r := w.r
	w.expanded, w.succN, w.hasDead, w.trans = w.expanded[:0], w.succN[:0], false, 0
	w.cands, w.ends = w.cands[:0], 0
	w.store.reset()
	clear(w.clones)
	w.clones = w.clones[:0]
	clear(w.late)
	w.late = w.late[:0]
	if r.shared == nil {
		w.index.reset()
	}
	w.done.Store(0)
	w.reached.Store(0)
	func() {
		defer func() {
			if v := recover(); v != nil {
				// Wind up the level with the others, then report it.
				w.panicked = &workerPanic{value: v, id: w.state, inv: w.x.inv}
				r.stopped.Store(true)
			}
		}()
		w.expandStates(cut, wantDeadlock)
		if b := w.local; b != nil {
			w.offerBatch(b)
			b.reset()
		}
	}()
	if len(r.w) == 1 || r.shared != nil {
		return
	}
	for o := range r.w {
		if o != w.id && (r.alive == nil || r.alive[o]) {
			b := w.out[o]
			if b == nil {
				b = r.pool.Get().(*batch)
			}
			b.last = true
			w.out[o] = nil
			r.deliver(o, b)
		}
	}
	for peers := r.peers(); w.ends < peers && !r.broken(); {
		w.drain(true)
	}
}

// expandStates is expandLevel's loop over the worker's states: its own
// level, or the units it claims of every worker's (expandUnits).
func (w *bfsWorker) expandStates(cut, wantDeadlock bool) {
	r, s := w.r, w.r.s
	n := 0
	visit := func(st model.State, id uint32) bool {
		if n&255 == 0 {
			if r.stopped.Load() {
				return false
			}
			if l := s.lim.check(w.id == 0 && n&(1<<14-1) == 0); l != "" {
				r.limit.CompareAndSwap("", l)
				r.stopped.Store(true)
				return false
			}
			w.done.Store(int64(n))
			if r.shared != nil {
				w.reached.Store(int64(len(w.cands)))
			}
			if w.id == 0 {
				s.progress(r.progressCounts)
			}
		}
		n++
		w.state = id
		ample := -1
		if s.c.opt.POR {
			ample = s.ampleNode(w.x, st, w.seenNow)
		}
		var onSucc func(*succ) bool
		if !cut {
			if w.onSucc == nil {
				w.onSucc = w.successor
			}
			onSucc = w.onSucc
		}
		if w.rec != nil {
			onSucc = w.rec.begin(id, st)
		}
		k, dead := w.x.expand(st, ample, !cut, wantDeadlock, onSucc)
		if w.rec != nil {
			w.rec.end()
		}
		w.trans += int64(k)
		w.expanded = append(w.expanded, id)
		w.succN = append(w.succN, k)
		if dead && !w.hasDead {
			w.deadlock, w.hasDead = id, true
		}
		if n&15 == 0 && len(r.w) > 1 && r.shared == nil {
			w.drain(false)
		}
		return true
	}
	var err error
	if r.units != nil {
		err = w.expandUnits(visit)
	} else {
		err = w.cur.each(visit)
	}
	if err != nil {
		r.limit.CompareAndSwap("", "disk: "+err.Error())
		r.stopped.Store(true)
	}
	if err := w.next.err; err != nil {
		r.limit.CompareAndSwap("", "disk: "+err.Error())
		r.stopped.Store(true)
	}
	w.done.Store(int64(n))
}

// expandUnits expands the units (unitStates states each) of every
// worker's level, in id order, that the worker claims: first from its own
// share, a contiguous run of units, then half of what is left of another
// worker's share, as long as those come after every unit it took before.
// A worker's offers so stay in increasing key order (bfs_late.go and the
// offered flags rely on it), and each works on a run of neighbouring
// states: two workers on interleaved units would reach the same successors
// at the same time, each one's a late offer for the other.
func (w *bfsWorker) expandUnits(visit func(model.State, uint32) bool) error {
	r := w.r
	top := -1 // the last unit the worker claimed
	own := &r.shares[w.id]
	for {
		at, upto, ok := claimUnits(own)
		if !ok {
			if !r.stealUnits(w.id, top) {
				return nil
			}
			continue
		}
		top = upto - 1
		for at < upto {
			o := 0 // the worker whose level holds unit at
			for r.units[o] <= at {
				o++
			}
			first := 0
			if o > 0 {
				first = r.units[o-1]
			}
			l, stop := r.w[o].cur, min(upto, r.units[o])
			more, err := l.eachIn((at-first)*unitStates, min((stop-first)*unitStates, l.n), &w.dec, visit)
			if err != nil || !more {
				return err
			}
			at = stop
		}
	}
}

// claimUnits takes the next units of a share (first unit << 32 | end): a
// fraction of what is left, so that a thief finds some.
func claimUnits(sh *atomic.Uint64) (at, upto int, ok bool) {
	for {
		v := sh.Load()
		n, e := int(v>>32), int(uint32(v))
		if n >= e {
			return 0, 0, false
		}
		k := min(maxClaim, max(1, (e-n)/claimShare))
		if sh.CompareAndSwap(v, uint64(n+k)<<32|uint64(e)) {
			return n, n + k, true
		}
	}
}

// stealUnits moves to worker w's (empty) share the second half of what is
// left of the largest other share that lies wholly after unit top, and
// reports whether there was one.
func (r *bfsRun) stealUnits(w, top int) bool {
	for {
		best, bv := -1, uint64(0)
		for o := range r.shares {
			v := r.shares[o].Load()
			n, e := int(v>>32), int(uint32(v))
			if o == w || e-n < 2 || n+(e-n)/2 <= top {
				continue
			}
			if best < 0 || e-n > int(uint32(bv))-int(bv>>32) {
				best, bv = o, v
			}
		}
		if best < 0 {
			return false
		}
		n, e := uint64(bv>>32), uint64(uint32(bv))
		mid := n + (e-n)/2
		if r.shares[best].CompareAndSwap(bv, n<<32|mid) {
			r.shares[w].Store(mid<<32 | e)
			return true
		}
	}
}

// maxClaim is the most units a worker claims of its share at once, and
// claimShare how thinly: a claim takes at most 1/claimShare of what is
// left. A claim is not stolen: at the end of a level, another worker may
// wait for up to a claim's states to be expanded (4 units, 256 states: a
// fifth of a millisecond on RA).
const (
	maxClaim   = 4
	claimShare = 4
)

// shareLevel decides how the level about to be expanded is shared out: in
// units any worker may claim (r.units: per worker, the units of its level
// and every level before it; r.shares: each worker's contiguous share to
// start from) when the workers share one seen-set in process and the
// levels, wholly in memory, hold one run of ids in worker order (as
// mergeShare makes them); otherwise (nil) each worker expands its own level.
func (r *bfsRun) shareLevel() {
	r.units = r.units[:0]
	if r.shared == nil || r.net != nil || len(r.w) == 1 || testNoUnits {
		r.units = nil
		return
	}
	total, last := 0, -1
	for _, w := range r.w {
		l := w.cur
		if len(l.ids) != l.n || l.n > 0 && int(l.ids[0]) <= last {
			// A part is on disk, read in order by its owner; or the
			// levels are not one run of ids (partitioned by
			// fingerprint, as a distributed checkpoint leaves them).
			r.units = nil
			return
		}
		if l.n > 0 {
			last = int(l.ids[l.n-1])
		}
		total += (w.cur.n + unitStates - 1) / unitStates
		r.units = append(r.units, total)
	}
	if len(r.shares) != len(r.w) {
		r.shares = make([]atomic.Uint64, len(r.w))
	}
	for i := range r.shares {
		lo, hi := shareStart(total, i, len(r.w)), shareStart(total, i+1, len(r.w))
		r.shares[i].Store(uint64(lo)<<32 | uint64(hi))
	}
}

// shareStart is the first of a level's total units in worker i's share of
// n (i == n: total). The last worker's share is lastShare percent larger
// than an even one, and the others share the rest evenly. A worker takes
// only units after those it has expanded (expandUnits), so the last
// worker, whose share lies after every other, can take from no one: with
// even shares, it waited whenever it was the faster, for whatever the
// worker before it had left (RA N=4, 2 workers: 0.3–3.8 ms on each large
// level). Starting with more, it is rarely the first to run out; the
// others then take the second half of what it has left, and so on.
func shareStart(total, i, n int) int {
	switch {
	case i == n:
		return total
	case n == 1:
		return 0
	}
	// The last share is (100+lastShare)/(100n) of total.
	return int(int64(total) * int64(i) * int64(100*(n-1)-lastShare) / int64(100*n*(n-1)))
}

// lastShare is how much larger, in percent, the last worker's share of a
// level is than an even share (shareStart).
const lastShare = 10

// settleShare is how many parts of each worker's candidates each worker
// settles on average: more parts than workers, so that one who puts a
// worker's candidates back in order leaves the rest to the others.
const settleShare = 4

// testNoUnits makes each worker of a shared BFS expand its own level.
var testNoUnits bool

// successor hands a successor of the state being expanded (w.state) to
// its owner.
func (w *bfsWorker) successor(sc *succ) bool {
	if w.sent != nil && w.sent.again(sc.fp) {
		return true // offered before: nothing to change (sent.go)
	}
	key := uint64(w.state)<<32 | uint64(sc.ord)
	if w.r.shared != nil {
		// Every successor is offered by the worker that reaches it.
	} else if o := w.r.owner(sc.fp); o != w.id {
		w.send(o, sc, key)
		return true
	}
	if b := w.local; b != nil {
		b.fps = append(b.fps, sc.fp)
		b.keys = append(b.keys, key)
		b.tixs = append(b.tixs, sc.tix)
		b.data = w.appendEnc(b.data, sc)
		b.ends = append(b.ends, len(b.data))
		if b.len() >= localBatch {
			w.offerBatch(b)
			b.reset()
		}
		return true
	}
	w.offer(sc.fp, key, sc.tix, nil, sc.next, false, w.id)
	return true
}

// appendEnc appends sc's encoding: its key, when that is it.
func (w *bfsWorker) appendEnc(dst []byte, sc *succ) []byte {
	if sc.enc != nil {
		return append(dst, sc.enc...)
	}
	return w.r.c.codec.AppendState(dst, sc.next)
}

// localBatch is how many of its own successors a worker gathers before
// probing its seen-set for them together.
const localBatch = 128

// offerBatch offers a batch's successors in order. It first reads the
// seen-set slot each one will probe, in a loop whose loads do not depend
// on each other, so the processor overlaps their cache misses (about one
// miss per successor otherwise, the largest single cost of a search); the
// probes that follow find their slots in cache.
func (w *bfsWorker) offerBatch(b *batch) {
	if sh := w.r.shared; sh != nil {
		w.sink += sh.prefetch(b.fps)
		w.offerSharedBatch(b) // the worker's own successors: w.local
		return
	}
	from := b.from
	if b == w.local {
		from = w.id
	}
	w.sink += w.seen.prefetch(b.fps)
	if w.indexed {
		w.sink += w.index.prefetch(b.fps)
	}
	start := 0
	for i, f := range b.fps {
		if len(b.sts) > 0 {
			w.offer(f, b.keys[i], b.tixs[i], nil, b.sts[i], true, from)
		} else {
			w.offer(f, b.keys[i], b.tixs[i], b.data[start:b.ends[i]], nil, false, from)
			start = b.ends[i]
		}
	}
}

// seenNow reports whether f is known: in an earlier level or already
// reached in this one (the cycle proviso of partial-order reduction, which
// runs with one worker); the seen-set holds both.
func (w *bfsWorker) seenNow(f fingerprint) bool {
	return w.seen.contains(f)
}

// send appends a successor to the batch for its owner o.
func (w *bfsWorker) send(o int, sc *succ, key uint64) {
	b := w.out[o]
	if b == nil {
		b = w.r.pool.Get().(*batch)
		w.out[o] = b
	}
	b.from = w.id
	b.fps = append(b.fps, sc.fp)
	b.keys = append(b.keys, key)
	b.tixs = append(b.tixs, sc.tix)
	if w.r.c.codec != nil {
		b.data = w.appendEnc(b.data, sc)
		b.ends = append(b.ends, len(b.data))
	} else {
		b.sts = append(b.sts, w.x.h.Clone(sc.next))
	}
	if b.len() >= batchStates || len(b.data) >= batchBytes {
		w.out[o] = nil
		w.r.deliver(o, b)
	}
}

// drain offers the successors of every batch received.
func (w *bfsWorker) drain(wait bool) {
	w.taken = w.in.take(wait, w.taken[:0])
	for _, b := range w.taken {
		w.offerBatch(b)
		if b.last {
			w.ends++
		}
		b.reset()
		w.r.pool.Put(b)
	}
	clear(w.taken)
}

// offer is a successor reaching its owner: unless it is known from an
// earlier level, the least key wins; enc is its encoding, or st the state:
// a clone a batch brought (owned) or the worker's transient successor;
// from is the worker that sent it. A new state's invariants are evaluated
// here, once.
//
// Each worker sends its successors in increasing key order, and its
// batches reach an owner in the order sent, so a state offered again by a
// worker that has already offered it in this level never has the least
// key: the seen-set slot's offered flag for that worker (workers 0 to
// offeredBits-1, in process) answers without looking up the index. With
// several workers most states of a level are reached many times, mostly
// from the same worker.
func (w *bfsWorker) offer(f fingerprint, key uint64, tix uint32, enc []byte, st model.State, owned bool, from int) {
	if w.r.shared != nil {
		w.offerShared(f, key, tix, enc, st, owned)
		return
	}
	var flag, by uint64
	if w.indexed {
		flag = thisLevel // with one worker, no one asks
		if from < offeredBits && w.r.net == nil {
			by = offeredBy0 << from
			flag |= by
		}
	}
	isNew, had := w.seen.reach(f, flag)
	inLevel := had&thisLevel != 0
	if isNew {
		i := uint32(len(w.cands))
		if w.indexed {
			w.index.lookup(f, i, w.cands)
		}
		w.growCands()
		w.cands = append(w.cands, newState{fp: f, key: key, tix: tix})
		c := &w.cands[i]
		w.keep(c, enc, st, owned)
		w.evaluate(c, key, enc, st)
		return
	}
	if !inLevel || !w.indexed || had&by != 0 {
		// Known from an earlier level; or, with one worker, offered in
		// increasing key order, so the first offer had the least key; or
		// offered before by the same worker, with a lesser key.
		return
	}
	i, _ := w.index.lookup(f, 0, w.cands)
	if c := &w.cands[i]; key < c.key {
		c.key, c.tix = key, tix
		if w.r.sym {
			// Under symmetry the state kept is the representative its
			// parent reaches: traces replay from it.
			w.keep(c, enc, st, owned)
		}
	}
}

// evaluate notes in c, a new state reached with key, the state properties
// with an event in it; enc is its encoding, or st the state.
func (w *bfsWorker) evaluate(c *newState, key uint64, enc []byte, st model.State) {
	if enc != nil {
		var err error
		if st, err = w.r.c.codec.ReadState(enc, w.into); err != nil {
			w.r.limit.CompareAndSwap("", "disk: a state in transit does not decode: "+err.Error())
			w.r.stopped.Store(true)
			return
		}
		w.into = st
	}
	parent := w.state
	w.state = uint32(key >> 32) // an invariant's panic: the trace ends at the parent
	c.ev = w.x.events(st, w.r.s.props.done)
	w.state = parent
}

// offerShared is offer in a shared BFS: the worker that reaches a state
// offers it in the shared seen-set, under its shard's lock. The first to
// reach it in the level keeps it among its candidates; another worker's
// offer in the level is noted (late), and after the level the least key
// offered wins (settlePart). The lock is held for the table alone: a
// worker's candidates are its own during the level.
func (w *bfsWorker) offerShared(f fingerprint, key uint64, tix uint32, enc []byte, st model.State, owned bool) {
	w.settleOffer(w.reachShared(f), f, key, tix, enc, st, owned)
}

// settleOffer acts on an offer's outcome in the shared seen-set.
func (w *bfsWorker) settleOffer(o uint8, f fingerprint, key uint64, tix uint32, enc []byte, st model.State, owned bool) {
	switch o {
	case offerNew:
		w.keepNew(f, key, tix, enc, st, owned)
	case offerLate:
		// Reached first in this level by another worker — or by this
		// one, beyond the offered flags, or 4, 8, ... levels ago, with
		// the same stamp: settlePart finds no candidate then.
		w.addLate(f, key, tix, enc, st, owned)
	}
	// Otherwise known from an earlier level, or offered before by this
	// worker, with a lesser key.
}

// offerSharedBatch is offerBatch in a shared BFS, in two passes: the
// first settles each successor in the shared seen-set (reachShared), the
// second keeps the new ones and notes the late ones. A lock's atomic
// instructions wait for every store before them to complete; in one pass,
// they would wait for the stores that keeping a new state makes (its
// candidate, its encoding, its decoding: fresh lines, cache misses), so
// the seen-set's updates are made together, with only the table's own
// writes between them. Nothing reads a worker's candidates during the
// level, so keeping them after the whole batch is settled changes nothing.
func (w *bfsWorker) offerSharedBatch(b *batch) {
	out := w.outcome[:0]
	for _, f := range b.fps {
		out = append(out, w.reachShared(f))
	}
	w.outcome = out
	start := 0
	for i, o := range out {
		enc := b.data[start:b.ends[i]]
		start = b.ends[i]
		if o != offerKnown {
			w.settleOffer(o, b.fps[i], b.keys[i], b.tixs[i], enc, nil, false)
		}
	}
}

// An offer's outcome in a shared seen-set.
const (
	offerKnown uint8 = iota // known from an earlier level, or offered before by the same worker with a lesser key
	offerNew                // first reached in this level: a candidate of this worker
	offerLate               // reached first in this level by another worker (see offerShared)
)

// reachShared adds f to the shared seen-set, under its shard's lock unless
// a read without it settles the offer.
func (w *bfsWorker) reachShared(f fingerprint) uint8 {
	r := w.r
	by := uint64(0)
	if w.id < sharedByMax {
		by = sharedBy0 << w.id
	}
	ok, at, n := r.shared.settled(f, w.stamp, by)
	if ok {
		return offerKnown
	}
	sh := r.shared.shard(f)
	sh.mu.Lock()
	slots := len(sh.s.lo)
	isNew, inLevel, again := sh.s.reachStamped(f, w.stamp, by, at, n)
	if len(sh.s.lo) != slots {
		sh.publish() // the addition grew the table
	}
	sh.mu.Unlock()
	switch {
	case isNew:
		return offerNew
	case inLevel && !again:
		return offerLate
	}
	return offerKnown
}

// keepNew makes a state first reached in this level one of the worker's
// candidates.
func (w *bfsWorker) keepNew(f fingerprint, key uint64, tix uint32, enc []byte, st model.State, owned bool) {
	w.growCands()
	w.cands = append(w.cands, newState{fp: f, key: key, tix: tix})
	c := &w.cands[len(w.cands)-1]
	w.keep(c, enc, st, owned)
	w.evaluate(c, key, enc, st)
}

// growCands doubles the candidates' room when it is full, up to a million
// of them, and then grows it by half. append grows a large slice by a
// quarter, so a level larger than any before would copy the candidates
// many times over, into fresh memory the kernel maps page by page (with
// two workers on RA N=4, 2.5% of the CPU time went to those copies and
// faults). Beyond a million (56 MB), growing by half bounds what a
// growth holds at once, the old room and the new, to 2.5 times the old.
func (w *bfsWorker) growCands() {
	if n := len(w.cands); n == cap(w.cands) {
		more := max(n, 1024)
		if n > bigCands {
			more = n / 2
		}
		w.cands = slices.Grow(w.cands, more)
	}
}

// bigCands is where growCands stops doubling.
const bigCands = 1 << 20

// cloneOf is the clone a candidate names (systems without a codec).
func (r *bfsRun) cloneOf(c *newState) model.State { return r.w[c.sw].clones[c.blk] }

// keep stores a candidate's state.
func (w *bfsWorker) keep(c *newState, enc []byte, st model.State, owned bool) {
	cd := w.r.c.codec
	c.sw = int32(w.id)
	switch {
	case cd == nil:
		if !owned {
			st = w.x.h.Clone(st)
		}
		c.blk = int32(len(w.clones))
		w.clones = append(w.clones, st)
		return
	case enc == nil:
		w.buf = cd.AppendState(w.buf[:0], st)
		enc = w.buf
	}
	blk, off := w.store.add(enc)
	c.blk, c.off, c.n = int32(blk), int32(off), int32(len(enc))
}

// finish gives each new state its id (start + its rank among every
// worker's new states), writes its link, checks its invariants, settles it
// in the seen-set and adds it to the next level (in a shared BFS,
// mergeShare does it all).
func (w *bfsWorker) finish(start uint32) {
	w.rank(start)
	w.apply()
}

// rank gives each new state its id: start + its rank among every worker's
// new states (each worker's sorted by key).
func (w *bfsWorker) rank(start uint32) {
	r := w.r
	w.ids = w.ids[:0]
	for i := range w.cands {
		w.ids = append(w.ids, start+uint32(i))
	}
	for _, o := range r.w {
		if o == w {
			continue
		}
		j := 0
		for i := range w.cands {
			for j < len(o.cands) && o.cands[j].key < w.cands[i].key {
				j++
			}
			w.ids[i] += uint32(j)
		}
	}
}

// apply writes the new states' links (unless a coordinator keeps them),
// settles them in the seen-set, adds them to the next level and notes the
// first state where each property has an event. (In a shared BFS,
// mergeShare does all of it.)
func (w *bfsWorker) apply() {
	r := w.r
	w.clearFirst()
	cd := r.c.codec
	lw := linkWriter{ls: r.s.links, chunk: -1}
	for i := range w.cands {
		c := &w.cands[i]
		id := w.ids[i]
		if r.net == nil {
			lw.write(id, c.key)
		}
		if w.indexed && w.seen != nil && i%localBatch == 0 {
			// Sorted, the candidates' encodings are read out of
			// arrival order: read the next ones' first bytes, and
			// their home slots, in one loop of independent loads (see
			// offerBatch).
			for j := i; j < min(i+localBatch, len(w.cands)); j++ {
				c := &w.cands[j]
				w.sink += w.seen.homeSlot(c.fp)
				if cd != nil && c.n > 0 {
					w.sink += uint64(w.store.bs[c.blk][c.off])
				}
			}
		}
		if w.indexed && w.seen != nil {
			w.seen.settle(c.fp)
		}
		switch {
		case cd != nil:
			w.next.pushBytes(id, w.store.at(int(c.blk), int(c.off), int(c.n)))
		default:
			w.next.pushClone(r.cloneOf(c), id)
		}
		w.noteFirst(c, id)
	}
	lw.flush()
}

// clearFirst forgets the first events of the last level.
func (w *bfsWorker) clearFirst() {
	for i := range w.first {
		w.first[i] = firstEvent{}
	}
}

// noteFirst notes new state c, which has id id, as the first event of each
// property that has one in it and none yet: the states are given in key
// order.
func (w *bfsWorker) noteFirst(c *newState, id uint32) {
	for ev := c.ev; ev != 0; {
		k := bits.TrailingZeros64(ev)
		ev &^= 1 << k
		if !w.first[k].ok {
			w.first[k] = firstEvent{key: c.key, id: id, tix: c.tix, ok: true}
		}
	}
}

// linkWriter writes the links of new states in increasing id order, and
// counts them once per chunk (a chunk's count is shared with the other
// workers).
type linkWriter struct {
	ls      *linkStore
	chunk   int // the chunk being written (-1: none)
	written int // links written to it, not yet counted
}

// write writes the link of state id, reached by transition key (parent id
// << 32 | ordinal).
func (lw *linkWriter) write(id uint32, key uint64) {
	if k := lw.ls.write(id, link{uint32(key >> 32), uint32(key)}); k != lw.chunk {
		lw.flush()
		lw.chunk = k
	}
	lw.written++
}

// flush counts the links written and not yet counted.
func (lw *linkWriter) flush() {
	if lw.written > 0 {
		lw.ls.filled(lw.chunk, lw.written)
	}
	lw.written = 0
}

// progressCounts is what a progress line shows during a level.
func (r *bfsRun) progressCounts() (trans int64, distinct uint32) {
	t, n := r.s.trans, r.s.n
	for _, w := range r.w {
		if r.shared != nil {
			n += uint32(w.reached.Load())
		} else {
			n += uint32(len(w.cands))
		}
	}
	return t, n
}

// stopEvent is something that stops a sequential BFS, at time key.
type stopEvent struct {
	time  uint64 // (parent id, ordinal), or (id, all ones) for a deadlock
	tix   uint32
	prop  int // index of the state property, or deadlockProp
	id    uint32
	depth int
	max   bool // max-states reached
}

const afterAll = 0xffffffff

// account adds a finished level to the search: its events, in the order a
// sequential BFS meets them, and the point where that search would have
// stopped, with the states and transitions it would have counted.
func (r *bfsRun) account(depth int, cut bool, start uint32, total int) {
	s := r.s
	var evs []stopEvent
	for k := range s.c.inv {
		var best firstEvent
		for _, w := range r.w {
			if f := w.first[k]; f.ok && (!best.ok || f.key < best.key) {
				best = f
			}
		}
		if best.ok && s.props.done&(1<<k) == 0 {
			evs = append(evs, stopEvent{time: best.key, tix: best.tix, prop: k, id: best.id, depth: depth + 1})
		}
	}
	var dead uint32
	hasDead := false
	for _, w := range r.w {
		if w.hasDead && (!hasDead || w.deadlock < dead) {
			dead, hasDead = w.deadlock, true
		}
	}
	if hasDead && s.props.checkDeadlock() {
		evs = append(evs, stopEvent{time: uint64(dead)<<32 | afterAll, prop: deadlockProp, id: dead, depth: depth})
	}
	if ms := s.c.opt.MaxStates; ms > 0 && int(start) < ms && int(start)+total >= ms {
		key, tix := r.keyOf(uint32(ms - 1))
		evs = append(evs, stopEvent{time: key, tix: tix, max: true})
	}
	slices.SortStableFunc(evs, func(a, b stopEvent) int {
		switch {
		case a.time != b.time:
			if a.time < b.time {
				return -1
			}
			return 1
		case a.max != b.max:
			if b.max {
				return -1
			}
			return 1
		}
		return 0
	})
	var stop *stopEvent
	for i := range evs {
		e := &evs[i]
		if stop != nil && e.time > stop.time {
			break
		}
		switch {
		case e.max:
			s.halt("max-states")
		case e.prop == deadlockProp:
			s.stop = s.props.deadlocked(e.id, e.depth) || s.stop
		default:
			s.stop = s.props.note(1<<e.prop, e.id, e.depth) || s.stop
		}
		if s.stop && stop == nil {
			stop = e
		}
	}
	var trans int64
	if stop == nil {
		for _, w := range r.w {
			trans += w.trans
		}
		s.n = start + uint32(total)
		if total > 0 {
			s.depth = max(s.depth, depth+1)
		}
	} else {
		if r.fetch != nil {
			r.fetch()
		}
		p := uint32(stop.time >> 32)
		for _, w := range r.w {
			for i, id := range w.expanded {
				switch {
				case id < p:
					trans += int64(w.succN[i])
				case id == p && uint32(stop.time) == afterAll:
					trans += int64(w.succN[i])
				}
			}
		}
		if uint32(stop.time) != afterAll {
			trans += int64(stop.tix)
		}
		reached := 0
		for _, w := range r.w {
			reached += sort.Search(len(w.cands), func(i int) bool { return w.cands[i].key > stop.time })
		}
		s.n = start + uint32(reached)
		if reached > 0 {
			s.depth = max(s.depth, depth+1)
		}
	}
	s.trans += trans
	if cut && trans > 0 && s.limit == "" {
		s.limit = "max-depth"
	}
}

// keyOf returns the key and transition count of new state id.
func (r *bfsRun) keyOf(id uint32) (uint64, uint32) {
	for _, w := range r.w {
		if i, ok := slices.BinarySearch(w.ids, id); ok {
			return w.cands[i].key, w.cands[i].tix
		}
	}
	panic(fmt.Sprintf("mxcheck: state %d is in no partition", id))
}
