package reduce

import (
	"bytes"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// Canonical computes canonical keys of a Symmetric system's states: two
// states get the same key exactly when one is a node permutation of the
// other.
//
// It sorts nodes by their id-free signature and tries only the permutations
// that keep that order (all orders of nodes with equal signatures), keeping
// the least key. Because the set of candidate permutations of π(s) is the
// set for s composed with π⁻¹, the result is the same for every state of an
// orbit; because it is the key of a permutation of s, states of different
// orbits never share it. It need not equal the least key over all N!
// permutations (BruteForce), but it induces the same partition, which the
// tests check.
type Canonical struct {
	sym  model.Symmetric
	sigs [][]byte
	ord  []int
	perm []model.NodeID
	best []byte
	tmp  []byte
}

// NewCanonical returns a canonicaliser for sym. Not safe for concurrent use.
func NewCanonical(sym model.Symmetric) *Canonical { return &Canonical{sym: sym} }

// AppendKey appends the canonical key of s to dst.
func (c *Canonical) AppendKey(dst []byte, s model.State) []byte {
	n := c.sym.NodeCount(s)
	if cap(c.sigs) < n {
		c.sigs = make([][]byte, n)
		c.ord = make([]int, n)
		c.perm = make([]model.NodeID, n)
	}
	c.sigs, c.ord, c.perm = c.sigs[:n], c.ord[:n], c.perm[:n]
	for i := 0; i < n; i++ {
		c.sigs[i] = c.sym.AppendNodeSignature(c.sigs[i][:0], s, model.NodeID(i))
		c.ord[i] = i
	}
	sort.SliceStable(c.ord, func(a, b int) bool { return bytes.Compare(c.sigs[c.ord[a]], c.sigs[c.ord[b]]) < 0 })
	c.best = c.best[:0]
	c.search(s, 0)
	return append(dst, c.best...)
}

// search tries every order of each run of equal signatures in c.ord,
// assigning positions from `from` on.
func (c *Canonical) search(s model.State, from int) {
	n := len(c.ord)
	if from == n {
		for pos, i := range c.ord {
			c.perm[i] = model.NodeID(pos)
		}
		c.tmp = c.sym.AppendPermutedKey(c.tmp[:0], s, c.perm)
		if len(c.best) == 0 || bytes.Compare(c.tmp, c.best) < 0 {
			c.best = append(c.best[:0], c.tmp...)
		}
		return
	}
	end := from + 1
	for end < n && bytes.Equal(c.sigs[c.ord[end]], c.sigs[c.ord[from]]) {
		end++
	}
	if end-from == 1 {
		c.search(s, end)
		return
	}
	// Heap's algorithm over ord[from:end], recursing into the next run for
	// each arrangement.
	run := c.ord[from:end]
	k := len(run)
	idx := make([]int, k)
	c.search(s, end)
	for i := 0; i < k; {
		if idx[i] < i {
			if i%2 == 0 {
				run[0], run[i] = run[i], run[0]
			} else {
				run[idx[i]], run[i] = run[i], run[idx[i]]
			}
			c.search(s, end)
			idx[i]++
			i = 0
		} else {
			idx[i] = 0
			i++
		}
	}
}

// BruteForce appends the least key of s over all node permutations: the
// reference the tests compare Canonical against. Only for small N.
func BruteForce(dst []byte, sym model.Symmetric, s model.State) []byte {
	n := sym.NodeCount(s)
	perm := make([]model.NodeID, n)
	for i := range perm {
		perm[i] = model.NodeID(i)
	}
	var best, tmp []byte
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			tmp = sym.AppendPermutedKey(tmp[:0], s, perm)
			if best == nil || bytes.Compare(tmp, best) < 0 {
				best = append(best[:0], tmp...)
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
	return append(dst, best...)
}
