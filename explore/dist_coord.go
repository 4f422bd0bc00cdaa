package explore

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// coordNet is the coordinator's side of a distributed BFS.
type coordNet struct {
	cl    *Cluster
	asm   assembler
	reps  chan workerReply
	mu    sync.Mutex
	beat  []time.Time // each worker's last heartbeat
	seq   uint32
	subs  []*nats.Subscription
	stats []workerStats
	lost  error  // the first network failure: the run is stopped, the workers told to leave
	alive []bool // members still in the run
	epoch uint32
	vmap  []int32 // virtual partition → member
}

// lostWorker is a worker that stopped answering: its partitions can move
// to the others.
type lostWorker struct {
	k   int
	why string
}

func (e *lostWorker) Error() string { return fmt.Sprintf("worker %d %s", e.k, e.why) }

// lostLevel is a level that cannot be trusted (a batch was lost): it can
// run again.
type lostLevel struct{ why string }

func (e *lostLevel) Error() string { return e.why }

// timeout is how long a silent worker is waited for.
func (cn *coordNet) timeout() time.Duration {
	if cn.cl.Timeout > 0 {
		return cn.cl.Timeout
	}
	return DefaultWorkerTimeout
}

// live returns the members alive.
func (cn *coordNet) live() []int {
	var out []int
	for k, a := range cn.alive {
		if a {
			out = append(out, k)
		}
	}
	return out
}

type workerReply struct {
	k   int
	seq uint32
	msg []byte
	err error
}

// workerStats is what the progress lines show of a worker.
type workerStats struct {
	expanded int64
	busy     time.Duration
}

func newCoordNet(cl *Cluster) (*coordNet, error) {
	if cl.Conn == nil || cl.Workers < 1 {
		return nil, errors.New("distributed: no connection or no workers")
	}
	cn := &coordNet{cl: cl, reps: make(chan workerReply, 4*cl.Workers+16), beat: make([]time.Time, cl.Workers), stats: make([]workerStats, cl.Workers), alive: make([]bool, cl.Workers)}
	for k := range cn.alive {
		cn.alive[k] = true
	}
	cn.vmap = partitionMap(cn.alive)
	now := time.Now()
	for k := range cn.beat {
		cn.beat[k] = now
	}
	run := cl.Run
	index := func(subj string) int {
		k, err := strconv.Atoi(subj[strings.LastIndexByte(subj, '.')+1:])
		if err != nil || k < 0 || k >= cl.Workers {
			return -1
		}
		return k
	}
	sub, err := cl.Conn.Subscribe(run+".rep.*", func(m *nats.Msg) {
		k := index(m.Subject)
		if k < 0 {
			return
		}
		seq, msg, done, err := cn.asm.add(k, m.Data)
		if err != nil || done {
			cn.reps <- workerReply{k: k, seq: seq, msg: msg, err: err}
		}
	})
	if err != nil {
		return nil, err
	}
	_ = sub.SetPendingLimits(-1, -1)
	cn.subs = append(cn.subs, sub)
	sub, err = cl.Conn.Subscribe(run+".hb.*", func(m *nats.Msg) {
		if k := index(m.Subject); k >= 0 {
			cn.mu.Lock()
			cn.beat[k] = time.Now()
			cn.mu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	cn.subs = append(cn.subs, sub)
	return cn, cl.Conn.Flush()
}

// fail stops the search as incomplete on a network failure.
func (cn *coordNet) fail(s *search, err error) {
	if cn.lost == nil {
		cn.lost = err
	}
	s.halt("distributed: " + err.Error())
}

// abort tells every worker to leave, without waiting for answers.
func (cn *coordNet) abort() {
	nc := cn.cl.Conn
	for k := 0; k < cn.cl.Workers; k++ {
		_ = publishParts(nc, cmdSubject(cn.cl.Run, k), 0, append([]byte{opAbort}, cn.lost.Error()...))
	}
	_ = nc.Flush()
}

// tell sends a command that has no reply to the members alive.
func (cn *coordNet) tell(op byte, body string) {
	for _, k := range cn.live() {
		_ = publishParts(cn.cl.Conn, cmdSubject(cn.cl.Run, k), 0, append([]byte{op}, body...))
	}
	_ = cn.cl.Conn.Flush()
}

// beat publishes the coordinator's heartbeat until stop is closed.
func (cn *coordNet) heartbeat(stop <-chan struct{}) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			_ = cn.cl.Conn.Publish(coordBeatSubject(cn.cl.Run), nil)
		}
	}
}

