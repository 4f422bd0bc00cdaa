package explore

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The files of a checkpoint: binary bodies (little endian) followed by the
// body's CRC-32C (Castagnoli), and a JSON manifest followed by a line
// "crc32c XXXXXXXX".

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Magic numbers at the start of each binary file.
const (
	partMagic  = "MXCKPART"
	linksMagic = "MXCKLINK"
)

// manifest is the index of one checkpoint.
type manifest struct {
	Version     int               `json:"version"`
	Identity    map[string]string `json:"identity"`
	Partitions  int               `json:"partitions"`
	Wide        bool              `json:"wide"`
	Level       int               `json:"level"` // the next level to expand
	States      uint32            `json:"states"`
	Transitions int64             `json:"transitions"`
	Depth       int               `json:"depth"`
	Limit       string            `json:"limit,omitempty"`
	Props       manifestProps     `json:"props"`
	Ample       int64             `json:"ample,omitempty"`
	SymBounded  int64             `json:"sym_bounded,omitempty"`
	Warnings    []string          `json:"warnings,omitempty"`
	Files       []manifestFile    `json:"files"`
	// VMap is a distributed search's partition map: virtual partition →
	// the partition file holding its states (none: a state's partition is
	// its fingerprint's owner among Partitions).
	VMap []int32 `json:"vmap,omitempty"`

	dir string // the checkpoint's directory, once read
}

// manifestProps is the property tracker's state.
type manifestProps struct {
	Done     uint64          `json:"done"`
	DeadDone bool            `json:"dead_done,omitempty"`
	Failures int             `json:"failures"`
	Events   []manifestEvent `json:"events,omitempty"`
}

type manifestEvent struct {
	Prop  int    `json:"prop"`
	ID    uint32 `json:"id"`
	Depth int    `json:"depth"`
}

// manifestFile is one file of a checkpoint: its size in bytes, checksum
// trailer included, and the CRC-32C of its body.
type manifestFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32c"`
}

// ckWriter writes one checkpoint file: a buffered body, its checksum, and
// an fsync before close.
type ckWriter struct {
	f   *os.File
	bw  *bufio.Writer
	crc hash.Hash32
	n   int64
	err error
	tmp [binary.MaxVarintLen64]byte
}

func createCk(path string) (*ckWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &ckWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20), crc: crc32.New(castagnoli)}, nil
}

func (w *ckWriter) write(b []byte) {
	if w.err != nil {
		return
	}
	w.crc.Write(b)
	_, w.err = w.bw.Write(b)
	w.n += int64(len(b))
}

func (w *ckWriter) u32(v uint32) { w.write(binary.LittleEndian.AppendUint32(w.tmp[:0], v)) }
func (w *ckWriter) u64(v uint64) { w.write(binary.LittleEndian.AppendUint64(w.tmp[:0], v)) }
func (w *ckWriter) uvarint(v uint64) {
	w.write(binary.AppendUvarint(w.tmp[:0], v))
}

