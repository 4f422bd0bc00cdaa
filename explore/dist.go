package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/nats-io/nats.go"
)

// The distributed BFS (docs/distributed.md): the owner-computes BFS of
// bfs.go with its partitions in worker processes, reached over NATS. Each
// worker process owns one partition: its seen-set, its frontier and its
// level's new states; successors travel between workers in the same
// batches as in process, on subject RUN.bat.K. The coordinator holds no
// state of the search's space but every parent link: it drives each level
// with commands (RUN.cmd.K, replies on RUN.rep.K), ranks the level's new
// states by merging the workers' sorted keys (a key is the link), and runs
// bfs.go's account on what the workers report. Ids, counts, verdicts and
// traces are therefore those of the in-process BFS with as many workers.
//
// A state's owner is found through VirtualPartitions virtual partitions:
// its fingerprint picks a virtual partition, and the coordinator's map
// gives each to a worker. When a worker is lost (silent for
// Cluster.Timeout), the coordinator gives its virtual partitions to the
// survivors, bumps the epoch (batches of an older epoch are dropped), and
// every survivor reloads its partitions from the last checkpoint (or the
// initial states, when none was written): the level runs again, and the
// result is the same. A lost batch re-runs the level the same way. Only a
// lost connection, or every worker lost, stops the search as incomplete,
// never with a verdict.

// Cluster connects a distributed search's coordinator to its workers
// (Options.Cluster). The workers have joined already (cmd/mxcheck does
// the joining) and serve run with ServeWorker.
type Cluster struct {
	Conn    *nats.Conn
	Run     string // the subjects' prefix, unique to the run
	Workers int    // worker processes, indexes 0..Workers-1
	// Timeout is how long a silent worker is waited for before its
	// partitions move to the others (0: DefaultWorkerTimeout).
	Timeout time.Duration
	// Compress compresses the batches of successors between workers (S2):
	// for workers on other machines, where the network is the bottleneck.
	Compress bool
}

// DefaultWorkerTimeout is how long a silent worker is waited for by default.
const DefaultWorkerTimeout = 5 * time.Second

// VirtualPartitions is the number of virtual partitions of a distributed
// search: the unit a lost worker's states are handed over in.
const VirtualPartitions = 1024

// DistFault, when set (fault-injection tests only), is called by a worker
// process at points where a crash is worth testing: "mid-level" (its first
// batch of a level sent), "barrier" (the level's ids received, not yet
// applied), "checkpoint" (half of its checkpoint file written) and "stop"
// (asked for its transitions where the search stops in mid-level). member
// is the worker's index, level the level being expanded or checkpointed.
var DistFault func(point string, member, level int)

// Commands of the coordinator, the first byte of a command.
const (
	opSeed     = 1  // initial states for the worker's partition
	opExpand   = 2  // expand a level
	opKeys     = 3  // the level's new states' keys, sorted
	opFinish   = 4  // their ids: settle them, next level
	opExpanded = 5  // the ids expanded this level and their transitions
	opHalt     = 6  // a limit was reached: wind up the level (no reply)
	opEnd      = 7  // the search is over
	opPing     = 8  // are you there (sequence 0, until every worker answers)
	opAbort    = 9  // the run cannot go on (a worker or the network was lost): stop now (no reply)
	opEpoch    = 10 // start an epoch: the members alive, the partition map, the checkpoint to load
	opReset    = 11 // a worker was lost: drop the level under way (no reply)
	opCkpt     = 12 // write your partition's checkpoint file into a directory
)

// heartbeatEvery is how often a worker and the coordinator say they are
// alive.
const heartbeatEvery = 250 * time.Millisecond

// wbuf builds a message.
type wbuf struct{ b []byte }

func (w *wbuf) u8(v uint8)   { w.b = append(w.b, v) }
func (w *wbuf) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *wbuf) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *wbuf) bytes(p []byte) {
	w.u32(uint32(len(p)))
	w.b = append(w.b, p...)
}
func (w *wbuf) str(s string) { w.bytes([]byte(s)) }

// rbuf reads a message; a short message sets err and reads zeros.
type rbuf struct {
	b   []byte
	err error
}

func (r *rbuf) take(n int) []byte {
	if r.err != nil || n < 0 || len(r.b) < n {
		r.err = errors.New("distributed: a message is truncated")
		return make([]byte, 8) // zeros for u8..u64; no allocation of a corrupt length
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}
func (r *rbuf) u8() uint8   { return r.take(1)[0] }
func (r *rbuf) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *rbuf) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *rbuf) bytes() []byte {
	n := int(r.u32())
	if r.err == nil && n > len(r.b) {
		r.err = errors.New("distributed: a message is truncated")
	}
	return r.take(n)
}
func (r *rbuf) str() string { return string(r.bytes()) }

// A message larger than a NATS payload goes in parts: each part is
// (sequence, last flag, data); parts of one message arrive in order (one
// publisher, one subject).

// maxPart is the largest part sent: well under NATS's max payload.
func maxPart(nc *nats.Conn) int {
	return int(min(nc.MaxPayload()/2, 512<<10))
}

