package reduce

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/mxcheck/mxcheck/model"
)

// maxPortSymmetry bounds Δ for port permutations: Δ! renamings per node.
const maxPortSymmetry = 4

// Canonical computes canonical keys of a Symmetric system's states: two
// states get the same key exactly when one is a renaming of the other (of
// nodes and, when the system declares it, of each node's ports), as long as
// the work per state stays within MaxKeysPerState (see below).
//
// The candidate renamings are narrowed in a way that does not depend on how
// the state happens to be named, as nauty-style canonical labelling does:
// for each node, only the port renamings that minimise its local key (its
// own state and bookkeeping, no other node's id); nodes coloured by that
// minimum, then the colours refined by each node's relations to the others
// (links, membership entries, messages, when the system reports them:
// model.NodeRelations) until stable; then, while some colour holds several
// nodes, each of them in turn is individualised (given a colour of its own)
// and the colours refined again, which branches into a search tree whose
// leaves order every node. At each leaf, each node's tied port renamings
// are narrowed to those under which its ports lead to the least new
// neighbour names (model.PortLinker). The least full key over the leaves
// is the canonical key. If s' is a renaming of s, the tree of s' is that of s
// composed with the renaming, so both get the same key; and a key is always
// the key of a renaming of s, so states of different orbits never share
// one. It need not equal the least key over the whole group (BruteForce),
// but it induces the same partition, which the tests check.
//
// When a state's tree (times its nodes' tied port renamings) needs more
// than MaxKeysPerState keys, the search stops there and the least key found
// so far is used: still the key of a renaming of s, so still sound (two
// different orbits never merge), but two renamings of one state may then
// get different keys, so a search may count one orbit more than once.
// Bounded counts such states. Stop, when set, is polled during the search
// and ends it the same way.
type Canonical struct {
	sym   model.Symmetric
	rel   model.NodeRelations // nil when the system reports no relations
	links model.PortLinker    // nil when the system reports no port links
	delta int                 // Δ when ports are permuted too, else 0
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

	// the tree search
	rels    [][]model.Relation // per node, for the state at hand
	colours [][]uint32         // per tree depth
	rkeys   [][]byte           // per node: refinement key
	pairs   []uint32
	pties   [][][model.MaxPorts]model.Port // per node: its ties left at a leaf
	pbuf    [][][model.MaxPorts]model.Port // pties' own storage
	keys    int                            // keys computed for the state at hand
	cut     bool                           // the state's search was cut short
	stopped bool

	// Bounded is the number of states whose search was cut short by
	// MaxKeysPerState or Stop: their keys are sound but maybe not
	// canonical.
	Bounded int64
	// Stop, if not nil, is polled every 64 keys; once it returns true,
	// every search is cut short (the caller is stopping anyway).
	Stop func() bool
	// MaxKeys bounds the keys per state; 0 means MaxKeysPerState.
	MaxKeys int
}

// MaxKeysPerState bounds the renamed keys computed for one state: beyond
// it the least key so far is used (see Canonical).
const MaxKeysPerState = 512

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
	c.rel, _ = sym.(model.NodeRelations)
	c.links, _ = sym.(model.PortLinker)
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
		c.rels = make([][]model.Relation, n)
		c.pties = make([][][model.MaxPorts]model.Port, n)
		c.pbuf = make([][][model.MaxPorts]model.Port, n)
		c.rkeys = make([][]byte, n)
	}
	c.sigs, c.ties, c.ord, c.perm, c.ports = c.sigs[:n], c.ties[:n], c.ord[:n], c.perm[:n], c.ports[:n]
	c.rels, c.rkeys, c.pties, c.pbuf = c.rels[:n], c.rkeys[:n], c.pties[:n], c.pbuf[:n]
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
	col := c.level(0, n)
	rank := uint32(0)
	for k, i := range c.ord {
		if k > 0 && !bytes.Equal(c.sigs[i], c.sigs[c.ord[k-1]]) {
			rank++
		}
		col[i] = rank
	}
	c.best, c.keys, c.cut = c.best[:0], 0, false
	if int(rank)+1 < n && c.rel != nil {
		for i := 0; i < n; i++ {
			c.rels[i] = c.rel.AppendRelations(c.rels[i][:0], s, model.NodeID(i))
		}
		c.refine(col)
	}
	c.search(s, 0)
	if c.cut {
		c.Bounded++
	}
	return append(dst, c.best...)
}

// level returns the colour slice of tree depth d, sized n.
func (c *Canonical) level(d, n int) []uint32 {
	for len(c.colours) <= d {
		c.colours = append(c.colours, nil)
	}
	if cap(c.colours[d]) < n {
		c.colours[d] = make([]uint32, n)
	}
	c.colours[d] = c.colours[d][:n]
	return c.colours[d]
}

