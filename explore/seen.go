package explore

// seenShards is the number of independent shards of a seenSet; a
// fingerprint's top bits pick its shard, so each table grows in small steps.
const seenShards = 64

// seenSet is a set of 64-bit fingerprints (never 0) in open-addressing
// tables with linear probing, one per shard. Each shard grows at 3/4 load,
// so a fingerprint costs 8 to 16 bytes.
type seenSet struct {
	shards [seenShards]shard
}

type shard struct {
	slots []uint64
	n     int
}

func newSeenSet() *seenSet {
	s := &seenSet{}
	for i := range s.shards {
		s.shards[i].slots = make([]uint64, 256)
	}
	return s
}

// insert adds fp and reports whether it was new. Not safe for concurrent
// use.
func (s *seenSet) insert(fp uint64) bool {
	return s.shards[fp>>58].insert(fp)
}

// contains reports whether fp is in the set.
func (s *seenSet) contains(fp uint64) bool {
	sh := &s.shards[fp>>58]
	mask := uint64(len(sh.slots) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch sh.slots[i] {
		case 0:
			return false
		case fp:
			return true
		}
	}
}

func (sh *shard) insert(fp uint64) bool {
	mask := uint64(len(sh.slots) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch sh.slots[i] {
		case 0:
			sh.slots[i] = fp
			sh.n++
			if sh.n*4 > len(sh.slots)*3 {
				sh.grow()
			}
			return true
		case fp:
			return false
		}
	}
}

func (sh *shard) grow() {
	old := sh.slots
	sh.slots = make([]uint64, 2*len(old))
	mask := uint64(len(sh.slots) - 1)
	for _, fp := range old {
		if fp == 0 {
			continue
		}
		i := fp & mask
		for sh.slots[i] != 0 {
			i = (i + 1) & mask
		}
		sh.slots[i] = fp
	}
}

// bytes is the memory held by the tables.
func (s *seenSet) bytes() int64 {
	var b int64
	for i := range s.shards {
		b += int64(len(s.shards[i].slots)) * 8
	}
	return b
}
