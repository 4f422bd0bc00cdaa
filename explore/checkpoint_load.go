package explore

import (
	"fmt"
	"path/filepath"

	"github.com/mxcheck/mxcheck/model"
)

// verifyCheckpoint finds the newest checkpoint in dir and checks it whole
// before the search starts: its manifest, that it is of this run (the
// identity), that the limits asked for do not contradict what it has
// already explored, and every file's size and checksum. The error is one
// line.
func (c *Checker) verifyCheckpoint(dir string) (*manifest, error) {
	names, err := checkpointDirs(dir)
	if err != nil {
		return nil, fmt.Errorf("--resume: %v", unwrapPathErr(err))
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--resume %s: no checkpoint there (no ckpt-* directory)", dir)
	}
	at := filepath.Join(dir, names[len(names)-1])
	m, err := readManifest(at)
	if err != nil {
		return nil, fmt.Errorf("--resume %s: %v", at, err)
	}
	if d := identityDiff(m.Identity, c.identity()); d != "" {
		return nil, fmt.Errorf("--resume %s: the checkpoint is of another configuration: %s", at, d)
	}
	if m.Wide != (c.opt.Fingerprint == 128) || m.Partitions < 1 || len(m.Files) != m.Partitions+1 || !m.validMap() {
		return nil, fmt.Errorf("--resume %s: %s does not describe a checkpoint of this run", at, manifestName)
	}
	if ms := c.opt.MaxStates; ms > 0 && ms <= int(m.States) {
		return nil, fmt.Errorf("--resume %s: --max-states %d is not above the %d states the checkpoint already holds", at, ms, m.States)
	}
	if md := c.opt.MaxDepth; md > 0 && md < m.Level {
		return nil, fmt.Errorf("--resume %s: --max-depth %d is below level %d, which the checkpoint has already expanded", at, md, m.Level-1)
	}
	for i, f := range m.Files {
		want := partName(i)
		if i == m.Partitions {
			want = linksName
		}
		if f.Name != want {
			return nil, fmt.Errorf("--resume %s: the manifest lists %q where %q belongs", at, f.Name, want)
		}
		if err := verifyFile(at, f); err != nil {
			return nil, fmt.Errorf("--resume %s: %v", at, err)
		}
	}
	return m, nil
}

// restore loads checkpoint m into the run, instead of discovering the
// initial states, and returns the level to expand next. The files were
// verified by New; a failure here (a file changed since) panics.
func (r *bfsRun) restore(m *manifest) int {
	if err := r.restoreSearch(m); err != nil {
		panic(fmt.Sprintf("mxcheck: loading the checkpoint in %s: %v", m.dir, err))
	}
	if err := r.restoreParts(m); err != nil {
		panic(fmt.Sprintf("mxcheck: loading the checkpoint in %s: %v", m.dir, err))
	}
	r.s.warnings = append(r.s.warnings, m.Warnings...)
	return m.Level
}

// restoreSearch loads what the search's goroutine keeps of checkpoint m:
// the links, the counters and the property tracker (a distributed
// search's coordinator loads only this).
func (r *bfsRun) restoreSearch(m *manifest) error {
	s := r.s
	if err := r.restoreLinks(m); err != nil {
		return err
	}
	s.n, s.trans, s.depth, s.limit = m.States, m.Transitions, m.Depth, m.Limit
	s.props.done, s.props.deadDone, s.props.failures = m.Props.Done, m.Props.DeadDone, m.Props.Failures
	s.props.events = s.props.events[:0]
	for _, e := range m.Props.Events {
		s.props.events = append(s.props.events, propEvent{prop: e.Prop, id: e.ID, depth: e.Depth})
	}
	s.reduced, s.symBounded = m.Ample, m.SymBounded
	r.ck.stats.ResumedFrom, r.ck.stats.ResumedStates = m.Level, int64(m.States)
	return nil
}

func (r *bfsRun) restoreLinks(m *manifest) error {
	f, err := openCk(m.dir, linksName, linksMagic)
	if err != nil {
		return err
	}
	defer f.close()
	n := f.u64()
	if f.err != nil || n != uint64(m.States) {
		return fmt.Errorf("%s: %d links for %d states: %w", linksName, n, m.States, errCorrupt)
	}
	for id := uint32(0); id < m.States; id++ {
		parent := f.u32()
		idx := f.uvarint()
		if f.err != nil {
			return fmt.Errorf("%s: %v", linksName, f.err)
		}
		r.s.links.set(id, link{parent: parent, idx: uint32(idx)})
	}
	return nil
}

