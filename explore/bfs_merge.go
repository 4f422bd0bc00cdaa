package explore

// In a shared BFS the new states of a level are in every worker's
// candidates, each worker's in key order, and a state's id is start + its
// rank among all of them. Worker w takes the states ranked in the w-th of
// len(r.w) equal shares of the level: it finds where its share starts and
// ends in each worker's candidates (cutAt), merges those runs by key,
// gives each state its id, writes its link and adds it to its own next
// level, in id order, and notes the first event of each property in its
// share.
// So each worker does a share of the ranking and of the copying, whatever
// the number of workers (comparing every worker's candidates with every
// other's, each worker would go through the whole level).

// mergeShare gives the states of the worker's share of the level their ids
// (in the ids of the worker holding each), writes their links, adds them to
// its next level and notes the first event of each property among them
// (which account takes the least of).
func (w *bfsWorker) mergeShare(start uint32, total int) {
	r, n := w.r, len(w.r.w)
	loRank, hiRank := total*w.id/n, total*(w.id+1)/n
	at, end := r.cutAt(loRank), r.cutAt(hiRank)
	cd := r.c.codec
	id := start + uint32(loRank)
	// A heap of the workers whose runs are not used up, least head key
	// on top.
	key := func(p int) uint64 { return r.w[p].cands[at[p]].key }
	h := make([]int, 0, n)
	for p := range at {
		if at[p] < end[p] {
			h = append(h, p)
		}
	}
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && key(h[c+1]) < key(h[c]) {
				c++
			}
			if key(h[i]) < key(h[c]) {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	// The states in key order: each gets its id and is copied to the
	// next level. A worker's candidates come in long runs between two of
	// another's (most diamonds close within one worker's range of the
	// level), so the heap's top worker gives every candidate up to the
	// least head of the others before the heap is touched again.
	// (Reading a batch's first bytes ahead, in one loop of independent
	// loads as apply does, made two workers on RA N=4 2% slower: the
	// copies read each worker's store in order, which the processor's own
	// prefetching follows.)
	w.clearFirst()
	lw := linkWriter{ls: r.s.links, chunk: -1}
	for len(h) > 0 {
		o := h[0]
		ow := r.w[o]
		bound := ^uint64(0) // the least head key of the other runs
		for _, c := range h[1:min(3, len(h))] {
			bound = min(bound, key(c))
		}
		i, e := at[o], end[o]
		for ; i < e && (i == at[o] || ow.cands[i].key < bound); i++ {
			ow.ids[i] = id
			c := &ow.cands[i]
			lw.write(id, c.key)
			w.noteFirst(c, id)
			if cd != nil {
				w.next.pushBytes(id, r.w[c.sw].store.at(int(c.blk), int(c.off), int(c.n)))
			} else {
				w.next.pushClone(r.cloneOf(c), id)
			}
			id++
		}
		if at[o] = i; i == e {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	lw.flush()
}

// cutAt returns, for each worker, how many of its candidates rank below
// rank among every worker's (their keys are distinct: a key names one
// transition): those below the key ranked rank, the smallest key with
// rank+1 keys at most it, found by halving the range of keys.
func (r *bfsRun) cutAt(rank int) []int {
	cut := make([]int, len(r.w))
	total := 0
	for _, w := range r.w {
		total += len(w.cands)
	}
	if rank >= total {
		for i, w := range r.w {
			cut[i] = len(w.cands)
		}
		return cut
	}
	atMost := func(k uint64) int { // how many keys are ≤ k
		c := 0
		for _, w := range r.w {
			c += upperBound(w.cands, k)
		}
		return c
	}
	lo, hi := uint64(0), ^uint64(0)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if atMost(mid) > rank {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > 0 { // lo is the key ranked rank: below it, each worker's part
		for i, w := range r.w {
			cut[i] = upperBound(w.cands, lo-1)
		}
	}
	return cut
}

// upperBound is the number of candidates (in key order) with a key ≤ k.
func upperBound(cs []newState, k uint64) int {
	lo, hi := 0, len(cs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cs[mid].key <= k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
