package reduce

import (
	"bytes"

	"github.com/mxcheck/mxcheck/model"
)

// maxPortSymmetry bounds Δ for port permutations: Δ! renamings per node.
const maxPortSymmetry = 4

// Canonical computes canonical keys of a Symmetric system's states: two
// states get the same key exactly when one is a renaming of the other (of
// nodes and, when the system declares it, of each node's ports).
//
// The candidate renamings are narrowed in a way that does not depend on how
// the state happens to be named: for each node, only the port renamings that
// minimise its local key (its own state and bookkeeping, no other node's id);
// nodes ordered by that minimum, with every order tried among nodes whose
// minima tie. The least full key over these candidates is the canonical key.
// If s' is a renaming of s, the candidates of s' are those of s composed with
// that renaming, so both get the same key; and a key is always the key of a
// renaming of s, so states of different orbits never share one. It need not
// equal the least key over the whole group (BruteForce), but it induces the
// same partition, which the tests check.
type Canonical struct {
	sym   model.Symmetric
	delta int // Δ when ports are permuted too, else 0
	all   [][model.MaxPorts]model.Port
	sigs  [][]byte
	ties  [][][model.MaxPorts]model.Port // per node: port renamings reaching its least local key
	ord   []int
	perm  []model.NodeID
	ports [][model.MaxPorts]model.Port
	best  []byte
	tmp   []byte
	// local memoises each node's least local keys and the port renamings
	// reaching them, by the node's unrenamed local key (which determines
	// them): a few thousand distinct node states recur across millions of
	// states.
	local map[string]*localMin
}

// localMin is a node's least local key over its port renamings and the
// renamings that reach it.
type localMin struct {
	sig  []byte
	ties [][model.MaxPorts]model.Port
}

// maxLocalMemo bounds the memo; it is emptied when full.
const maxLocalMemo = 1 << 20

// NewCanonical returns a canonicaliser for sym. Not safe for concurrent use.
func NewCanonical(sym model.Symmetric) *Canonical {
	c := &Canonical{sym: sym}
	if d := sym.PortSymmetry(); d > 0 && d <= maxPortSymmetry {
		c.delta = d
		c.all = portPerms(d)
	}
	return c
}

// portPerms lists every renaming of ports 1..d (port 0 and ports above d
// stay put).
func portPerms(d int) [][model.MaxPorts]model.Port {
	var id [model.MaxPorts]model.Port
	for p := range id {
		id[p] = model.Port(p)
	}
	out := [][model.MaxPorts]model.Port{}
	var rec func(k int, cur [model.MaxPorts]model.Port)
	rec = func(k int, cur [model.MaxPorts]model.Port) {
		if k > d {
			out = append(out, cur)
			return
		}
		for i := k; i <= d; i++ {
			cur[k], cur[i] = cur[i], cur[k]
			rec(k+1, cur)
			cur[k], cur[i] = cur[i], cur[k]
		}
	}
	rec(1, id)
	return out
}

// AppendKey appends the canonical key of s to dst.
func (c *Canonical) AppendKey(dst []byte, s model.State) []byte {
	n := c.sym.NodeCount(s)
	if cap(c.sigs) < n {
		c.sigs = make([][]byte, n)
		c.ties = make([][][model.MaxPorts]model.Port, n)
		c.ord = make([]int, n)
		c.perm = make([]model.NodeID, n)
		c.ports = make([][model.MaxPorts]model.Port, n)
	}
	c.sigs, c.ties, c.ord, c.perm, c.ports = c.sigs[:n], c.ties[:n], c.ord[:n], c.perm[:n], c.ports[:n]
	for i := 0; i < n; i++ {
		c.ord[i] = i
		if c.delta == 0 {
			c.sigs[i] = c.sym.AppendNodeSignature(c.sigs[i][:0], s, model.NodeID(i))
			continue
		}
		lm := c.localMin(s, model.NodeID(i))
		c.sigs[i], c.ties[i] = lm.sig, lm.ties
	}
	// Insertion sort (stable; n is small and this runs for every successor).
	for a := 1; a < n; a++ {
		for b := a; b > 0 && bytes.Compare(c.sigs[c.ord[b]], c.sigs[c.ord[b-1]]) < 0; b-- {
			c.ord[b], c.ord[b-1] = c.ord[b-1], c.ord[b]
		}
	}
	c.best = c.best[:0]
	c.search(s, 0)
	return append(dst, c.best...)
}

// localMin returns node i's least local key over its port renamings, and
// the renamings reaching it. The result is shared: read only.
func (c *Canonical) localMin(s model.State, i model.NodeID) *localMin {
	c.tmp = c.sym.AppendLocalKey(c.tmp[:0], s, i, nil)
	if lm, ok := c.local[string(c.tmp)]; ok {
		return lm
	}
	if c.local == nil || len(c.local) >= maxLocalMemo {
		c.local = make(map[string]*localMin)
	}
	id := string(c.tmp)
	lm := &localMin{}
	for k := range c.all {
		c.tmp = c.sym.AppendLocalKey(c.tmp[:0], s, i, &c.all[k])
		switch cmp := bytes.Compare(c.tmp, lm.sig); {
		case len(lm.ties) == 0 || cmp < 0:
			lm.sig = append(lm.sig[:0], c.tmp...)
			lm.ties = append(lm.ties[:0], c.all[k])
		case cmp == 0:
			lm.ties = append(lm.ties, c.all[k])
		}
	}
	c.local[id] = lm
	return lm
}

// search tries every order of each run of equal signatures in c.ord,
// assigning positions from `from` on.
func (c *Canonical) search(s model.State, from int) {
	n := len(c.ord)
	if from == n {
		for pos, i := range c.ord {
			c.perm[i] = model.NodeID(pos)
		}
		if c.delta == 0 {
			c.offer(c.sym.AppendPermutedKey(c.tmp[:0], s, c.perm, nil))
			return
		}
		c.portSearch(s, 0)
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

// portSearch tries every combination of the nodes' tied port renamings.
func (c *Canonical) portSearch(s model.State, i int) {
	if i == len(c.ports) {
		c.offer(c.sym.AppendPermutedKey(c.tmp[:0], s, c.perm, c.ports))
		return
	}
	for _, p := range c.ties[i] {
		c.ports[i] = p
		c.portSearch(s, i+1)
	}
}

func (c *Canonical) offer(key []byte) {
	c.tmp = key
	if len(c.best) == 0 || bytes.Compare(key, c.best) < 0 {
		c.best = append(c.best[:0], key...)
	}
}

// BruteForce appends the least key of s over every renaming of nodes (and of
// each node's ports, when the system declares port symmetry): the reference
// the tests compare Canonical against. Only for small N and Δ.
func BruteForce(dst []byte, sym model.Symmetric, s model.State) []byte {
	var best, tmp []byte
	forEachRenaming(sym, sym.NodeCount(s), func(perm []model.NodeID, ports [][model.MaxPorts]model.Port) bool {
		tmp = sym.AppendPermutedKey(tmp[:0], s, perm, ports)
		if best == nil || bytes.Compare(tmp, best) < 0 {
			best = append(best[:0], tmp...)
		}
		return true
	})
	return append(dst, best...)
}