// restoreParts loads the partitions: each fingerprint goes to its owner
// among the run's workers (r.owner). With the checkpoint's own partitioning
// (as many workers, no partition map), partition i's frontier is worker
// i's; otherwise the frontiers are merged in id order and each state goes
// to the owner of its fingerprint, so every worker's frontier is in id
// order. A distributed worker process holds one worker: it reads only the
// files that hold some of its virtual partitions, and keeps only its own
// states of them.
func (r *bfsRun) restoreParts(m *manifest) error {
	local := func(o int) bool { return r.shared != nil || r.w[o].seen != nil }
	need := make([]bool, m.Partitions)
	for p := range need {
		need[p] = m.VMap == nil || r.vmap == nil
	}
	if m.VMap != nil && r.vmap != nil && len(m.VMap) == len(r.vmap) {
		for vp, p := range m.VMap {
			if local(int(r.vmap[vp])) {
				need[p] = true
			}
		}
	}
	same := r.vmap == nil && m.VMap == nil && len(r.w) == m.Partitions
	rs := make([]*ckReader, m.Partitions)
	defer func() {
		for _, f := range rs {
			if f != nil {
				f.close()
			}
		}
	}()
	wide := m.Wide
	left := make([]uint64, m.Partitions) // frontier states still to read
	for p := range rs {
		if !need[p] {
			continue
		}
		f, err := openCk(m.dir, partName(p), partMagic)
		if err != nil {
			return err
		}
		rs[p] = f
		if id, of := f.u32(), f.u32(); int(id) != p || int(of) != m.Partitions {
			return fmt.Errorf("%s: partition %d of %d: %w", partName(p), id, of, errCorrupt)
		}
		seen := f.u64()
		for i := uint64(0); i < seen; i++ {
			fp := fingerprint{lo: f.u64()}
			if wide {
				fp.hi = f.u64()
			}
			if f.err != nil {
				return fmt.Errorf("%s: %v", partName(p), f.err)
			}
			if o := r.owner(fp); local(o) {
				r.insert(r.w[o], fp)
			}
		}
		left[p] = f.u64()
		if f.err != nil {
			return fmt.Errorf("%s: %v", partName(p), f.err)
		}
	}
	// Frontiers: the next state of each partition, merged by id.
	type head struct {
		id  uint32
		enc []byte
		ok  bool
	}
	heads := make([]head, m.Partitions)
	advance := func(p int) error {
		h := &heads[p]
		if left[p] == 0 {
			h.ok = false
			return nil
		}
		left[p]--
		f := rs[p]
		h.id = f.u32()
		h.enc = f.bytes(int(f.u32()), h.enc)
		h.ok = f.err == nil
		if f.err != nil {
			return fmt.Errorf("%s: %v", partName(p), f.err)
		}
		return nil
	}
	for p := range heads {
		if !need[p] {
			continue
		}
		if err := advance(p); err != nil {
			return err
		}
	}
	var x *expander
	for _, w := range r.w {
		if w.x != nil {
			x = w.x
			break
		}
	}
	var into model.State
	for {
		best := -1
		for p := range heads {
			if heads[p].ok && (best < 0 || heads[p].id < heads[best].id) {
				best = p
			}
		}
		if best < 0 {
			return nil
		}
		h := &heads[best]
		owner := best
		if !same {
			st, err := r.c.codec.ReadState(h.enc, into)
			if err != nil {
				return fmt.Errorf("%s: state %d: %v", partName(best), h.id, err)
			}
			into = st
			owner = r.owner(x.fingerprint(st))
		}
		if local(owner) {
			r.w[owner].next.pushBytes(h.id, h.enc)
		}
		if err := advance(best); err != nil {
			return err
		}
	}
}

// validMap reports whether the manifest's partition map, if it has one,
// maps every virtual partition to one of its partitions.
func (m *manifest) validMap() bool {
	if m.VMap == nil {
		return true
	}
	if len(m.VMap) != VirtualPartitions {
		return false
	}
	for _, p := range m.VMap {
		if p < 0 || int(p) >= m.Partitions {
			return false
		}
	}
	return true
}
