package explore

// presize makes room, before a level is expanded, for the new states the
// worker expects it to reach: as many as the last level reached, times the
// growth from the level before (at most fourfold), plus a tenth. A level
// that outgrows the candidate list or the fingerprint index otherwise
// copies them (the list holds the level's new states, about 80 bytes
// each) once per doubling; an estimate too small only leaves that copying
// to append, one too large only costs address space until the next level.
func (w *bfsWorker) presize() {
	last, prev := len(w.cands), w.prevCands
	w.prevCands = last
	if last == 0 || prev == 0 {
		return
	}
	want := last + last/10
	if last > prev {
		want = min(last*4, last*last/prev) + last/10
	}
	if cap(w.cands) < want {
		w.cands = make([]newState, 0, want)
	}
	if w.indexed {
		w.index.reserve(want)
	}
}

// reserve grows the index, while it is empty, so that n entries fit
// without growing it again.
func (t *fpIndex) reserve(n int) {
	if t.n != 0 {
		return
	}
	size := len(t.slots)
	for 4*n > 3*size {
		size *= 2
	}
	if size > len(t.slots) {
		t.slots = make([]fpSlot, size)
	}
}
