package explore

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// workerProc is a worker process of a distributed BFS: what lasts for the
// whole run. Each epoch (opEpoch) gets a fresh workerNet, built from the
// initial states or a checkpoint.
type workerProc struct {
	c   *Checker
	nc  *nats.Conn
	run string
	k   int // this member's index
	n   int // members
	cur atomic.Pointer[workerNet]
	// aborted is closed when the run cannot go on; why says why.
	aborted   chan struct{}
	abortOnce sync.Once
	why       atomic.Value
	lastCoord atomic.Int64 // when the coordinator was last heard (unix ns)
	timeout   atomic.Int64 // how long a silent coordinator is waited for (ns)
}

// workerNet is one epoch of a worker process: its part of the search.
type workerNet struct {
	p      *workerProc
	r      *bfsRun
	k      int
	epoch  uint32
	depth  int      // the level being expanded (fault injection)
	faults int      // batches sent this level (fault injection)
	sent   []uint32 // batches sent to each worker this epoch
	got    []uint32 // batches received from each worker this epoch (the subscription's goroutine)
	broken atomic.Bool
	// compress: batches go S2-compressed (Cluster.Compress)
	compress bool
}

// sendBatch sends b to worker o and recycles it.
func (wn *workerNet) sendBatch(o int, b *batch) {
	if wn.faults == 0 && wn.r.faultAt != nil {
		wn.r.faultAt("mid-level")
	}
	wn.faults++
	p := encodeBatch(wn.k, wn.epoch, wn.sent[o], b, wn.compress)
	wn.sent[o]++
	if dropBatch != nil && !b.last && dropBatch(wn.k, o, wn.depth) {
		// A network that loses it (tests).
	} else if err := wn.p.nc.Publish(batchSubject(wn.p.run, o), p); err != nil {
		wn.fail("distributed: cannot send a batch: " + err.Error())
	}
	b.reset()
	wn.r.pool.Put(b)
}

// dropBatch, in tests, loses a batch (not a level's last) a worker sends to
// worker to at level depth when it returns true. NATS loses a message only
// when a connection breaks (a slow consumer is disconnected): a worker's
// connection that breaks fails its level (ServeWorker), so a lost last
// batch cannot leave its receiver waiting.
var dropBatch func(from, to, depth int) bool

// onBatch receives a batch from another worker; batches of another epoch
// (sent before a worker was lost) are dropped.
func (wn *workerNet) onBatch(m *nats.Msg) {
	if batchEpoch(m.Data) != wn.epoch {
		return
	}
	r := wn.r
	b := r.pool.Get().(*batch)
	from, _, sent, err := decodeBatch(m.Data, b)
	switch {
	case err != nil:
		wn.fail(err.Error())
	case from < 0 || from >= len(wn.got) || from == wn.k:
		wn.fail(fmt.Sprintf("distributed: a batch from unknown worker %d", from))
	case b.last && wn.got[from] != sent:
		wn.fail(fmt.Sprintf("%s%d batches from worker %d", lostBatches, int(sent)-int(wn.got[from]), from))
	}
	if err != nil || from < 0 || from >= len(wn.got) || from == wn.k {
		b.reset()
		r.pool.Put(b)
		return
	}
	wn.got[from]++
	r.w[wn.k].in.put(b)
}

// lostBatches starts the limit a worker reports when a batch to it was
// lost: the coordinator runs the level again.
const lostBatches = "distributed: lost "

// fail stops the level for good: the search cannot be trusted to go on.
// A worker waiting for batches is woken up.
func (wn *workerNet) fail(msg string) {
	r := wn.r
	r.limit.CompareAndSwap("", msg)
	r.stopped.Store(true)
	wn.broken.Store(true)
	r.w[wn.k].in.put(r.pool.Get().(*batch))
}

// abort stops the run for good: the level winds up and the worker leaves.
func (p *workerProc) abort(why string) {
	p.abortOnce.Do(func() {
		p.why.Store(why)
		if wn := p.cur.Load(); wn != nil {
			wn.fail("distributed: " + why)
		}
		close(p.aborted)
	})
}

