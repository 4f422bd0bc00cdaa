package lmutin

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// MaxProcs bounds the number of processes of a configuration.
const MaxProcs = 6

// MaxTS bounds timestamps: a TSet holds timestamps 0..MaxTS.
const MaxTS = 15

// TSet is a set of timestamps (ts, P_j), as grantedTo_i and pendingReq_i
// are: TSet[j] has bit ts set when (ts, P_j) is in the set. A process may
// appear with several timestamps, as in a set of pairs.
type TSet [MaxProcs]uint16

// Add returns s ∪ {(ts, j)}.
func (s TSet) Add(ts uint8, j model.NodeID) TSet {
	s[j] |= 1 << ts
	return s
}

// Has reports whether (ts, j) ∈ s.
func (s TSet) Has(ts uint8, j model.NodeID) bool { return s[j]&(1<<ts) != 0 }

// HasProc reports whether (*, j) ∈ s.
func (s TSet) HasProc(j model.NodeID) bool { return s[j] != 0 }

// DeleteProc deletes every (*, j) from s and returns the deleted
// timestamps as a bitmask (0 when nothing was deleted).
func (s *TSet) DeleteProc(j model.NodeID) uint16 {
	x := s[j]
	s[j] = 0
	return x
}

// Len is |s|, the number of pairs.
func (s TSet) Len() int {
	n := 0
	for _, b := range s {
		n += bits.OnesCount16(b)
	}
	return n
}

// Empty reports whether s = ∅.
func (s TSet) Empty() bool { return s == TSet{} }

// Procs is the set of processes with at least one pair in s.
func (s TSet) Procs() model.NodeSet {
	var out model.NodeSet
	for j, b := range s {
		if b != 0 {
			out = out.Add(model.NodeID(j))
		}
	}
	return out
}

// Min returns the smallest pair of s in the order of timestamps: smaller
// ts first, ties broken by the smaller process id. ok is false when s = ∅.
func (s TSet) Min() (ts uint8, j model.NodeID, ok bool) {
	for t := 0; t <= MaxTS; t++ {
		for p, b := range s {
			if b&(1<<t) != 0 {
				return uint8(t), model.NodeID(p), true
			}
		}
	}
	return 0, 0, false
}

// Max returns the largest pair of s (see Min); ok is false when s = ∅.
func (s TSet) Max() (ts uint8, j model.NodeID, ok bool) {
	for t := MaxTS; t >= 0; t-- {
		for p := MaxProcs - 1; p >= 0; p-- {
			if s[p]&(1<<t) != 0 {
				return uint8(t), model.NodeID(p), true
			}
		}
	}
	return 0, 0, false
}

// DeleteMin removes and returns the smallest pair of s; ok is false when
// s = ∅ (deleteMin of an empty set, which the pseudocode never guards).
func (s *TSet) DeleteMin() (ts uint8, j model.NodeID, ok bool) {
	ts, j, ok = s.Min()
	if ok {
		s[j] &^= 1 << ts
	}
	return ts, j, ok
}

// Less reports whether (a, i) < (b, j) in the order of timestamps.
func Less(a uint8, i model.NodeID, b uint8, j model.NodeID) bool {
	return a < b || a == b && i < j
}

// AppendKey appends the canonical encoding of s: a byte naming the
// processes present, then two bytes per present process.
func (s TSet) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(s.Procs()))
	for _, b := range s {
		if b != 0 {
			dst = append(dst, byte(b), byte(b>>8))
		}
	}
	return dst
}

// String renders s as "{(0,n1),(2,n2)}", in the order of timestamps.
func (s TSet) String() string {
	var parts []string
	for t := 0; t <= MaxTS; t++ {
		for p, b := range s {
			if b&(1<<t) != 0 {
				parts = append(parts, fmt.Sprintf("(%d,%v)", t, model.NodeID(p)))
			}
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}
