package explore

import (
	"encoding/binary"
	"fmt"
	"os"
)

// linkStore holds every state's parent link, by id. Links are written once,
// in id order, and read back only to rebuild traces, so all but the first
// keep chunks go to a temporary file as soon as they fill: a search of a
// billion states keeps its 8 GB of links on disk, not in memory. A search
// that never outgrows keep chunks never touches the disk. If the file cannot
// be created or written, the links stay in memory.
type linkStore struct {
	chunk   int      // links per chunk
	keep    int      // chunks kept in memory; later ones are spilled
	chunks  [][]link // in memory; a spilled chunk is nil
	file    *os.File // spilled chunks, at (index-keep)*chunk*8
	spilled int      // chunks written to file (they are the chunks keep, keep+1, ...)
	disk    int64    // bytes written
	buf     []byte
	err     error // the first I/O error; spilling stops then
}

// linkChunk and linkKeep: chunks of 64Ki links (512 KiB), and the first 256
// of them (16.8M states, 128 MiB) kept in memory. Variables so that tests
// can make a small search spill.
var (
	linkChunk = 1 << 16
	linkKeep  = 256
)

func newLinkStore() *linkStore {
	return &linkStore{chunk: linkChunk, keep: linkKeep}
}

// add appends the link of state id, which must be the next id.
func (ls *linkStore) add(id uint32, l link) {
	c := int(id) / ls.chunk
	if c == len(ls.chunks) {
		ls.chunks = append(ls.chunks, make([]link, 0, ls.chunk))
	}
	ls.chunks[c] = append(ls.chunks[c], l)
	if len(ls.chunks[c]) == ls.chunk && c >= ls.keep && c == ls.keep+ls.spilled && ls.err == nil {
		ls.spill(c)
	}
}

// spill writes full chunk c to the file and drops it from memory.
func (ls *linkStore) spill(c int) {
	if ls.file == nil {
		f, err := scratchFile("mxcheck-links-*")
		if err != nil {
			ls.err = err
			return
		}
		ls.file = f
	}
	ls.buf = ls.buf[:0]
	for _, l := range ls.chunks[c] {
		ls.buf = binary.LittleEndian.AppendUint32(ls.buf, l.parent)
		ls.buf = binary.LittleEndian.AppendUint32(ls.buf, l.idx)
	}
	if _, err := ls.file.WriteAt(ls.buf, int64(c-ls.keep)*int64(ls.chunk)*8); err != nil {
		ls.err = err
		return
	}
	ls.disk += int64(len(ls.buf))
	ls.chunks[c] = nil
	ls.spilled++
}

// get returns the link of state id.
func (ls *linkStore) get(id uint32) link {
	c, i := int(id)/ls.chunk, int(id)%ls.chunk
	if ch := ls.chunks[c]; ch != nil {
		return ch[i]
	}
	var b [8]byte
	off := (int64(c-ls.keep)*int64(ls.chunk) + int64(i)) * 8
	if _, err := ls.file.ReadAt(b[:], off); err != nil {
		// Our own temporary file, written by this process: failing to
		// read it back is not something a search can recover from.
		panic(fmt.Sprintf("mxcheck: reading parent links back from %s: %v", ls.file.Name(), err))
	}
	return link{binary.LittleEndian.Uint32(b[:4]), binary.LittleEndian.Uint32(b[4:])}
}

// memory is the bytes the links hold in memory.
func (ls *linkStore) memory() int64 {
	var b int64
	for _, ch := range ls.chunks {
		b += int64(cap(ch)) * 8
	}
	return b
}

// scratchFile creates a temporary file and unlinks it at once: it goes away
// with the process, however that ends.
func scratchFile(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err == nil {
		os.Remove(f.Name())
	}
	return f, err
}

// close releases the file.
func (ls *linkStore) close() {
	if ls.file != nil {
		ls.file.Close()
		ls.file = nil
	}
}
