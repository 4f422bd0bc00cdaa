package explore

import (
	"errors"
	"fmt"
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
	lost  error // the first network failure: the run is stopped, the workers told to leave
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
	cn := &coordNet{cl: cl, reps: make(chan workerReply, 4*cl.Workers+16), beat: make([]time.Time, cl.Workers), stats: make([]workerStats, cl.Workers)}
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

func (cn *coordNet) close() {
	for _, sub := range cn.subs {
		_ = sub.Unsubscribe()
	}
}

// call sends command op to every worker (body(k) its body; nil: empty)
// and waits for every reply. While it waits it beats its own heartbeat,
// watches the workers' and the connection, and, when a limit of the
// search (r non-nil) is reached, tells the workers to halt.
func (cn *coordNet) call(r *bfsRun, op byte, body func(k int) []byte) ([][]byte, error) {
	nc := cn.cl.Conn
	cn.seq++
	seq := cn.seq
	for k := 0; k < cn.cl.Workers; k++ {
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
	left := cn.cl.Workers
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	halted := false
	for left > 0 {
		select {
		case rep := <-cn.reps:
			switch {
			case rep.err != nil:
				return nil, rep.err
			case rep.seq != seq || out[rep.k] != nil:
				continue // a late reply of an earlier command
			case len(rep.msg) == 0:
				return nil, fmt.Errorf("worker %d sent an empty reply", rep.k)
			case rep.msg[0] != 0:
				return nil, fmt.Errorf("worker %d: %s", rep.k, rep.msg[1:])
			}
			out[rep.k] = rep.msg[1:]
			left--
		case <-tick.C:
			if nc.IsClosed() || !nc.IsConnected() {
				return nil, errors.New("lost the NATS connection")
			}
			_ = nc.Publish(coordBeatSubject(cn.cl.Run), nil)
			cn.mu.Lock()
			for k, t := range cn.beat {
				if out[k] == nil && time.Since(t) > silentAfter*time.Second {
					cn.mu.Unlock()
					return nil, fmt.Errorf("worker %d stopped responding (no heartbeat for %ds)", k, silentAfter)
				}
			}
			cn.mu.Unlock()
			if r != nil && !halted {
				if l := r.s.lim.check(true); l != "" {
					halted = true
					r.limit.CompareAndSwap("", l)
					for k := 0; k < cn.cl.Workers; k++ {
						_ = publishParts(nc, cmdSubject(cn.cl.Run, k), 0, append([]byte{opHalt}, l...))
					}
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
		return s.result()
	}
	defer cn.close()
	lost := func(err error) { cn.fail(s, err) }
	r.fetch = func() {
		reps, err := cn.call(nil, opExpanded, nil)
		if err != nil {
			s.warn("distributed: the counts at the stop may be short: " + err.Error())
			return
		}
		for k, m := range reps {
			w, in := r.w[k], rbuf{b: m}
			w.expanded, w.succN = w.expanded[:0], w.succN[:0]
			for i, m := 0, int(in.u32()); i < m && in.err == nil; i++ {
				w.expanded = append(w.expanded, in.u32())
				w.succN = append(w.succN, in.u32())
			}
		}
	}
	if err := cn.ready(s); err != nil {
		lost(err)
		return s.result()
	}
	frontier := make([]int, n)
	if !r.seed(cn, frontier) {
		return s.result()
	}
	for depth := 0; !s.stop; depth++ {
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
		r.levelRemote(cn, depth, frontier, seenBytes)
	}
	if cn.lost != nil {
		cn.abort()
	} else if _, err := cn.call(nil, opEnd, nil); err != nil {
		s.warn("distributed: ending the workers: " + err.Error())
	}
	return s.result()
}

// seed discovers the initial states on the coordinator and sends each to
// its owner; false when the network failed.
func (r *bfsRun) seed(cn *coordNet, frontier []int) bool {
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
		o := f.owner(n)
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
		cn.fail(s, err)
		return false
	}
	for k := range frontier {
		frontier[k] = int(counts[k])
	}
	return true
}

// levelRemote is bfsRun.level with the workers' parts run remotely: expand,
// collect the sorted keys, rank them here (writing the links), hand each
// worker its ids, then account for the level.
func (r *bfsRun) levelRemote(cn *coordNet, depth int, frontier []int, seenBytes []int64) {
	s, c := r.s, r.c
	cut := c.opt.MaxDepth > 0 && depth >= c.opt.MaxDepth
	wantDeadlock := s.props.checkDeadlock()
	start := s.n
	var p wbuf
	p.u32(uint32(depth))
	p.u8(boolByte(cut))
	p.u8(boolByte(wantDeadlock))
	p.u64(s.props.done)
	reps, err := cn.call(r, opExpand, func(int) []byte { return p.b })
	if err != nil {
		cn.fail(s, err)
		return
	}
	for k, m := range reps {
		w, in := r.w[k], rbuf{b: m}
		w.trans = int64(in.u64())
		w.hasDead = in.u8() == 1
		w.deadlock = in.u32()
		_ = in.u32() // new states
		if l := in.str(); l != "" {
			r.limit.CompareAndSwap("", l)
		}
		w.panicked = nil
		if in.u8() == 1 {
			id, inv, v := in.u32(), in.str(), in.str()
			w.panicked = &workerPanic{value: v, id: id, inv: inv}
		}
		cn.stats[k].expanded = int64(in.u32())
		cn.stats[k].busy = time.Duration(in.u64())
		seenBytes[k] = int64(in.u64())
		if in.err != nil {
			cn.fail(s, fmt.Errorf("worker %d: %v", k, in.err))
			return
		}
		w.cands, w.ids = w.cands[:0], w.ids[:0]
		w.expanded, w.succN = w.expanded[:0], w.succN[:0]
		for i := range w.first {
			w.first[i] = firstEvent{}
		}
	}
	if r.failed() {
		return
	}
	total := 0
	for k := range frontier {
		frontier[k] = 0
	}
	if !cut {
		if reps, err = cn.call(r, opKeys, nil); err != nil {
			cn.fail(s, err)
			return
		}
		for k, m := range reps {
			w, in := r.w[k], rbuf{b: m}
			for i, m := 0, int(in.u32()); i < m && in.err == nil; i++ {
				w.cands = append(w.cands, newState{key: in.u64(), tix: in.u32()})
			}
			if in.err != nil {
				cn.fail(s, fmt.Errorf("worker %d: %v", k, in.err))
				return
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
			cn.fail(s, err)
			return
		}
		for k, m := range reps {
			w, in := r.w[k], rbuf{b: m}
			for i := range w.first {
				ok := in.u8() == 1
				w.first[i] = firstEvent{key: in.u64(), id: in.u32(), tix: in.u32(), ok: ok}
			}
			frontier[k] = int(in.u32())
			seenBytes[k] = int64(in.u64())
			if in.err != nil {
				cn.fail(s, fmt.Errorf("worker %d: %v", k, in.err))
				return
			}
		}
	}
	r.account(depth, cut, start, total)
	cn.progress(s, depth)
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