func (cn *coordNet) close() {
	for _, sub := range cn.subs {
		_ = sub.Unsubscribe()
	}
}

// call sends command op to every worker alive (body(k) its body; nil:
// empty) and waits for every reply. While it waits it beats its own heartbeat,
// watches the workers' and the connection, and, when a limit of the
// search (r non-nil) is reached, tells the workers to halt.
func (cn *coordNet) call(r *bfsRun, op byte, body func(k int) []byte) ([][]byte, error) {
	nc := cn.cl.Conn
	cn.seq++
	seq := cn.seq
	for _, k := range cn.live() {
		msg := []byte{op}
		if body != nil {
			msg = append(msg, body(k)...)
		}
		if err := publishParts(nc, cmdSubject(cn.cl.Run, k), seq, msg); err != nil {
			return nil, fmt.Errorf("lost the NATS connection: %v", err)
		}
	}
	if err := nc.Flush(); err != nil {
		return nil, fmt.Errorf("lost the NATS connection: %v", err)
	}
	return cn.await(r, seq)
}

// await collects the replies of sequence seq.
func (cn *coordNet) await(r *bfsRun, seq uint32) ([][]byte, error) {
	nc := cn.cl.Conn
	out := make([][]byte, cn.cl.Workers)
	left := len(cn.live())
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	halted := false
	var down time.Time // when the connection went down
	for left > 0 {
		select {
		case rep := <-cn.reps:
			switch {
			case rep.err != nil:
				return nil, rep.err
			case rep.seq != seq || out[rep.k] != nil || !cn.alive[rep.k]:
				continue // a late reply of an earlier command
			case len(rep.msg) == 0:
				return nil, fmt.Errorf("worker %d sent an empty reply", rep.k)
			case rep.msg[0] != 0:
				return nil, fmt.Errorf("worker %d: %s", rep.k, rep.msg[1:])
			}
			out[rep.k] = rep.msg[1:]
			left--
		case <-tick.C:
			switch {
			case nc.IsClosed():
				return nil, errors.New("lost the NATS connection")
			case !nc.IsConnected() && down.IsZero():
				down = time.Now()
			case !nc.IsConnected() && time.Since(down) > cn.timeout():
				return nil, fmt.Errorf("lost the NATS connection (down for %s)", cn.timeout())
			case nc.IsConnected() && !down.IsZero():
				// Replies may have been lost while it was down.
				return nil, &lostLevel{why: "the coordinator's NATS connection was interrupted"}
			}
			cn.mu.Lock()
			for k, t := range cn.beat {
				if cn.alive[k] && time.Since(t) > cn.timeout() {
					cn.mu.Unlock()
					return nil, &lostWorker{k: k, why: fmt.Sprintf("stopped responding (no heartbeat for %s)", cn.timeout())}
				}
			}
			cn.mu.Unlock()
			if r != nil && !halted {
				if l := r.s.lim.check(true); l != "" {
					halted = true
					r.limit.CompareAndSwap("", l)
					cn.tell(opHalt, l)
				}
			}
		}
	}
	return out, nil
}