// publishParts sends msg on subj as parts of sequence seq.
func publishParts(nc *nats.Conn, subj string, seq uint32, msg []byte) error {
	max := maxPart(nc)
	for {
		n := min(len(msg), max)
		last := n == len(msg)
		p := make([]byte, 0, n+5)
		p = binary.LittleEndian.AppendUint32(p, seq)
		if last {
			p = append(p, 1)
		} else {
			p = append(p, 0)
		}
		p = append(p, msg[:n]...)
		if err := nc.Publish(subj, p); err != nil {
			return err
		}
		if msg = msg[n:]; last {
			return nil
		}
	}
}

// assembler joins the parts of messages from several senders.
type assembler struct {
	mu   sync.Mutex
	part map[int][]byte // by sender
}

// add adds a part from sender k; it returns the whole message when this
// part was its last.
func (a *assembler) add(k int, p []byte) (seq uint32, msg []byte, done bool, err error) {
	if len(p) < 5 {
		return 0, nil, false, fmt.Errorf("distributed: a part of %d bytes", len(p))
	}
	seq = binary.LittleEndian.Uint32(p)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.part == nil {
		a.part = map[int][]byte{}
	}
	buf := append(a.part[k], p[5:]...)
	if p[4] == 0 {
		a.part[k] = buf
		return seq, nil, false, nil
	}
	delete(a.part, k)
	return seq, buf, true, nil
}

// encodeBatch writes a batch for the network: a header (sender, epoch,
// whether the body is compressed), then the body: last flag, the number of
// batches sent to the destination before this one (the receiver's check
// that none was lost), then each successor. With compress the body is S2
// compressed (klauspost/compress, the codec NATS uses between servers):
// about 5 times smaller on lme and RA, at over 1 GB/s a core.
func encodeBatch(from int, epoch, sent uint32, b *batch, compress bool) []byte {
	w := wbuf{b: make([]byte, 0, 24+len(b.data)+len(b.fps)*32)}
	w.u32(uint32(from))
	w.u32(epoch)
	w.u8(boolByte(compress))
	head := len(w.b)
	w.u8(boolByte(b.last))
	w.u32(sent)
	w.u32(uint32(len(b.fps)))
	start := 0
	for i, f := range b.fps {
		w.u64(f.lo)
		w.u64(f.hi)
		w.u64(b.keys[i])
		w.u32(b.tixs[i])
		w.bytes(b.data[start:b.ends[i]])
		start = b.ends[i]
	}
	if !compress {
		return w.b
	}
	body := w.b[head:]
	out := make([]byte, head+s2.MaxEncodedLen(len(body)))
	copy(out, w.b[:head])
	return out[:head+len(s2.Encode(out[head:], body))]
}

// decodeBatch reads what encodeBatch wrote into b.
func decodeBatch(p []byte, b *batch) (from int, epoch, sent uint32, err error) {
	r := rbuf{b: p}
	from = int(r.u32())
	epoch = r.u32()
	if r.u8() == 1 && r.err == nil {
		if r.b, err = s2.Decode(nil, r.b); err != nil {
			return from, epoch, 0, fmt.Errorf("distributed: a batch does not decompress: %v", err)
		}
	}
	b.last = r.u8() == 1
	sent = r.u32()
	n := int(r.u32())
	for i := 0; i < n && r.err == nil; i++ {
		b.fps = append(b.fps, fingerprint{lo: r.u64(), hi: r.u64()})
		b.keys = append(b.keys, r.u64())
		b.tixs = append(b.tixs, r.u32())
		b.data = append(b.data, r.bytes()...)
		b.ends = append(b.ends, len(b.data))
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("distributed: a batch has bytes left over")
	}
	return from, epoch, sent, r.err
}

// batchEpoch is the epoch of an encoded batch (0 when it is too short).
func batchEpoch(p []byte) uint32 {
	if len(p) < 8 {
		return 0
	}
	return binary.LittleEndian.Uint32(p[4:])
}

// partitionMap gives the virtual partitions round robin to the members
// alive.
func partitionMap(alive []bool) []int32 {
	var live []int32
	for k, a := range alive {
		if a {
			live = append(live, int32(k))
		}
	}
	m := make([]int32, VirtualPartitions)
	for vp := range m {
		m[vp] = live[vp%len(live)]
	}
	return m
}

// handOver gives the virtual partitions of member k to the members alive,
// round robin, and leaves the others where they are.
func handOver(m []int32, k int, alive []bool) {
	var live []int32
	for j, a := range alive {
		if a {
			live = append(live, int32(j))
		}
	}
	i := 0
	for vp, o := range m {
		if int(o) == k {
			m[vp] = live[i%len(live)]
			i++
		}
	}
}

// subject names.
func cmdSubject(run string, k int) string   { return fmt.Sprintf("%s.cmd.%d", run, k) }
func repSubject(run string, k int) string   { return fmt.Sprintf("%s.rep.%d", run, k) }
func batchSubject(run string, k int) string { return fmt.Sprintf("%s.bat.%d", run, k) }
func hbSubject(run string, k int) string    { return fmt.Sprintf("%s.hb.%d", run, k) }
func coordBeatSubject(run string) string    { return run + ".chb" }
