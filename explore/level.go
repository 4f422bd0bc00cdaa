package explore

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/mxcheck/mxcheck/model"
)

// defaultLevelInMemory is Options.LevelInMemory's default.
const defaultLevelInMemory = 1 << 22

// level is one BFS level: the states to expand, in discovery order. The
// first max are held in memory as clones; the rest (when the system can
// encode its states) are appended to a temporary file, each as its length,
// its id and its encoding, and decoded one at a time when the level is
// expanded, so a level of tens of millions of states costs disk, not
// memory. Order, and so every id, count and trace, is the same either way.
type level struct {
	codec  model.Codec // nil: everything stays in memory
	max    int
	mem    []entry
	n      int // states in the level, in memory and on disk
	file   *os.File
	w      *bufio.Writer
	off    int64 // bytes of the level on disk
	buf    []byte
	into   model.State // decoding target, reused
	err    error       // the first write error
	noDisk bool        // no temporary file could be created
	// spillErr says why not (the level then stays in memory; the result
	// warns about it)
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

// push appends st (the search's transient state: it is cloned or encoded
// here) with its id.
func (l *level) push(sys model.System, st model.State, id uint32) {
	l.n++
	if l.codec != nil && len(l.mem) >= l.max && l.file == nil && !l.noDisk {
		f, err := scratchFile("mxcheck-level-*")
		if err != nil {
			l.noDisk, l.spillErr = true, err // keep the level in memory
		} else {
			l.file = f
			l.w = bufio.NewWriterSize(countingWriter{io.NewOffsetWriter(f, 0), &l.disk}, 1<<20)
		}
	}
	if l.file == nil || len(l.mem) < l.max {
		l.mem = append(l.mem, entry{st: sys.Clone(st), id: id})
		return
	}
	l.buf = binary.LittleEndian.AppendUint32(l.buf[:0], 0)
	l.buf = binary.LittleEndian.AppendUint32(l.buf, id)
	l.buf = l.codec.AppendState(l.buf, st)
	binary.LittleEndian.PutUint32(l.buf, uint32(len(l.buf)-8))
	if _, err := l.w.Write(l.buf); err != nil && l.err == nil {
		l.err = err
	}
	l.off += int64(len(l.buf))
}

// each calls fn on every state of the level in order, until fn returns
// false, dropping each state from memory once it is expanded. The state
// given for a spilled entry is reused for the next one.
func (l *level) each(fn func(st model.State, id uint32) bool) error {
	for i := range l.mem {
		e := l.mem[i]
		l.mem[i] = entry{}
		if !fn(e.st, e.id) {
			return nil
		}
	}
	if l.w == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
	if l.err != nil {
		return fmt.Errorf("BFS level on disk: %w", l.err)
	}
	r := bufio.NewReaderSize(io.NewSectionReader(l.file, 0, l.off), 1<<20)
	var head [8]byte
	for read := int64(0); read < l.off; {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return fmt.Errorf("BFS level on disk: %w", err)
		}
		size, id := binary.LittleEndian.Uint32(head[:4]), binary.LittleEndian.Uint32(head[4:])
		l.buf = resizeBytes(l.buf, int(size))
		if _, err := io.ReadFull(r, l.buf); err != nil {
			return fmt.Errorf("BFS level on disk: %w", err)
		}
		read += 8 + int64(size)
		st, err := l.codec.ReadState(l.buf, l.into)
		if err != nil {
			return fmt.Errorf("BFS level on disk: %w", err)
		}
		l.into = st
		if !fn(st, id) {
			return nil
		}
	}
	return nil
}

func resizeBytes(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}

// reset empties the level, keeping its storage (and its file) for reuse.
func (l *level) reset() {
	clear(l.mem)
	l.mem = l.mem[:0]
	l.n, l.off = 0, 0
	if l.w != nil {
		l.w.Reset(countingWriter{io.NewOffsetWriter(l.file, 0), &l.disk})
	}
}

// close releases the file.
func (l *level) close() {
	if l.file != nil {
		l.file.Close()
		l.file, l.w = nil, nil
	}
}