// ready pings the workers until each has answered: a worker may still be
// subscribing when the coordinator starts.
func (cn *coordNet) ready(s *search) error {
	nc := cn.cl.Conn
	ok := make([]bool, cn.cl.Workers)
	left := len(ok)
	deadline := time.Now().Add(readyWithin)
	for left > 0 {
		for k := range ok {
			if !ok[k] {
				if err := publishParts(nc, cmdSubject(cn.cl.Run, k), 0, []byte{opPing}); err != nil {
					return err
				}
			}
		}
		if err := nc.Flush(); err != nil {
			return err
		}
		wait := time.After(200 * time.Millisecond)
	collect:
		for {
			select {
			case rep := <-cn.reps:
				if rep.err == nil && rep.seq == 0 && !ok[rep.k] {
					ok[rep.k] = true
					left--
				}
			case <-wait:
				break collect
			}
		}
		if l := s.lim.check(false); l != "" {
			return fmt.Errorf("%s while waiting for the workers", l)
		}
		if left > 0 && time.Now().After(deadline) {
			var missing []string
			for k := range ok {
				if !ok[k] {
					missing = append(missing, strconv.Itoa(k))
				}
			}
			return fmt.Errorf("workers %s did not answer within %s", strings.Join(missing, ", "), readyWithin)
		}
	}
	return nil
}

// readyWithin is how long the coordinator waits for its workers to answer.
var readyWithin = 30 * time.Second

// bfsDistributed is the coordinator of a distributed BFS: the loop of
// bfs, with each worker's part run by a worker process.
func (c *Checker) bfsDistributed() *Result {
	cl := c.opt.Cluster
	s := c.newSearch()
	n := cl.Workers
	r := &bfsRun{s: s, c: c, sym: c.sym != nil}
	r.limit.Store("")
	for i := 0; i < n; i++ {
		r.w = append(r.w, &bfsWorker{r: r, id: i, first: make([]firstEvent, len(c.inv))})
	}
	x := c.newExpander(func() bool { return s.lim.check(false) != "" })
	s.x = x
	seenBytes := make([]int64, n)
	s.seenBytes = func() int64 {
		var b int64
		for _, v := range seenBytes {
			b += v
		}
		return b
	}
	s.queue = func() int { return 0 }
	cn, err := newCoordNet(cl)
	if err != nil {
		s.halt("distributed: " + err.Error())
		return r.result()
	}
	defer cn.close()
	stopBeat := make(chan struct{})
	defer close(stopBeat)
	go cn.heartbeat(stopBeat)
	// The coordinator's partition map and members are the run's: a lost
	// worker's partitions move in place.
	r.vmap, r.alive = cn.vmap, cn.alive
	var fetchErr error
	r.fetch = func() {
		reps, err := cn.call(nil, opExpanded, nil)
		if err != nil {
			fetchErr = err
			return
		}
		for _, k := range cn.live() {
			w, in := r.w[k], rbuf{b: reps[k]}
			w.expanded, w.succN = w.expanded[:0], w.succN[:0]
			for i, m := 0, int(in.u32()); i < m && in.err == nil; i++ {
				w.expanded = append(w.expanded, in.u32())
				w.succN = append(w.succN, in.u32())
			}
		}
	}
	if err := cn.ready(s); err != nil {
		cn.fail(s, err)
		return r.result()
	}
	frontier := make([]int, n)
	r.ck.last = s.start
	r.ck.newest = c.resume
	depth, err := r.startRemote(cn, c.resume, frontier, seenBytes)
	if err == nil && c.resume != nil {
		r.ck.stats.ResumedFrom, r.ck.stats.ResumedStates = c.resume.Level, int64(c.resume.States)
	}
	retries := 0
	for err != nil || !s.stop { // a failure found with the stop is recovered from first
		if err != nil {
			if depth, err = r.recoverRemote(cn, err, frontier, seenBytes, &retries); err != nil {
				cn.fail(s, err)
				break
			}
			continue
		}
		total := 0
		for _, f := range frontier {
			total += f
		}
		if total == 0 {
			break
		}
		if l := s.lim.check(true); l != "" {
			s.halt(l)
			break
		}
		fetchErr = nil
		err = r.levelRemote(cn, depth, frontier, seenBytes)
		if err == nil && fetchErr != nil {
			err = fetchErr
		}
		if err == nil {
			err = r.afterLevelRemote(cn, depth)
		}
		if err == nil {
			depth++
		}
	}
	if cn.lost != nil {
		cn.abort()
	} else if _, err := cn.call(nil, opEnd, nil); err != nil {
		s.warn("distributed: ending the workers: " + err.Error())
	}
	return r.result()
}