// halt is a limit the coordinator reached: wind up the level.
func (wn *workerNet) halt(limit string) {
	wn.r.limit.CompareAndSwap("", limit)
	wn.r.stopped.Store(true)
}

// ServeWorker serves worker k of n of a distributed BFS run over nc until
// the coordinator ends it; c must be built from the same spec, parameters
// and options as the coordinator's (cmd/mxcheck sends them). It returns an
// error when the connection or the coordinator is lost.
func ServeWorker(c *Checker, nc *nats.Conn, run string, k, n int) error {
	if c.codec == nil {
		return errors.New("distributed: the spec's states cannot be encoded")
	}
	if k < 0 || k >= n {
		return fmt.Errorf("distributed: worker %d of %d", k, n)
	}
	p := &workerProc{c: c, nc: nc, run: run, k: k, n: n, aborted: make(chan struct{})}
	p.lastCoord.Store(time.Now().UnixNano())
	p.timeout.Store(int64(DefaultWorkerTimeout))
	// Until the first epoch, a worker of no one's partitions.
	alive := make([]bool, n)
	alive[k] = true
	p.newEpoch(0, alive, partitionMap(alive))
	defer func() {
		if wn := p.cur.Load(); wn != nil {
			wn.close()
		}
	}()

	type command struct {
		seq uint32
		msg []byte
	}
	cmds := make(chan command, 64)
	var asm assembler
	var subs []*nats.Subscription
	defer func() {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
	}()
	sub, err := nc.Subscribe(cmdSubject(run, k), func(m *nats.Msg) {
		seq, msg, done, err := asm.add(0, m.Data)
		wn := p.cur.Load()
		switch {
		case err != nil:
			wn.fail(err.Error())
		case !done:
		case len(msg) > 0 && msg[0] == opHalt:
			wn.halt(string(msg[1:]))
		case len(msg) > 0 && msg[0] == opReset:
			wn.fail("distributed: the level is dropped: " + string(msg[1:]))
		case len(msg) > 0 && msg[0] == opAbort:
			p.abort("the coordinator stopped the run: " + string(msg[1:]))
		default:
			cmds <- command{seq, msg}
		}
	})
	if err != nil {
		return err
	}
	subs = append(subs, sub)
	if sub, err = nc.Subscribe(batchSubject(run, k), func(m *nats.Msg) { p.cur.Load().onBatch(m) }); err != nil {
		return err
	}
	// No message may be dropped for a slow consumer: a batch lost would be
	// caught at the level's end, but costs the level.
	_ = sub.SetPendingLimits(-1, -1)
	subs = append(subs, sub)
	if sub, err = nc.Subscribe(coordBeatSubject(run), func(*nats.Msg) { p.lastCoord.Store(time.Now().UnixNano()) }); err != nil {
		return err
	}
	subs = append(subs, sub)
	if err := nc.Flush(); err != nil {
		return err
	}
	// Messages to this worker may be lost while its connection is down:
	// the level under way cannot be trusted.
	nc.SetDisconnectErrHandler(func(*nats.Conn, error) {
		p.cur.Load().fail(lostBatches + "messages: the NATS connection was interrupted")
	})
	defer nc.SetDisconnectErrHandler(nil)
	stopBeat := make(chan struct{})
	defer close(stopBeat)
	go func() {
		// The heartbeat, and the watch on the coordinator and the
		// connection: a worker blocked in a level is woken when either is
		// lost.
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-stopBeat:
				return
			case <-t.C:
				_ = nc.Publish(hbSubject(run, k), nil)
				switch {
				case nc.IsClosed():
					p.abort("lost the NATS connection")
				case time.Since(time.Unix(0, p.lastCoord.Load())) > time.Duration(p.timeout.Load()):
					p.abort("the coordinator stopped responding")
				}
			}
		}
	}()
	for {
		var cmd command
		select {
		case cmd = <-cmds:
		case <-p.aborted:
			return errors.New(p.why.Load().(string))
		}
		p.lastCoord.Store(time.Now().UnixNano())
		var body []byte
		end := false
		if len(cmd.msg) > 0 && cmd.msg[0] == opEpoch {
			body, err = p.epoch(cmd.msg[1:])
		} else {
			body, end, err = p.cur.Load().serve(cmd.msg)
		}
		if err != nil {
			_ = publishParts(nc, repSubject(run, k), cmd.seq, append([]byte{1}, err.Error()...))
			return err
		}
		if err := publishParts(nc, repSubject(run, k), cmd.seq, append([]byte{0}, body...)); err != nil {
			return err
		}
		if end {
			return nc.Flush()
		}
	}
}