// close writes the checksum, syncs and closes the file.
func (w *ckWriter) close() (manifestFile, error) {
	sum := w.crc.Sum32()
	if w.err == nil {
		_, w.err = w.bw.Write(binary.LittleEndian.AppendUint32(nil, sum))
	}
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	if w.err == nil {
		w.err = w.f.Sync()
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	return manifestFile{Name: filepath.Base(w.f.Name()), Size: w.n + 4, CRC: sum}, w.err
}

// abort closes the file after a failure.
func (w *ckWriter) abort() { w.f.Close() }

// writeManifest writes m as dir/manifest.json, synced.
func writeManifest(dir string, m *manifest) error {
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	body = fmt.Appendf(body, "crc32c %08x\n", crc32.Checksum(body, castagnoli))
	f, err := os.Create(filepath.Join(dir, manifestName))
	if err != nil {
		return err
	}
	if _, err = f.Write(body); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readManifest reads and checks dir/manifest.json.
func readManifest(dir string) (*manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	i := bytes.LastIndex(b, []byte("crc32c "))
	if i < 0 || !bytes.HasSuffix(b, []byte("\n")) {
		return nil, fmt.Errorf("%s: truncated (no checksum line)", manifestName)
	}
	want, err := strconv.ParseUint(strings.TrimSpace(string(b[i+len("crc32c "):])), 16, 32)
	if err != nil {
		return nil, fmt.Errorf("%s: bad checksum line", manifestName)
	}
	if got := crc32.Checksum(b[:i], castagnoli); got != uint32(want) {
		return nil, fmt.Errorf("%s: checksum mismatch (the file is corrupt)", manifestName)
	}
	m := &manifest{}
	if err := json.Unmarshal(b[:i], m); err != nil {
		return nil, fmt.Errorf("%s: %v", manifestName, err)
	}
	if m.Version != checkpointVersion {
		return nil, fmt.Errorf("%s: format version %d, this mxcheck reads version %d", manifestName, m.Version, checkpointVersion)
	}
	m.dir = dir
	return m, nil
}

// verifyFile checks that a checkpoint file has the size and checksum the
// manifest gives, and that its trailer agrees.
func verifyFile(dir string, mf manifestFile) error {
	f, err := os.Open(filepath.Join(dir, mf.Name))
	if err != nil {
		return unwrapPathErr(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != mf.Size {
		return fmt.Errorf("%s: %d bytes, the manifest says %d (truncated or overwritten)", mf.Name, st.Size(), mf.Size)
	}
	if mf.Size < 4 {
		return fmt.Errorf("%s: too short", mf.Name)
	}
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, mf.Size-4)); err != nil {
		return fmt.Errorf("%s: %v", mf.Name, err)
	}
	var tr [4]byte
	if _, err := f.ReadAt(tr[:], mf.Size-4); err != nil {
		return fmt.Errorf("%s: %v", mf.Name, err)
	}
	if got := h.Sum32(); got != mf.CRC || binary.LittleEndian.Uint32(tr[:]) != mf.CRC {
		return fmt.Errorf("%s: checksum mismatch (the file is corrupt)", mf.Name)
	}
	return nil
}

// ckReader reads a checkpoint file's body (already verified).
type ckReader struct {
	f   *os.File
	br  *bufio.Reader
	err error
}

func openCk(dir, name, magic string) (*ckReader, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	r := &ckReader{f: f, br: bufio.NewReaderSize(f, 256<<10)}
	got := r.bytes(len(magic), nil)
	if r.err != nil || string(got) != magic {
		f.Close()
		return nil, fmt.Errorf("%s: not a checkpoint file of this kind", name)
	}
	if v := r.u32(); v != checkpointVersion {
		f.Close()
		return nil, fmt.Errorf("%s: format version %d, this mxcheck reads version %d", name, v, checkpointVersion)
	}
	return r, nil
}

func (r *ckReader) bytes(n int, buf []byte) []byte {
	buf = resizeBytes(buf, n)
	if r.err == nil {
		_, r.err = io.ReadFull(r.br, buf)
	}
	return buf
}

func (r *ckReader) u32() uint32 {
	var b [4]byte
	if r.err == nil {
		_, r.err = io.ReadFull(r.br, b[:])
	}
	return binary.LittleEndian.Uint32(b[:])
}

func (r *ckReader) u64() uint64 {
	var b [8]byte
	if r.err == nil {
		_, r.err = io.ReadFull(r.br, b[:])
	}
	return binary.LittleEndian.Uint64(b[:])
}

func (r *ckReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(r.br)
	r.err = err
	return v
}

func (r *ckReader) close() { r.f.Close() }

// errCorrupt reports a checkpoint that passed its checksums but does not
// parse: written by a different mxcheck, or a bug.
var errCorrupt = errors.New("checkpoint does not parse")

// syncDir syncs a directory, so that the names in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