// startRemote starts an epoch: the coordinator goes back to checkpoint m
// (nil: the start), each worker alive loads its partitions of it (or
// receives its initial states), and frontier gets each worker's share of
// the level to expand, which startRemote returns.
func (r *bfsRun) startRemote(cn *coordNet, m *manifest, frontier []int, seenBytes []int64) (int, error) {
	if err := r.rewind(m); err != nil {
		return 0, err
	}
	cn.epoch++
	dir, level := "", 0
	if m != nil {
		dir, level = m.dir, m.Level
	}
	var b wbuf
	b.u32(cn.epoch)
	b.u64(uint64(cn.timeout()))
	for _, a := range cn.alive {
		b.u8(boolByte(a))
	}
	b.u32(uint32(len(cn.vmap)))
	for _, o := range cn.vmap {
		b.u32(uint32(o))
	}
	b.str(dir)
	b.u8(boolByte(cn.cl.Compress))
	reps, err := cn.call(nil, opEpoch, func(int) []byte { return b.b })
	if err != nil {
		return 0, err
	}
	for k := range frontier {
		frontier[k], seenBytes[k] = 0, 0
	}
	for _, k := range cn.live() {
		in := rbuf{b: reps[k]}
		frontier[k] = int(in.u32())
		seenBytes[k] = int64(in.u64())
		if in.err != nil {
			return 0, fmt.Errorf("worker %d: %v", k, in.err)
		}
	}
	if m == nil {
		return 0, r.seed(cn, frontier)
	}
	return level, nil
}

// rewind sets the coordinator's search back to checkpoint m (nil: to the
// start): links, counters, property tracker. Warnings stay.
func (r *bfsRun) rewind(m *manifest) error {
	s, c := r.s, r.c
	s.links.close()
	s.links = newLinkStore()
	s.n, s.trans, s.depth, s.limit, s.stop = 0, 0, 0, "", false
	s.props = newPropTracker(c.inv, c.worker != nil, c.opt.Liveness, c.opt.Continue)
	s.reduced, s.symBounded = 0, 0
	r.limit.Store("")
	r.stopped.Store(false)
	if m == nil {
		return nil
	}
	stats := r.ck.stats
	err := r.restoreSearch(m)
	r.ck.stats.ResumedFrom, r.ck.stats.ResumedStates = stats.ResumedFrom, stats.ResumedStates
	return err
}

// recoverRemote answers a failure of the network: a lost worker's
// partitions move to the others, and every worker goes back to the last
// checkpoint (or the start); a lost batch sends them back as well, at most
// maxRetries times in a row. Anything else, or no worker left, is returned:
// the search stops as incomplete. It returns the level to expand next.
func (r *bfsRun) recoverRemote(cn *coordNet, failure error, frontier []int, seenBytes []int64, retries *int) (int, error) {
	s := r.s
	var lw *lostWorker
	var ll *lostLevel
	what := ""
	switch {
	case errors.As(failure, &lw):
		cn.alive[lw.k] = false
		// In case it is only slow: it must not come back.
		_ = publishParts(cn.cl.Conn, cmdSubject(cn.cl.Run, lw.k), 0, append([]byte{opAbort}, "given up for silence"...))
		if len(cn.live()) == 0 {
			return 0, fmt.Errorf("%v, and no worker is left", failure)
		}
		handOver(cn.vmap, lw.k, cn.alive)
		what = fmt.Sprintf("its partitions moved to workers %s", joinInts(cn.live()))
	case errors.As(failure, &ll):
		if *retries++; *retries > maxRetries {
			return 0, fmt.Errorf("%v (%d times in a row)", failure, maxRetries+1)
		}
		what = "the level runs again"
	default:
		return 0, failure
	}
	cn.tell(opReset, failure.Error())
	m := r.ck.newest
	from := "the initial states"
	if m != nil {
		from = fmt.Sprintf("the checkpoint of level %d", m.Level)
	}
	s.warn(fmt.Sprintf("distributed: %v at level %d: %s, from %s", failure, s.depth, what, from))
	if p := s.c.opt.Progress; p != nil {
		fmt.Fprintf(p, "mxcheck: %v: %s, from %s\n", failure, what, from)
	}
	return r.startRemote(cn, m, frontier, seenBytes)
}