// newEpoch makes the worker's part of a new epoch, with no state yet, and
// makes it current.
func (p *workerProc) newEpoch(epoch uint32, alive []bool, vmap []int32) *workerNet {
	c := p.c
	s := c.newSearch()
	r := &bfsRun{s: s, c: c, sym: c.sym != nil, vmap: vmap, alive: alive}
	r.limit.Store("")
	r.pool.New = func() any { return new(batch) }
	wn := &workerNet{p: p, r: r, k: p.k, epoch: epoch, sent: make([]uint32, p.n), got: make([]uint32, p.n)}
	r.net = wn
	r.faultAt = func(point string) {
		if DistFault != nil {
			DistFault(point, p.k, wn.depth)
		}
	}
	inMem := c.levelInMemory()
	for i := 0; i < p.n; i++ {
		if i == p.k {
			r.w = append(r.w, r.newWorker(i, p.n, inMem))
		} else {
			r.w = append(r.w, &bfsWorker{r: r, id: i}) // remote
		}
	}
	w := r.w[p.k]
	w.indexed = p.n > 1
	s.x = w.x
	if old := p.cur.Swap(wn); old != nil {
		old.close()
	}
	return wn
}

// close releases an epoch's levels.
func (wn *workerNet) close() {
	w := wn.r.w[wn.k]
	w.cur.close()
	w.next.close()
}

// epoch starts an epoch (opEpoch): its number, how long a silent
// coordinator is waited for, the members alive, the partition map, and the
// checkpoint directory to load this worker's partitions from ("": the
// initial states follow with opSeed). The reply is the size of the
// worker's frontier.
func (p *workerProc) epoch(msg []byte) ([]byte, error) {
	in := rbuf{b: msg}
	epoch := in.u32()
	p.timeout.Store(int64(time.Duration(in.u64())))
	alive := make([]bool, p.n)
	for i := range alive {
		alive[i] = in.u8() == 1
	}
	vmap := make([]int32, in.u32())
	for vp := range vmap {
		vmap[vp] = int32(in.u32())
	}
	dir := in.str()
	compress := in.u8() == 1
	if in.err != nil {
		return nil, in.err
	}
	if len(vmap) != VirtualPartitions {
		return nil, fmt.Errorf("distributed: a partition map of %d partitions", len(vmap))
	}
	for _, o := range vmap {
		if o < 0 || int(o) >= p.n || !alive[o] {
			return nil, fmt.Errorf("distributed: a partition map naming member %d", o)
		}
	}
	wn := p.newEpoch(epoch, alive, vmap)
	wn.compress = compress
	w := wn.r.w[p.k]
	if dir != "" {
		m, err := readManifest(dir)
		if err == nil && !m.validMap() {
			err = errCorrupt
		}
		if err == nil {
			err = wn.r.restoreParts(m)
		}
		if err != nil {
			return nil, fmt.Errorf("distributed: loading the checkpoint in %s: %v", dir, err)
		}
	}
	var out wbuf
	out.u32(uint32(w.next.n))
	out.u64(uint64(w.seen.bytes()))
	return out.b, nil
}

