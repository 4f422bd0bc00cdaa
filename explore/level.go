package explore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mxcheck/mxcheck/model"
)

// defaultLevelInMemory is Options.LevelInMemory's default.
const defaultLevelInMemory = 1 << 22

// level is one BFS level of one partition: the states to expand, in id
// order. When the system can encode its states (model.Codec) the first max
// are held in memory as their encodings, back to back in large blocks (no
// Go object per state), and the rest are appended to a temporary file, each
// as its length, its id and its encoding; otherwise every state is held as
// a clone. States are decoded one at a time when the level is expanded, so
// a level of tens of millions of states costs disk, not memory. Order, and
// so every id, count and trace, is the same either way.
type level struct {
	codec model.Codec // nil: clones in memory
	max   int
	ids   []uint32      // ids of the states in memory
	marks []mark        // with a codec: where every unitStates-th encoding in memory starts
	sts   []model.State // clones, without a codec
	mem   blocks        // encodings, with a codec
	n     int           // states in the level, in memory and on disk
	file  *os.File
	w     *bufio.Writer
	off   int64 // bytes of the level on disk
	buf   []byte
	into  model.State // decoding target, reused
	err   error       // the first write error
	// noDisk: no temporary file could be created (the level then stays in
	// memory; spillErr says why and the result warns about it)
	noDisk   bool
	spillErr error
	disk     int64 // bytes that reached the file, over every use of the level
}

// countingWriter counts the bytes its writer accepted.
type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// push appends st (the caller's transient state: it is cloned or encoded
// here) with its id.
func (l *level) push(sys interface{ Clone(model.State) model.State }, st model.State, id uint32) {
	if l.codec == nil {
		l.n++
		l.ids = append(l.ids, id)
		l.sts = append(l.sts, sys.Clone(st))
		return
	}
	l.buf = l.codec.AppendState(l.buf[:0], st)
	l.pushBytes(id, l.buf)
}

// pushClone appends a clone the caller hands over (systems without a codec).
func (l *level) pushClone(st model.State, id uint32) {
	l.n++
	l.ids = append(l.ids, id)
	l.sts = append(l.sts, st)
}

// pushBytes appends an encoded state (systems with a codec).
func (l *level) pushBytes(id uint32, enc []byte) {
	l.n++
	if len(l.ids) >= l.max && !l.noDisk {
		if l.file == nil {
			f, err := scratchFile("mxcheck-level-*")
			if err != nil {
				l.noDisk, l.spillErr = true, err
			} else {
				l.file = f
				l.w = bufio.NewWriterSize(countingWriter{io.NewOffsetWriter(f, 0), &l.disk}, 1<<20)
			}
		}
		if l.file != nil {
			var head [8]byte
			binary.LittleEndian.PutUint32(head[:4], uint32(len(enc)))
			binary.LittleEndian.PutUint32(head[4:], id)
			if _, err := l.w.Write(head[:]); err != nil && l.err == nil {
				l.err = err
			}
			if _, err := l.w.Write(enc); err != nil && l.err == nil {
				l.err = err
			}
			l.off += 8 + int64(len(enc))
			return
		}
	}
	blk, off := l.mem.add(enc)
	if len(l.ids)%unitStates == 0 {
		l.marks = append(l.marks, mark{int32(blk), int32(off), int32(len(enc))})
	}
	l.ids = append(l.ids, id)
}

// unitStates is how many states of a level in memory make one unit of the
// work the workers of a shared BFS claim (bfsWorker.expandUnits).
const unitStates = 64

// mark is where an encoding in memory starts: its block, the offset of its
// bytes and their length.
type mark struct{ blk, off, n int32 }

// eachIn calls fn on the states in memory from index lo (a multiple of
// unitStates) up to hi, in order, until fn returns false, which eachIn
// then returns. An encoded state is decoded into *into, which is reused
// (each caller brings its own: several workers may read one level at
// once).
func (l *level) eachIn(lo, hi int, into *model.State, fn func(st model.State, id uint32) bool) (bool, error) {
	if lo >= hi {
		return true, nil
	}
	if l.codec == nil {
		for i := lo; i < hi; i++ {
			st := l.sts[i]
			l.sts[i] = nil
			if !fn(st, l.ids[i]) {
				return false, nil
			}
		}
		return true, nil
	}
	m := l.marks[lo/unitStates]
	blk, off, n := int(m.blk), int(m.off), int(m.n)
	for i := lo; ; {
		b := l.mem.bs[blk]
		st, err := l.codec.ReadState(b[off:off+n], *into)
		if err != nil {
			return false, fmt.Errorf("BFS level: a state does not decode: %w", err)
		}
		*into = st
		if !fn(st, l.ids[i]) {
			return false, nil
		}
		if i++; i == hi {
			return true, nil
		}
		// The next encoding: after this one, or at the start of the
		// next block (an encoding never straddles two).
		if off += n; off == len(b) {
			blk, off = blk+1, 0
			b = l.mem.bs[blk]
		}
		v, k := binary.Uvarint(b[off:])
		off, n = off+k, int(v)
	}
}