// maxRetries is how many times in a row a level with a lost batch runs
// again.
const maxRetries = 3

func joinInts(v []int) string {
	var b []string
	for _, x := range v {
		b = append(b, strconv.Itoa(x))
	}
	return strings.Join(b, ", ")
}

// afterLevelRemote is afterLevel for the coordinator: the workers write
// their partitions' files of the checkpoint, the coordinator the rest.
func (r *bfsRun) afterLevelRemote(cn *coordNet, depth int) error {
	return r.afterLevelWith(depth, func(next int) (int64, error, error) { return r.checkpointRemote(cn, next) })
}

// checkpointRemote writes the checkpoint of level next: each worker its
// partition file, the coordinator an empty one for each lost member, the
// links and the manifest. err is a failed write (the search goes on
// without this checkpoint), netErr a failed network.
func (r *bfsRun) checkpointRemote(cn *coordNet, next int) (size int64, err, netErr error) {
	tmp, err := r.checkpointTmp(next)
	if err != nil {
		return 0, err, nil
	}
	var b wbuf
	b.str(tmp)
	reps, netErr := cn.call(nil, opCkpt, func(int) []byte { return b.b })
	if netErr != nil {
		// What the workers still write there goes with the next checkpoint.
		return 0, nil, netErr
	}
	n := len(r.w)
	files := make([]manifestFile, n)
	for k := range files {
		if !cn.alive[k] {
			if files[k], err = writeEmptyPart(tmp, k, n); err != nil {
				break
			}
			continue
		}
		in := rbuf{b: reps[k]}
		if in.u8() != 1 {
			err = fmt.Errorf("worker %d: %s", k, in.str())
			break
		}
		files[k] = manifestFile{Name: in.str(), Size: int64(in.u64()), CRC: in.u32()}
		if in.err == nil && files[k].Name != partName(k) {
			in.err = fmt.Errorf("wrote %s", files[k].Name)
		}
		if in.err != nil {
			return 0, nil, fmt.Errorf("worker %d: %v", k, in.err)
		}
	}
	if err != nil {
		os.RemoveAll(tmp)
		return 0, err, nil
	}
	size, err = r.commitCheckpoint(tmp, next, files)
	return size, err, nil
}

// seed discovers the initial states on the coordinator and sends each to
// its owner.
func (r *bfsRun) seed(cn *coordNet, frontier []int) error {
	s, c := r.s, r.c
	x := s.x
	n := len(r.w)
	bodies := make([]wbuf, n)
	counts := make([]uint32, n)
	seen := map[fingerprint]bool{}
	for i, st := range c.sys.Init() {
		f := x.fingerprint(st)
		if seen[f] {
			continue
		}
		seen[f] = true
		id := s.addLink(link{noParent, uint32(i)})
		s.at = panicSite{id: id, valid: true}
		s.checkNew(x, st, id, 0)
		s.at.valid = false
		o := r.owner(f)
		b := &bodies[o]
		b.u32(id)
		b.u64(f.lo)
		b.u64(f.hi)
		b.bytes(c.codec.AppendState(nil, st))
		counts[o]++
		if s.stop {
			break
		}
	}
	if _, err := cn.call(nil, opSeed, func(k int) []byte {
		var w wbuf
		w.u32(counts[k])
		return append(w.b, bodies[k].b...)
	}); err != nil {
		return err
	}
	for k := range frontier {
		frontier[k] = int(counts[k])
	}
	return nil
}

