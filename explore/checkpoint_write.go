package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// checkpointFault, in tests, makes a checkpoint write fail at a stage
// ("parts", "links", "manifest", "rename") as a full disk would.
var checkpointFault func(stage string) error

func ckFault(stage string) error {
	if checkpointFault != nil {
		return checkpointFault(stage)
	}
	return nil
}

// ckState is the checkpointing of one BFS run.
type ckState struct {
	last   time.Time // when the last checkpoint was written (or the run started)
	stats  CheckpointStats
	newest *manifest // the newest checkpoint written or resumed (a distributed search reloads it)
}

// afterLevel is the BFS's hook at a level boundary: level depth has been
// expanded and the next one is complete. It writes a checkpoint when one is
// due, then calls the test hook.
func (r *bfsRun) afterLevel(depth int) {
	_ = r.afterLevelWith(depth, func(next int) (int64, error, error) {
		size, err := r.writeCheckpoint(next)
		return size, err, nil
	})
}

// afterLevelWith is afterLevel with the checkpoint written by write, which
// returns the checkpoint's size, a failed write (the search goes on without
// this checkpoint) and a failed network (returned: the level must run
// again).
func (r *bfsRun) afterLevelWith(depth int, write func(next int) (size int64, err, netErr error)) error {
	s, o := r.s, &r.c.opt
	cut := o.MaxDepth > 0 && depth >= o.MaxDepth
	if o.Checkpoint != "" && !s.stop && !cut && time.Since(r.ck.last) >= o.CheckpointEvery {
		t0 := time.Now()
		size, err, netErr := write(depth + 1)
		if netErr != nil {
			return netErr
		}
		st := &r.ck.stats
		took := time.Since(t0)
		st.TotalWriteTime += took
		if err != nil {
			st.Error = err.Error()
			s.warn(fmt.Sprintf("checkpoint after level %d not written: %v", depth, err))
		} else {
			st.Written++
			st.Level, st.States, st.Bytes, st.WriteTime = depth+1, int64(s.n), size, took
		}
		r.ck.last = time.Now()
	}
	if o.levelHook != nil {
		o.levelHook(depth)
	}
	return nil
}

// writeCheckpoint writes the checkpoint of the run at the start of level
// next, atomically (see checkpoint.go), and returns its size in bytes.
func (r *bfsRun) writeCheckpoint(next int) (int64, error) {
	tmp, err := r.checkpointTmp(next)
	if err != nil {
		return 0, err
	}
	files := make([]manifestFile, len(r.w))
	errs := make([]error, len(r.w))
	r.parallel(func(w *bfsWorker) { files[w.id], errs[w.id] = w.writePart(tmp) })
	if err := ckFault("parts"); err != nil {
		errs[0] = err
	}
	for _, err := range errs {
		if err != nil {
			os.RemoveAll(tmp)
			return 0, err
		}
	}
	return r.commitCheckpoint(tmp, next, files)
}

// checkpointTmp makes the empty directory the checkpoint of level next is
// written into.
func (r *bfsRun) checkpointTmp(next int) (string, error) {
	tmp := filepath.Join(r.c.opt.Checkpoint, ".tmp-"+strings.TrimPrefix(checkpointName(next), "ckpt-"))
	if err := os.RemoveAll(tmp); err != nil {
		return "", unwrapPathErr(err)
	}
	if err := os.MkdirAll(tmp, 0o777); err != nil {
		return "", unwrapPathErr(err)
	}
	return tmp, nil
}

// commitCheckpoint completes the checkpoint of level next in tmp, whose
// partition files are written: the links, the manifest, then the rename
// that makes it the newest. It returns the checkpoint's size.
func (r *bfsRun) commitCheckpoint(tmp string, next int, files []manifestFile) (int64, error) {
	s, c := r.s, r.c
	dir := c.opt.Checkpoint
	name := checkpointName(next)
	lf, err := r.writeLinks(tmp)
	if err == nil {
		err = ckFault("links")
	}
	if err != nil {
		os.RemoveAll(tmp)
		return 0, err
	}
	parts := len(files)
	files = append(files, lf)
	m := &manifest{
		Version: checkpointVersion, Identity: c.identity(), Partitions: parts, Wide: c.opt.Fingerprint == 128,
		Level: next, States: s.n, Transitions: s.trans, Depth: s.depth, Limit: s.limit,
		Props: manifestProps{Done: s.props.done, DeadDone: s.props.deadDone, Failures: s.props.failures},
		Ample: s.reduced, SymBounded: s.symBounded, Warnings: s.warnings, Files: files, VMap: slices.Clone(r.vmap),
	}
	for _, w := range r.w {
		if w.x != nil && w.x.canon != nil {
			m.SymBounded += w.x.canon.Bounded
		}
	}
	for _, e := range s.props.events {
		m.Props.Events = append(m.Props.Events, manifestEvent{Prop: e.prop, ID: e.id, Depth: e.depth})
	}
	if err := firstErr(writeManifest(tmp, m), ckFault("manifest")); err != nil {
		os.RemoveAll(tmp)
		return 0, unwrapPathErr(err)
	}
	if err := firstErr(syncDir(tmp), ckFault("rename")); err != nil {
		os.RemoveAll(tmp)
		return 0, unwrapPathErr(err)
	}
	final := filepath.Join(dir, name)
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		return 0, unwrapPathErr(err)
	}
	if err := syncDir(dir); err != nil {
		return 0, unwrapPathErr(err)
	}
	m.dir = final
	r.ck.newest = m
	// The new checkpoint is durable: the older ones, and what writes cut
	// short left behind, can go.
	if old, err := checkpointDirs(dir); err == nil {
		for _, o := range old {
			if o != name {
				os.RemoveAll(filepath.Join(dir, o))
			}
		}
	}
	if tmps, err := filepath.Glob(filepath.Join(dir, ".tmp-*")); err == nil {
		for _, t := range tmps {
			os.RemoveAll(t)
		}
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	if st, err := os.Stat(filepath.Join(final, manifestName)); err == nil {
		size += st.Size()
	}
	return size, nil
}