// each calls fn on every state of the level in order, until fn returns
// false. The state given for an encoded entry is reused for the next one.
func (l *level) each(fn func(st model.State, id uint32) bool) error {
	if l.codec == nil {
		_, err := l.eachIn(0, len(l.sts), nil, fn)
		return err
	}
	err := l.eachEncoded(func(id uint32, enc []byte) error {
		st, err := l.codec.ReadState(enc, l.into)
		if err != nil {
			return fmt.Errorf("BFS level: a state does not decode: %w", err)
		}
		l.into = st
		if !fn(st, id) {
			return errStopEach
		}
		return nil
	})
	if err == errStopEach {
		return nil
	}
	return err
}

// errStopEach is each's way out of eachEncoded when fn returns false.
var errStopEach = errors.New("stop")

func resizeBytes(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}

// reset empties the level, keeping its storage (and its file) for reuse.
func (l *level) reset() {
	clear(l.sts)
	l.sts, l.ids, l.marks = l.sts[:0], l.ids[:0], l.marks[:0]
	l.mem.reset()
	l.n, l.off = 0, 0
	if l.w != nil {
		l.w.Reset(countingWriter{io.NewOffsetWriter(l.file, 0), &l.disk})
	}
}

// handBlocks gives l's blocks of encodings to to, an empty level, once
// l's states are expanded (l keeps its count, for progress): a worker's
// two levels then share one set of blocks, the level being expanded's and
// then the next one's, rather than each holding its own as large as the
// largest level (RA N=4: peak RSS 24 MiB lower, and that much less fresh
// memory to map at a level's end).
func (l *level) handBlocks(to *level) {
	for _, b := range l.mem.bs {
		to.mem.bs = append(to.mem.bs, b[:0])
	}
	l.mem = blocks{}
	l.marks = l.marks[:0]
}

// close releases the file.
func (l *level) close() {
	if l.file != nil {
		l.file.Close()
		l.file, l.w = nil, nil
	}
}

// blocks holds byte strings back to back in 1 MiB blocks, each string
// preceded by its length as a uvarint; a string never straddles two
// blocks.
type blocks struct {
	bs   [][]byte
	used int // blocks in use (the rest are kept for reuse)
}

const blockSize = 1 << 20

// add appends b and returns where it starts: block index and offset of its
// bytes.
func (k *blocks) add(b []byte) (int, int) {
	need := binary.MaxVarintLen32 + len(b)
	if k.used == 0 || len(k.bs[k.used-1])+need > cap(k.bs[k.used-1]) {
		if k.used == len(k.bs) {
			k.bs = append(k.bs, make([]byte, 0, max(blockSize, need)))
		} else if cap(k.bs[k.used]) < need {
			k.bs[k.used] = make([]byte, 0, need)
		}
		k.used++
	}
	blk := &k.bs[k.used-1]
	*blk = binary.AppendUvarint(*blk, uint64(len(b)))
	off := len(*blk)
	*blk = append(*blk, b...)
	return k.used - 1, off
}

// at returns the string of length n at block i, offset off.
func (k *blocks) at(i, off, n int) []byte { return k.bs[i][off : off+n] }

// each calls fn on every string in order until fn returns false.
func (k *blocks) each(fn func(b []byte) bool) {
	for _, blk := range k.bs[:k.used] {
		for len(blk) > 0 {
			n, w := binary.Uvarint(blk)
			if !fn(blk[w : w+int(n)]) {
				return
			}
			blk = blk[w+int(n):]
		}
	}
}

// reset empties k, keeping its blocks.
func (k *blocks) reset() {
	for i := range k.bs[:k.used] {
		k.bs[i] = k.bs[i][:0]
	}
	k.used = 0
}

// bytes is the memory k holds.
func (k *blocks) bytes() int64 {
	var n int64
	for _, b := range k.bs {
		n += int64(cap(b))
	}
	return n
}
