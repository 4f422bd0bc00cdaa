package explore

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// workerNet is a worker process's side of a distributed BFS.
type workerNet struct {
	r      *bfsRun
	nc     *nats.Conn
	run    string
	k      int
	sent   []uint32 // batches sent to each worker since the start
	got    []uint32 // batches received from each worker since the start (the subscription's goroutine)
	broken atomic.Bool
	// aborted is closed when the run cannot go on; why says why.
	aborted   chan struct{}
	abortOnce sync.Once
	why       atomic.Value
}

// sendBatch sends b to worker o and recycles it.
func (wn *workerNet) sendBatch(o int, b *batch) {
	p := encodeBatch(wn.k, wn.sent[o], b)
	wn.sent[o]++
	if err := wn.nc.Publish(batchSubject(wn.run, o), p); err != nil {
		wn.fail("distributed: cannot send a batch: " + err.Error())
	}
	b.reset()
	wn.r.pool.Put(b)
}

// onBatch receives a batch from another worker.
func (wn *workerNet) onBatch(m *nats.Msg) {
	r := wn.r
	b := r.pool.Get().(*batch)
	from, sent, err := decodeBatch(m.Data, b)
	switch {
	case err != nil:
		wn.fail(err.Error())
	case from < 0 || from >= len(wn.got) || from == wn.k:
		wn.fail(fmt.Sprintf("distributed: a batch from unknown worker %d", from))
	case b.last && wn.got[from] != sent:
		wn.fail(fmt.Sprintf("distributed: lost %d batches from worker %d", int(sent)-int(wn.got[from]), from))
	}
	if err != nil || from < 0 || from >= len(wn.got) || from == wn.k {
		b.reset()
		r.pool.Put(b)
		return
	}
	wn.got[from]++
	r.w[wn.k].in.put(b)
}

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
func (wn *workerNet) abort(why string) {
	wn.abortOnce.Do(func() {
		wn.why.Store(why)
		wn.fail("distributed: " + why)
		close(wn.aborted)
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
	s := c.newSearch()
	r := &bfsRun{s: s, c: c, sym: c.sym != nil}
	r.limit.Store("")
	r.pool.New = func() any { return new(batch) }
	wn := &workerNet{r: r, nc: nc, run: run, k: k, sent: make([]uint32, n), got: make([]uint32, n), aborted: make(chan struct{})}
	r.net = wn
	inMem := c.levelInMemory()
	for i := 0; i < n; i++ {
		if i == k {
			r.w = append(r.w, r.newWorker(i, 1, inMem))
		} else {
			r.w = append(r.w, &bfsWorker{r: r, id: i}) // remote
		}
	}
	w := r.w[k]
	w.out = make([]*batch, n)
	w.indexed = n > 1
	s.x = w.x
	defer func() {
		w.cur.close()
		w.next.close()
	}()

	type command struct {
		seq uint32
		msg []byte
	}
	cmds := make(chan command, 64)
	var asm assembler
	lastCoord := atomic.Int64{}
	lastCoord.Store(time.Now().UnixNano())
	var subs []*nats.Subscription
	defer func() {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
	}()
	sub, err := nc.Subscribe(cmdSubject(run, k), func(m *nats.Msg) {
		seq, msg, done, err := asm.add(0, m.Data)
		switch {
		case err != nil:
			wn.fail(err.Error())
		case !done:
		case len(msg) > 0 && msg[0] == opHalt:
			wn.halt(string(msg[1:]))
		case len(msg) > 0 && msg[0] == opAbort:
			wn.abort("the coordinator stopped the run: " + string(msg[1:]))
		default:
			cmds <- command{seq, msg}
		}
	})
	if err != nil {
		return err
	}
	subs = append(subs, sub)
	if sub, err = nc.Subscribe(batchSubject(run, k), wn.onBatch); err != nil {
		return err
	}
	// No message may be dropped for a slow consumer: a batch lost would be
	// caught at the level's end, but costs the run.
	_ = sub.SetPendingLimits(-1, -1)
	subs = append(subs, sub)
	if sub, err = nc.Subscribe(coordBeatSubject(run), func(*nats.Msg) { lastCoord.Store(time.Now().UnixNano()) }); err != nil {
		return err
	}
	subs = append(subs, sub)
	if err := nc.Flush(); err != nil {
		return err
	}
	stopBeat := make(chan struct{})
	defer close(stopBeat)
	go func() {
		// The heartbeat, and the watch on the coordinator and the
		// connection: a worker blocked in a level is woken when either is
		// lost.
		t := time.NewTicker(heartbeatEvery * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopBeat:
				return
			case <-t.C:
				_ = nc.Publish(hbSubject(run, k), nil)
				switch {
				case nc.IsClosed():
					wn.abort("lost the NATS connection")
				case time.Since(time.Unix(0, lastCoord.Load())) > silentAfter*time.Second:
					wn.abort("the coordinator stopped responding")
				}
			}
		}
	}()
	reply := func(seq uint32, body []byte) error {
		return publishParts(nc, repSubject(run, k), seq, append([]byte{0}, body...))
	}
	for {
		var cmd command
		select {
		case cmd = <-cmds:
		case <-wn.aborted:
			return errors.New(wn.why.Load().(string))
		}
		lastCoord.Store(time.Now().UnixNano())
		body, end, err := wn.serve(cmd.msg)
		if err != nil {
			_ = publishParts(nc, repSubject(run, k), cmd.seq, append([]byte{1}, err.Error()...))
			return err
		}
		if err := reply(cmd.seq, body); err != nil {
			return err
		}
		if end {
			return nc.Flush()
		}
	}
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
		_ = in.u32() // depth
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
		if w.hasDead {
			out.u8(1)
		} else {
			out.u8(0)
		}
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
		w.apply()
		for _, f := range w.first {
			if f.ok {
				out.u8(1)
			} else {
				out.u8(0)
			}
			out.u64(f.key)
			out.u32(f.id)
			out.u32(f.tix)
		}
		out.u32(uint32(w.next.n))
		out.u64(uint64(w.seen.bytes()))
		if err := w.next.err; err != nil {
			return nil, false, fmt.Errorf("disk: %v", err)
		}
	case opExpanded:
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
