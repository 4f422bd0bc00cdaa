package explore

import (
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// linkStore holds every state's parent link, by id, in 5 bytes: the
// parent's id and the low byte of the ordinal (an ordinal of 255 or more is
// kept in a small side table). Links are written once — in id order by the
// DFS, level by level at disjoint ids by the BFS's owners, in any order by
// the parallel DFS's workers — and read back only to rebuild traces, so
// every chunk after the first keep goes to a temporary file as soon as its
// last link is written: a search of a billion states keeps its 5 GB of
// links on disk, not in memory. A search that never outgrows keep chunks
// never touches the disk. If the file cannot be created or written, the
// links stay in memory. Writers of different ids may run concurrently.
type linkStore struct {
	chunk int // links per chunk
	keep  int // chunks kept in memory; later ones are spilled
	table atomic.Pointer[[]atomic.Pointer[linkChunkData]]

	mu      sync.Mutex // guards what follows and the table's growth
	file    *os.File   // spilled chunks, at (index-keep)*chunk*5
	spilled int        // chunks written to file
	disk    int64      // bytes written
	buf     []byte
	err     error             // the first I/O error; spilling stops then
	wide    map[uint32]uint32 // ordinals ≥ 255, by id
	memory_ int64             // bytes of the chunks in memory
}

// linkChunkData is one chunk of links.
type linkChunkData struct {
	parent []uint32
	ord    []uint8
	filled atomic.Int32 // links written
}

// linkChunk and linkKeep: chunks of 64Ki links (320 KiB), and the first 256
// of them (16.8M states, 80 MiB) kept in memory. Variables so that tests
// can make a small search spill.
var (
	linkChunk = 1 << 16
	linkKeep  = 256
)

const linkBytes = 5

// spilledChunk stands for every chunk that went to the file.
var spilledChunk = &linkChunkData{}

func newLinkStore() *linkStore {
	ls := &linkStore{chunk: linkChunk, keep: linkKeep, wide: map[uint32]uint32{}}
	t := make([]atomic.Pointer[linkChunkData], 16)
	ls.table.Store(&t)
	return ls
}

// chunkFor returns chunk c, allocating it (and growing the table) when
// absent; a spilled chunk is the shared empty spilledChunk.
func (ls *linkStore) chunkFor(c int) *linkChunkData {
	if t := *ls.table.Load(); c < len(t) {
		if ch := t[c].Load(); ch != nil {
			return ch
		}
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	t := *ls.table.Load()
	if c >= len(t) {
		bigger := make([]atomic.Pointer[linkChunkData], max(2*len(t), c+1))
		for i := range t {
			bigger[i].Store(t[i].Load())
		}
		ls.table.Store(&bigger)
		t = bigger
	}
	ch := t[c].Load()
	if ch == nil {
		ch = &linkChunkData{parent: make([]uint32, ls.chunk), ord: make([]uint8, ls.chunk)}
		ls.memory_ += int64(ls.chunk) * linkBytes
		t[c].Store(ch)
	}
	return ch
}

// add writes the link of state id (the DFS: ids in order).
func (ls *linkStore) add(id uint32, l link) { ls.set(id, l) }

// set writes the link of state id; a chunk whose last link this is goes to
// the file.
func (ls *linkStore) set(id uint32, l link) {
	ls.filled(ls.write(id, l), 1)
}

// write writes the link of state id without counting it, and returns its
// chunk; the writer counts it there with filled (a writer of many links
// counts them once per chunk: the count is shared by every writer).
func (ls *linkStore) write(id uint32, l link) (chunk int) {
	c, i := int(id)/ls.chunk, int(id)%ls.chunk
	ch := ls.chunkFor(c)
	ch.parent[i] = l.parent
	if l.idx >= 255 {
		ch.ord[i] = 255
		ls.mu.Lock()
		ls.wide[id] = l.idx
		ls.mu.Unlock()
	} else {
		ch.ord[i] = uint8(l.idx)
	}
	return c
}

// filled counts k links written to chunk c; a chunk whose last link this
// is goes to the file.
func (ls *linkStore) filled(c, k int) {
	ch := ls.chunkFor(c)
	if int(ch.filled.Add(int32(k))) == ls.chunk && c >= ls.keep {
		ls.spill(c, ch)
	}
}

// spill writes full chunk c to the file and drops it from memory.
func (ls *linkStore) spill(c int, ch *linkChunkData) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.err != nil {
		return
	}
	if ls.file == nil {
		f, err := scratchFile("mxcheck-links-*")
		if err != nil {
			ls.err = err
			return
		}
		ls.file = f
	}
	ls.buf = ls.buf[:0]
	for _, p := range ch.parent {
		ls.buf = binary.LittleEndian.AppendUint32(ls.buf, p)
	}
	ls.buf = append(ls.buf, ch.ord...)
	if _, err := ls.file.WriteAt(ls.buf, int64(c-ls.keep)*int64(ls.chunk)*linkBytes); err != nil {
		ls.err = err
		return
	}
	ls.disk += int64(len(ls.buf))
	(*ls.table.Load())[c].Store(spilledChunk)
	ls.memory_ -= int64(ls.chunk) * linkBytes
	ls.spilled++
}

// get returns the link of state id.
func (ls *linkStore) get(id uint32) link {
	c, i := int(id)/ls.chunk, int(id)%ls.chunk
	var l link
	var ord uint8
	t := *ls.table.Load()
	if c >= len(t) {
		panic(fmt.Sprintf("mxcheck: no parent link for state %d", id))
	}
	if ch := t[c].Load(); ch == nil {
		panic(fmt.Sprintf("mxcheck: no parent link for state %d", id))
	} else if ch != spilledChunk {
		l.parent, ord = ch.parent[i], ch.ord[i]
	} else {
		base := int64(c-ls.keep) * int64(ls.chunk) * linkBytes
		var b [5]byte
		if _, err := ls.file.ReadAt(b[:4], base+int64(i)*4); err != nil {
			ls.readFailed(err)
		}
		if _, err := ls.file.ReadAt(b[4:], base+int64(ls.chunk)*4+int64(i)); err != nil {
			ls.readFailed(err)
		}
		l.parent, ord = binary.LittleEndian.Uint32(b[:4]), b[4]
	}
	l.idx = uint32(ord)
	if ord == 255 {
		ls.mu.Lock()
		l.idx = ls.wide[id]
		ls.mu.Unlock()
	}
	return l
}

// readFailed: our own temporary file, written by this process: failing to
// read it back is not something a search can recover from.
func (ls *linkStore) readFailed(err error) {
	panic(fmt.Sprintf("mxcheck: reading parent links back from %s: %v", ls.file.Name(), err))
}

// memory is the bytes the links hold in memory.
func (ls *linkStore) memory() int64 {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.memory_ + int64(len(ls.wide))*16
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