// levelRemote is bfsRun.level with the workers' parts run remotely: expand,
// collect the sorted keys, rank them here (writing the links), hand each
// worker its ids, then account for the level. An error is the network's:
// the level did not complete.
func (r *bfsRun) levelRemote(cn *coordNet, depth int, frontier []int, seenBytes []int64) error {
	s, c := r.s, r.c
	cut := c.opt.MaxDepth > 0 && depth >= c.opt.MaxDepth
	wantDeadlock := s.props.checkDeadlock()
	start := s.n
	var p wbuf
	p.u32(uint32(depth))
	p.u8(boolByte(cut))
	p.u8(boolByte(wantDeadlock))
	p.u64(s.props.done)
	for _, w := range r.w {
		// Lost members have nothing; the others' replies set all this.
		w.trans, w.hasDead, w.deadlock, w.panicked = 0, false, 0, nil
		w.cands, w.ids = w.cands[:0], w.ids[:0]
		w.expanded, w.succN = w.expanded[:0], w.succN[:0]
		for i := range w.first {
			w.first[i] = firstEvent{}
		}
		cn.stats[w.id] = workerStats{}
	}
	reps, err := cn.call(r, opExpand, func(int) []byte { return p.b })
	if err != nil {
		return err
	}
	for _, k := range cn.live() {
		w, in := r.w[k], rbuf{b: reps[k]}
		w.trans = int64(in.u64())
		w.hasDead = in.u8() == 1
		w.deadlock = in.u32()
		_ = in.u32() // new states
		l := in.str()
		if strings.HasPrefix(l, lostBatches) {
			return &lostLevel{why: fmt.Sprintf("worker %d %s", k, strings.TrimPrefix(l, "distributed: "))}
		}
		if l != "" {
			r.limit.CompareAndSwap("", l)
		}
		if in.u8() == 1 {
			id, inv, v := in.u32(), in.str(), in.str()
			w.panicked = &workerPanic{value: v, id: id, inv: inv}
		}
		cn.stats[k].expanded = int64(in.u32())
		cn.stats[k].busy = time.Duration(in.u64())
		seenBytes[k] = int64(in.u64())
		if in.err != nil {
			return fmt.Errorf("worker %d: %v", k, in.err)
		}
	}
	if r.failed() {
		return nil
	}
	total := 0
	next := make([]int, len(frontier))
	if !cut {
		if reps, err = cn.call(r, opKeys, nil); err != nil {
			return err
		}
		for _, k := range cn.live() {
			w, in := r.w[k], rbuf{b: reps[k]}
			for i, m := 0, int(in.u32()); i < m && in.err == nil; i++ {
				w.cands = append(w.cands, newState{key: in.u64(), tix: in.u32()})
			}
			if in.err != nil {
				return fmt.Errorf("worker %d: %v", k, in.err)
			}
			total += len(w.cands)
		}
		r.parallel(func(w *bfsWorker) { w.rank(start) })
		for _, w := range r.w {
			for i := range w.cands {
				key := w.cands[i].key
				s.links.set(w.ids[i], link{uint32(key >> 32), uint32(key)})
			}
		}
		reps, err = cn.call(r, opFinish, func(k int) []byte {
			var b wbuf
			b.u32(uint32(len(r.w[k].ids)))
			for _, id := range r.w[k].ids {
				b.u32(id)
			}
			return b.b
		})
		if err != nil {
			return err
		}
		for _, k := range cn.live() {
			w, in := r.w[k], rbuf{b: reps[k]}
			for i := range w.first {
				ok := in.u8() == 1
				w.first[i] = firstEvent{key: in.u64(), id: in.u32(), tix: in.u32(), ok: ok}
			}
			next[k] = int(in.u32())
			seenBytes[k] = int64(in.u64())
			if in.err != nil {
				return fmt.Errorf("worker %d: %v", k, in.err)
			}
		}
	}
	copy(frontier, next)
	r.account(depth, cut, start, total)
	cn.progress(s, depth)
	return nil
}

// progress prints, after a level, the counts and each worker's rate.
func (cn *coordNet) progress(s *search, depth int) {
	w := s.c.opt.Progress
	if w == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mxcheck: level %d: states=%d transitions=%d", depth+1, s.n, s.trans)
	for k, st := range cn.stats {
		rate := 0.0
		if st.busy > 0 {
			rate = float64(st.expanded) / st.busy.Seconds()
		}
		fmt.Fprintf(&b, " w%d=%.0f/s", k, rate)
	}
	fmt.Fprintln(w, b.String())
}

func boolByte(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