// firstErr is the first of two errors that is not nil.
func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// writePart writes the worker's partition: its seen-set and its next
// frontier.
func (w *bfsWorker) writePart(dir string) (manifestFile, error) {
	f, err := createCk(filepath.Join(dir, partName(w.id)))
	if err != nil {
		return manifestFile{}, unwrapPathErr(err)
	}
	f.write([]byte(partMagic))
	f.u32(checkpointVersion)
	f.u32(uint32(w.id))
	f.u32(uint32(len(w.r.w)))
	wide := w.r.c.opt.Fingerprint == 128
	put := func(fp fingerprint) error {
		f.u64(fp.lo)
		if wide {
			f.u64(fp.hi)
		}
		return f.err
	}
	if sh := w.r.shared; sh != nil {
		// Each worker writes its share of the shards.
		var n int64
		sh.each(w.id, len(w.r.w), func(fingerprint) error { n++; return nil })
		f.u64(uint64(n))
		sh.each(w.id, len(w.r.w), put)
	} else {
		f.u64(uint64(w.seen.count()))
		w.seen.each(put)
	}
	if w.r.faultAt != nil {
		w.r.faultAt("checkpoint")
	}
	f.u64(uint64(w.next.n))
	if err := w.next.eachEncoded(func(id uint32, enc []byte) error {
		f.u32(id)
		f.u32(uint32(len(enc)))
		f.write(enc)
		return f.err
	}); err != nil && f.err == nil {
		f.err = err
	}
	mf, err := f.close()
	if err != nil {
		return mf, fmt.Errorf("%s: %v", partName(w.id), err)
	}
	return mf, nil
}

// writeLinks writes the parent link of every state so far.
func (r *bfsRun) writeLinks(dir string) (manifestFile, error) {
	f, err := createCk(filepath.Join(dir, linksName))
	if err != nil {
		return manifestFile{}, unwrapPathErr(err)
	}
	f.write([]byte(linksMagic))
	f.u32(checkpointVersion)
	n := r.s.n
	f.u64(uint64(n))
	if err := r.s.links.eachLink(n, func(_ uint32, l link) error {
		f.u32(l.parent)
		f.uvarint(uint64(l.idx))
		return f.err
	}); err != nil && f.err == nil {
		f.err = err
	}
	mf, err := f.close()
	if err != nil {
		return mf, fmt.Errorf("%s: %v", linksName, err)
	}
	return mf, nil
}

// result is the search's result with the checkpoint figures.
func (r *bfsRun) result() *Result {
	res := r.s.result()
	if o := &r.c.opt; o.Checkpoint != "" || o.Resume != "" {
		st := r.ck.stats
		st.Dir = o.Checkpoint
		res.Checkpoint = &st
		if el := res.Stats.Elapsed.Seconds(); el > 0 {
			// The states this process found, per second.
			res.Stats.Rate = float64(res.Stats.Distinct-st.ResumedStates) / el
		}
	}
	return res
}

// writeEmptyPart writes partition p of n holding no state: a distributed
// search's lost member, whose states the others hold.
func writeEmptyPart(dir string, p, n int) (manifestFile, error) {
	f, err := createCk(filepath.Join(dir, partName(p)))
	if err != nil {
		return manifestFile{}, unwrapPathErr(err)
	}
	f.write([]byte(partMagic))
	f.u32(checkpointVersion)
	f.u32(uint32(p))
	f.u32(uint32(n))
	f.u64(0)
	f.u64(0)
	mf, err := f.close()
	if err != nil {
		return mf, fmt.Errorf("%s: %v", partName(p), err)
	}
	return mf, nil
}
