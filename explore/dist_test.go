package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/mxcheck/mxcheck/model"
)

// toyBytes encodes a toy's state (an int), so that a toy can run
// distributed.
type toyBytes struct{}

func (toyBytes) Encodable() bool { return true }
func (toyBytes) AppendState(dst []byte, s model.State) []byte {
	return binary.AppendVarint(dst, int64(s.(int)))
}
func (toyBytes) ReadState(src []byte, _ model.State) (model.State, error) {
	v, n := binary.Varint(src)
	if n <= 0 || n != len(src) {
		return nil, errors.New("toy: bad encoding")
	}
	return int(v), nil
}

type (
	bytesToy struct {
		*toy
		toyBytes
	}
	bytesDesc struct {
		toyDesc
		toyBytes
	}
	bytesWorker struct {
		toyWorker
		toyBytes
	}
)

// startNATS starts a NATS server on a free loopback port for the test.
func startNATS(t testing.TB) (*server.Server, string) {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("NATS server not ready")
	}
	t.Cleanup(ns.Shutdown)
	return ns, ns.ClientURL()
}

var runSeq atomic.Int64

// modBytes is modToy over 5000 with an encoding, bad at 4999.
func modBytes() bytesDesc {
	m := modToy([]int{0, 3}, 5000)
	m.bad = map[string]func(int) bool{"a": func(s int) bool { return s == 4999 }}
	return bytesDesc{toyDesc{m}, toyBytes{}}
}

// distCompress makes runDistributed's batches compressed.
var distCompress bool

// A batch survives its encoding, compressed or not; a truncated compressed
// batch is an error, not a panic.
func TestBatchCodec(t *testing.T) {
	b := &batch{last: true}
	for i := 0; i < 50; i++ {
		b.fps = append(b.fps, fingerprint{lo: uint64(i*7 + 1), hi: uint64(i)})
		b.keys = append(b.keys, uint64(i)<<32|3)
		b.tixs = append(b.tixs, uint32(i))
		b.data = append(b.data, "state-encoding"[:i%14]...)
		b.ends = append(b.ends, len(b.data))
	}
	for _, compress := range []bool{false, true} {
		p := encodeBatch(2, 9, 41, b, compress)
		got := &batch{}
		from, epoch, sent, err := decodeBatch(p, got)
		if err != nil || from != 2 || epoch != 9 || sent != 41 || batchEpoch(p) != 9 || !got.last ||
			fmt.Sprint(got.fps, got.keys, got.tixs, got.ends, string(got.data)) != fmt.Sprint(b.fps, b.keys, b.tixs, b.ends, string(b.data)) {
			t.Errorf("compress %v: decoded %v %d %d %d %+v", compress, err, from, epoch, sent, got)
		}
		if compress {
			if raw := encodeBatch(2, 9, 41, b, false); len(p) >= len(raw) {
				t.Errorf("compressed %d bytes, raw %d", len(p), len(raw))
			}
			if _, _, _, err := decodeBatch(p[:len(p)-3], &batch{}); err == nil {
				t.Errorf("a truncated compressed batch decodes")
			}
		}
	}
}

// runDistributed runs sys over n workers (goroutines, each with its own
// connection and Checker) and a coordinator, through the NATS server at url.
func runDistributed(t testing.TB, url string, sys model.System, opt Options, n int) *Result {
	t.Helper()
	res, errs := runDistributedErr(t, url, sys, opt, n)
	for _, err := range errs {
		t.Errorf("worker: %v", err)
	}
	return res
}

// runDistributedErr is runDistributed; it returns the workers' errors.
func runDistributedErr(t testing.TB, url string, sys model.System, opt Options, n int) (*Result, []error) {
	t.Helper()
	name := fmt.Sprintf("t%d", runSeq.Add(1))
	errs := make(chan error, n)
	for k := 0; k < n; k++ {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		wo := opt
		wo.Checkpoint, wo.Resume = "", "" // the coordinator's
		c, err := New(sys, wo)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer nc.Close()
			errs <- ServeWorker(c, nc, name, k, n)
		}()
	}
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	o := opt
	o.Cluster = &Cluster{Conn: nc, Run: name, Workers: n, Compress: distCompress}
	res := run(sys, o)
	var werrs []error
	for k := 0; k < n; k++ {
		select {
		case err := <-errs:
			if err != nil {
				werrs = append(werrs, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a worker did not end")
		}
	}
	return res, werrs
}

// The distributed BFS gives the in-process BFS's counts, verdicts and
// traces, stopping at the same point (first violation, max-states, depth
// cut, deadlock).
func TestDistributedIdentical(t *testing.T) {
	_, url := startNATS(t)
	defer func(n int) { batchStates = n }(batchStates)
	batchStates = 7 // many batches a level
	chain, stuck := chainToy(), stuckToy()
	mod := modToy([]int{0, 3}, 5000)
	mod.bad = map[string]func(int) bool{"a": func(s int) bool { return s == 4999 }, "b": func(s int) bool { return s == 2500 }}
	for name, tc := range map[string]struct {
		sys model.System
		opt Options
	}{
		"shortest":   {bytesDesc{toyDesc{chain}, toyBytes{}}, Options{}},
		"continue":   {bytesDesc{toyDesc{mod}, toyBytes{}}, Options{Continue: true}},
		"first":      {bytesDesc{toyDesc{mod}, toyBytes{}}, Options{}},
		"max-states": {bytesToy{mod, toyBytes{}}, Options{MaxStates: 1333}},
		"max-depth":  {bytesToy{mod, toyBytes{}}, Options{MaxDepth: 3}},
		"deadlock":   {bytesWorker{stuck, toyBytes{}}, Options{}},
		"verified":   {bytesToy{&toy{init: []int{0}, next: mod.next}, toyBytes{}}, Options{}},
	} {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{1, 3} {
				o := tc.opt
				o.Workers = n
				in := run(tc.sys, o)
				for _, compress := range []bool{false, true} {
					distCompress = compress
					dist := runDistributed(t, url, tc.sys, tc.opt, n)
					if !sameResult(in, dist) {
						t.Errorf("%d workers, compress %v: distributed differs:\nin   %+v %+v %q\ndist %+v %+v %q", n, compress, in.Stats, in.Properties, in.Limit, dist.Stats, dist.Properties, dist.Limit)
					}
				}
				distCompress = false
			}
		})
	}
}