// serve runs one command and returns the reply's body.
func (wn *workerNet) serve(msg []byte) (body []byte, end bool, err error) {
	r := wn.r
	s := r.s
	w := r.w[wn.k]
	if len(msg) == 0 {
		return nil, false, errors.New("distributed: an empty command")
	}
	in := rbuf{b: msg[1:]}
	var out wbuf
	switch msg[0] {
	case opSeed:
		n := int(in.u32())
		for i := 0; i < n && in.err == nil; i++ {
			id := in.u32()
			f := fingerprint{lo: in.u64(), hi: in.u64()}
			enc := in.bytes()
			if in.err == nil && w.seen.insert(f) {
				w.next.pushBytes(id, enc)
			}
		}
	case opExpand:
		wn.depth = int(in.u32())
		wn.faults = 0
		cut, wantDeadlock := in.u8() == 1, in.u8() == 1
		s.props.done = in.u64()
		if in.err != nil {
			break
		}
		w.cur, w.next = w.next, w.cur
		w.next.reset()
		w.panicked = nil
		t0 := time.Now()
		func() {
			defer func() {
				if v := recover(); v != nil {
					if _, ok := v.(*workerPanic); !ok {
						v = &workerPanic{value: v, id: w.state, inv: w.x.inv}
					}
					w.panicked = v.(*workerPanic)
				}
			}()
			w.expandLevel(cut, wantDeadlock)
			if !cut && w.panicked == nil {
				w.sortCandidates()
			}
		}()
		out.u64(uint64(w.trans))
		out.u8(boolByte(w.hasDead))
		out.u32(w.deadlock)
		out.u32(uint32(len(w.cands)))
		out.str(r.limit.Load().(string))
		if p := w.panicked; p != nil {
			out.u8(1)
			out.u32(p.id)
			out.str(p.inv)
			out.str(fmt.Sprint(p.value))
		} else {
			out.u8(0)
		}
		out.u32(uint32(len(w.expanded)))
		out.u64(uint64(time.Since(t0)))
		out.u64(uint64(w.seen.bytes()))
	case opKeys:
		out.u32(uint32(len(w.cands)))
		for i := range w.cands {
			out.u64(w.cands[i].key)
			out.u32(w.cands[i].tix)
		}
	case opFinish:
		n := int(in.u32())
		if in.err == nil && n != len(w.cands) {
			return nil, false, fmt.Errorf("distributed: %d ids for %d new states", n, len(w.cands))
		}
		w.ids = w.ids[:0]
		for i := 0; i < n && in.err == nil; i++ {
			w.ids = append(w.ids, in.u32())
		}
		if in.err != nil {
			break
		}
		r.faultAt("barrier")
		w.apply()
		for _, f := range w.first {
			out.u8(boolByte(f.ok))
			out.u64(f.key)
			out.u32(f.id)
			out.u32(f.tix)
		}
		out.u32(uint32(w.next.n))
		out.u64(uint64(w.seen.bytes()))
		if err := w.next.err; err != nil {
			return nil, false, fmt.Errorf("disk: %v", err)
		}
	case opCkpt:
		// The level after the one expanded is the checkpoint's.
		wn.depth++
		dir := in.str()
		if in.err != nil {
			break
		}
		mf, err := w.writePart(dir)
		if err != nil {
			out.u8(0)
			out.str(err.Error())
			break
		}
		out.u8(1)
		out.str(mf.Name)
		out.u64(uint64(mf.Size))
		out.u32(mf.CRC)
	case opExpanded:
		r.faultAt("stop")
		out.u32(uint32(len(w.expanded)))
		for i, id := range w.expanded {
			out.u32(id)
			out.u32(w.succN[i])
		}
	case opPing:
	case opEnd:
		return nil, true, nil
	default:
		return nil, false, fmt.Errorf("distributed: unknown command %d", msg[0])
	}
	if in.err != nil {
		return nil, false, in.err
	}
	return out.b, false, nil
}