// refine splits colours by relations until stable: a node's new colour is
// the rank of (its colour, the sorted kinds and colours of its related
// nodes) among all nodes'. Colours stay dense (0..k-1) and only split, in
// an order that does not depend on node names.
func (c *Canonical) refine(col []uint32) {
	n := len(col)
	distinct := countColours(col)
	for distinct < n {
		for i := 0; i < n; i++ {
			c.pairs = c.pairs[:0]
			for _, r := range c.rels[i] {
				c.pairs = append(c.pairs, uint32(r.Kind)<<24|col[r.Node])
			}
			slices.Sort(c.pairs)
			k := binary.BigEndian.AppendUint32(c.rkeys[i][:0], col[i])
			for _, p := range c.pairs {
				k = binary.BigEndian.AppendUint32(k, p)
			}
			c.rkeys[i] = k
		}
		for i := range c.ord {
			c.ord[i] = i
		}
		for a := 1; a < n; a++ {
			for b := a; b > 0 && bytes.Compare(c.rkeys[c.ord[b]], c.rkeys[c.ord[b-1]]) < 0; b-- {
				c.ord[b], c.ord[b-1] = c.ord[b-1], c.ord[b]
			}
		}
		rank := uint32(0)
		for k, i := range c.ord {
			if k > 0 && !bytes.Equal(c.rkeys[i], c.rkeys[c.ord[k-1]]) {
				rank++
			}
			col[i] = rank
		}
		if int(rank)+1 == distinct {
			return
		}
		distinct = int(rank) + 1
	}
}

func countColours(col []uint32) int {
	m := uint32(0)
	for _, x := range col {
		m = max(m, x)
	}
	return int(m) + 1
}

// exhausted reports whether the state's search must stop (after at least
// one key).
func (c *Canonical) exhausted() bool {
	if len(c.best) == 0 {
		return false
	}
	max := c.MaxKeys
	if max <= 0 {
		max = MaxKeysPerState
	}
	if c.keys >= max || c.stopped {
		c.cut = true
		return true
	}
	return false
}

// search walks the individualisation tree below the colouring of depth d.
func (c *Canonical) search(s model.State, d int) {
	col := c.colours[d]
	n := len(col)
	var count [model.MaxNodes]int
	for _, x := range col {
		count[x]++
	}
	target := -1
	for k := 0; k < n; k++ {
		if count[k] > 1 {
			target = k
			break
		}
	}
	if target < 0 {
		for i, x := range col {
			c.perm[i] = model.NodeID(x)
		}
		if c.delta == 0 {
			c.offer(c.sym.AppendPermutedKey(c.tmp[:0], s, c.perm, nil))
			return
		}
		c.narrowPorts(s)
		c.portSearch(s, 0)
		return
	}
	t := uint32(target)
	for v := 0; v < n; v++ {
		if col[v] != t {
			continue
		}
		if c.exhausted() {
			return
		}
		next := c.level(d+1, n)
		for i, x := range c.colours[d] {
			switch {
			case i == v || x < t:
				next[i] = x
			default:
				next[i] = x + 1
			}
		}
		if c.rel != nil {
			c.refine(next)
		}
		c.search(s, d+1)
		col = c.colours[d] // level may have grown c.colours
	}
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

// narrowPorts sets c.pties: for each node, those of its tied port renamings
// under which its ports, in order, lead to the least new neighbour names
// (c.perm). With the node order fixed this choice does not depend on how
// the state is named, so keys stay canonical; and a ring or path of
// identical nodes then has one port renaming per node instead of 2^N
// combinations.
func (c *Canonical) narrowPorts(s model.State) {
	for i := range c.pties {
		ties := c.ties[i]
		if len(ties) <= 1 || c.links == nil {
			c.pties[i] = ties
			continue
		}
		var orig, best [model.MaxPorts]uint16
		for o := 1; o <= c.delta; o++ {
			if v, ok := c.links.PortLink(s, model.NodeID(i), model.Port(o)); ok {
				orig[o] = uint16(c.perm[v]) + 1
			}
		}
		c.pties[i] = c.pbuf[i][:0] // never the memoised ties' array
		for _, p := range ties {
			var prof [model.MaxPorts]uint16
			for o := 1; o <= c.delta; o++ {
				prof[p[o]] = orig[o]
			}
			switch cmp := slices.Compare(prof[1:c.delta+1], best[1:c.delta+1]); {
			case len(c.pties[i]) == 0 || cmp < 0:
				best = prof
				c.pties[i] = append(c.pties[i][:0], p)
			case cmp == 0:
				c.pties[i] = append(c.pties[i], p)
			}
		}
		c.pbuf[i] = c.pties[i]
	}
}

// portSearch tries every combination of the nodes' tied port renamings.
func (c *Canonical) portSearch(s model.State, i int) {
	if i == len(c.ports) {
		c.offer(c.sym.AppendPermutedKey(c.tmp[:0], s, c.perm, c.ports))
		return
	}
	for _, p := range c.pties[i] {
		if c.exhausted() {
			return
		}
		c.ports[i] = p
		c.portSearch(s, i+1)
	}
}

func (c *Canonical) offer(key []byte) {
	c.tmp = key
	c.keys++
	if c.Stop != nil && c.keys%64 == 0 && c.Stop() {
		c.stopped = true
	}
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