// A batch lost on the way is found at the level's end (the last batch
// says how many came before it): the level runs again, from the last
// checkpoint or the start, and the result is the in-process one. A network
// that keeps losing batches stops the search as incomplete.
func TestDistributedLostBatch(t *testing.T) {
	_, url := startNATS(t)
	defer func(n int) { batchStates = n }(batchStates)
	batchStates = 7
	defer func() { dropBatch = nil }()
	mod := modBytes()
	in := run(mod, Options{Workers: 3, Continue: true})
	for _, ckpt := range []bool{false, true} {
		var once atomic.Bool
		dropBatch = func(from, to, depth int) bool {
			return from == 1 && to == 2 && depth == 4 && once.CompareAndSwap(false, true)
		}
		opt := Options{Continue: true}
		if ckpt {
			opt.Checkpoint = t.TempDir()
		}
		dist := runDistributed(t, url, mod, opt, 3)
		if !sameResult(in, dist) {
			t.Errorf("checkpoints %v: after a lost batch:\nin   %+v %+v\ndist %+v %+v %q", ckpt, in.Stats, in.Properties, dist.Stats, dist.Properties, dist.Limit)
		}
		if !once.Load() || len(dist.Warnings) == 0 || !strings.Contains(dist.Warnings[0], "lost 1 batches from worker 1") || !strings.Contains(dist.Warnings[0], "the level runs again") {
			t.Errorf("checkpoints %v: the lost batch is not reported: %q", ckpt, dist.Warnings)
		}
	}
	dropBatch = func(from, to, depth int) bool { return from == 1 && depth == 4 }
	dist, werrs := runDistributedErr(t, url, mod, Options{Continue: true}, 3)
	if len(werrs) != 3 {
		t.Errorf("%d workers of 3 said the run was stopped", len(werrs))
	}
	if dist.Verdict != Incomplete || !strings.Contains(dist.Limit, "lost") || !strings.Contains(dist.Limit, "4 times in a row") {
		t.Errorf("a network that loses every batch: verdict %s, limit %q", dist.Verdict, dist.Limit)
	}
}

// A distributed run's checkpoint resumes in process, and an in-process
// run's resumes distributed, to the uninterrupted run's result.
func TestDistributedCheckpointBothWays(t *testing.T) {
	_, url := startNATS(t)
	defer func(n int) { batchStates = n }(batchStates)
	batchStates = 7
	mod := modBytes()
	full := run(mod, Options{Workers: 2, Continue: true})
	for _, distFirst := range []bool{true, false} {
		dir := t.TempDir()
		part := Options{Workers: 2, Continue: true, Checkpoint: dir, MaxStates: 2000}
		var first *Result
		if distFirst {
			first = runDistributed(t, url, mod, part, 2)
		} else {
			first = run(mod, part)
		}
		if first.Verdict != Incomplete || first.Checkpoint == nil || first.Checkpoint.Written == 0 {
			t.Fatalf("distributed first %v: the first run: %s, %+v", distFirst, first.Verdict, first.Checkpoint)
		}
		rest := Options{Workers: 3, Continue: true, Resume: dir}
		var second *Result
		if distFirst {
			second = run(mod, rest)
		} else {
			second = runDistributed(t, url, mod, rest, 3)
		}
		if !sameResult(full, second) || second.Checkpoint == nil || second.Checkpoint.ResumedFrom == 0 {
			t.Errorf("distributed first %v: resumed %+v %+v %+v, uninterrupted %+v %+v", distFirst, second.Stats, second.Properties, second.Checkpoint, full.Stats, full.Properties)
		}
	}
}

// The NATS server going away mid-run stops the search as incomplete,
// naming the connection; the workers leave with an error.
func TestDistributedServerLost(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the workers' watchdog")
	}
	ns, url := startNATS(t)
	const n = 2
	big := bytesToy{&toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 3000000}, {to: 7 * s % 3000000}, {to: (s + 13) % 3000000}}
	}}, toyBytes{}}
	errs := make(chan error, n)
	for k := 0; k < n; k++ {
		nc, err := nats.Connect(url)
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(big, Options{})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer nc.Close()
			errs <- ServeWorker(c, nc, "lost", k, n)
		}()
	}
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	time.AfterFunc(300*time.Millisecond, ns.Shutdown)
	res := run(big, Options{Cluster: &Cluster{Conn: nc, Run: "lost", Workers: n}})
	if res.Verdict != Incomplete || !strings.Contains(res.Limit, "NATS") {
		t.Fatalf("verdict %s, limit %q after the server went away", res.Verdict, res.Limit)
	}
	for k := 0; k < n; k++ {
		select {
		case err := <-errs:
			if err == nil {
				t.Errorf("a worker ended without an error")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a worker did not leave")
		}
	}
}
