package explore

import (
	"encoding/binary"
	"fmt"
)

// eachLink calls fn on the links of states 0..n-1 in id order, until fn
// returns an error; a spilled chunk is read back whole (checkpoints).
func (ls *linkStore) eachLink(n uint32, fn func(id uint32, l link) error) error {
	var buf []byte
	for c := 0; c*ls.chunk < int(n); c++ {
		ch := ls.chunkFor(c)
		parent, ord := ch.parent, ch.ord
		if ch == spilledChunk {
			buf = resizeBytes(buf, ls.chunk*linkBytes)
			if _, err := ls.file.ReadAt(buf, int64(c-ls.keep)*int64(ls.chunk)*linkBytes); err != nil {
				return fmt.Errorf("parent links on disk: %w", err)
			}
			parent = make([]uint32, ls.chunk)
			for i := range parent {
				parent[i] = binary.LittleEndian.Uint32(buf[4*i:])
			}
			ord = buf[4*ls.chunk:]
		}
		for i := 0; i < ls.chunk && c*ls.chunk+i < int(n); i++ {
			id := uint32(c*ls.chunk + i)
			l := link{parent: parent[i], idx: uint32(ord[i])}
			if ord[i] == 255 {
				ls.mu.Lock()
				l.idx = ls.wide[id]
				ls.mu.Unlock()
			}
			if err := fn(id, l); err != nil {
				return err
			}
		}
	}
	return nil
}
