package explore

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// eachEncoded calls fn on every state of the level in order, as its id and
// encoding (systems with a codec), until fn returns an error; enc is only
// valid during the call. The level is left as it was (each, and
// checkpoints).
func (l *level) eachEncoded(fn func(id uint32, enc []byte) error) error {
	var err error
	i := 0
	l.mem.each(func(enc []byte) bool {
		if err = fn(l.ids[i], enc); err != nil {
			return false
		}
		i++
		return true
	})
	if err != nil || l.w == nil {
		return err
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
		if err := fn(id, l.buf); err != nil {
			return err
		}
	}
	return nil
}
