package explore

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mxcheck/mxcheck/model"
)

// Swarm verification (Holzmann, Joshi and Groce, "Swarm verification
// techniques", IEEE TSE 2011): many independent depth-first searches of
// one configuration, each in its own order, run by any job runner with no
// coordination. Member 0 of a swarm is the sequential DFS exactly; every
// other member orders each state's new successors by weights drawn from
// its member seed: a weight per step class (node action, message delivery,
// request/exit call, adversary move) times a weight per action name, and a
// random key per successor (weighted random order without replacement,
// Efraimidis and Spirakis), drawn from the successor's fingerprint and the
// member seed, so the order is a function of the state and the member,
// never of the history or the machine. Members that differ in order reach
// different parts of a large state space first, so a swarm that is
// stopped by limits covers more of it than one search would; a swarm
// finds bugs and proves nothing.

// Storage is how a swarm member remembers the states it has seen.
type Storage uint8

const (
	// Exact keeps each state's fingerprint (Options.Fingerprint bits), as
	// check does: a search that runs to its end has reached every state
	// (up to the fingerprint collision probability).
	Exact Storage = iota
	// Bitstate sets BitstateHashes bits per state in an array of
	// 2^BitstateBits bits (SPIN's bitstate hashing, -w): a new state
	// whose bits are all set already is taken for seen and never
	// explored, so the search is incomplete by nature, in exchange for a
	// fixed, small seen-set.
	Bitstate
)

// String renders the storage as "exact" or "bitstate".
func (s Storage) String() string {
	if s == Bitstate {
		return "bitstate"
	}
	return "exact"
}

// BitstateHashes is the number of bits a state sets in the bitstate array
// (SPIN's default, -k3).
const BitstateHashes = 3

// MinBitstateBits and MaxBitstateBits bound SwarmMember.BitstateBits: an
// array of 1 KiB to 128 GiB.
const (
	MinBitstateBits = 13
	MaxBitstateBits = 40
)

// SwarmMember says which member of a swarm a search is and how it stores
// states. The zero Storage is Exact.
type SwarmMember struct {
	// Index is the member's number, 0 ≤ Index < Of; member 0 searches in
	// the sequential DFS's order.
	Index int
	// Of is the number of members of the swarm (at least 1).
	Of int
	// Seed is the swarm's seed; each member's order derives from (Seed,
	// Index, Of) alone (see MemberSeed).
	Seed uint64
	// Storage is Exact or Bitstate.
	Storage Storage
	// BitstateBits is log2 of the bitstate array's size in bits
	// (Bitstate only, MinBitstateBits..MaxBitstateBits).
	BitstateBits int
}

// validate checks m; the error is one line.
func (m SwarmMember) validate() error {
	switch {
	case m.Of < 1:
		return fmt.Errorf("a swarm has at least 1 member, got %d", m.Of)
	case m.Index < 0 || m.Index >= m.Of:
		return fmt.Errorf("member index %d is not in 0..%d (a swarm of %d)", m.Index, m.Of-1, m.Of)
	case m.Storage > Bitstate:
		return errors.New("unknown storage")
	case m.Storage == Bitstate && (m.BitstateBits < MinBitstateBits || m.BitstateBits > MaxBitstateBits):
		return fmt.Errorf("bitstate bits must be %d..%d (2^K bits), got %d", MinBitstateBits, MaxBitstateBits, m.BitstateBits)
	case m.Storage != Bitstate && m.BitstateBits != 0:
		return errors.New("bitstate bits apply to bitstate storage only")
	}
	return nil
}

// MemberSeed is the seed of member m's order: a fixed mix of the swarm's
// seed, the member's index and the swarm's size.
func (m SwarmMember) MemberSeed() uint64 {
	return splitmix64(m.Seed ^ splitmix64(uint64(m.Of)<<32|uint64(uint32(m.Index))))
}

// SwarmOrder describes a member's successor order.
type SwarmOrder struct {
	// Plain is true for member 0: the sequential DFS's order.
	Plain bool `json:"plain"`
	// Classes weighs each step class (ClassNames): node and delivery and
	// env 1..8, adversary 0..8 (0: after every other step).
	Classes map[string]int `json:"class_weights,omitempty"`
	// Actions weighs each action name 1..4 (systems that name their
	// actions, model.ActionNamer).
	Actions map[string]int `json:"action_weights,omitempty"`
}

// BitstateStats are the figures of a bitstate member's array.
type BitstateStats struct {
	// Bits is the size of the array (2^BitstateBits).
	Bits uint64 `json:"bits"`
	// Hashes is the number of bits a state sets (BitstateHashes).
	Hashes int `json:"hashes"`
	// Set is the number of bits set at the end.
	Set uint64 `json:"set"`
	// Omission is the probability that a new state is taken for seen at
	// the end of the search: (Set/Bits)^Hashes (it was lower before).
	Omission float64 `json:"omission_probability"`
}

// SwarmInfo is what a member's search adds to its Result.
type SwarmInfo struct {
	// MemberSeed is SwarmMember.MemberSeed.
	MemberSeed uint64
	// Order is the member's successor order.
	Order SwarmOrder
	// Bitstate holds the array's figures under Bitstate storage.
	Bitstate *BitstateStats
}

// CheckSwarm runs member m of a swarm: a sequential depth-first search of
// the checker's system in the member's order, with the member's storage.
// The checker's options must be a DFS with one worker and no liveness
// check. Limits, Continue, POR and symmetry apply as in a DFS. Under
// Bitstate storage a search that runs to its end may still have missed
// states: its verdict is Incomplete (limit "bitstate") unless a property
// is violated, and properties that held on the states it saw are Unknown.
// A panic in the system's code is returned as a *SpecPanic, as by Check.
func (c *Checker) CheckSwarm(m SwarmMember) (r *Result, info *SwarmInfo, err error) {
	if err := m.validate(); err != nil {
		return nil, nil, err
	}
	switch {
	case c.opt.Strategy != DFS:
		return nil, nil, errors.New("a swarm member searches depth-first: set Strategy to DFS")
	case c.opt.Workers > 1:
		return nil, nil, errors.New("a swarm member is one sequential search: use one worker (run more members instead)")
	case c.opt.Liveness:
		return nil, nil, errors.New("a swarm member checks invariants and deadlocks; liveness needs the whole state graph (use check --liveness)")
	}
	defer func() {
		if v := recover(); v != nil {
			r, info, err = nil, nil, c.specPanic(v)
		}
	}()
	r, info = c.swarm(m)
	return r, info, nil
}

// swarmKid is a new successor waiting to be pushed, with its sort key.
type swarmKid struct {
	entry
	key float64
}

// swarm is CheckSwarm's search: the DFS of dfs.go with the member's order
// and storage.
func (c *Checker) swarm(m SwarmMember) (*Result, *SwarmInfo) {
	s := c.newSearch()
	wide := c.opt.Fingerprint == 128
	var store swarmStore = newSeenSet(wide)
	var bs *bitstate
	if m.Storage == Bitstate {
		bs = newBitstate(m.BitstateBits, m.MemberSeed())
		store = bs
	}
	s.seenBytes = store.bytes
	ord := newSwarmOrder(c.sys, m)
	var stack []entry
	var kids []swarmKid
	s.queue = func() int { return len(stack) }
	push := func() {
		ord.sort(kids)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i].entry)
		}
	}
	for i, st := range c.sys.Init() {
		f := s.fingerprint(st)
		if !store.insert(f) {
			continue
		}
		id := s.addLink(link{noParent, uint32(i)})
		s.checkNew(s.x, st, id, 0)
		kids = append(kids, swarmKid{entry: entry{st: c.sys.Clone(st), id: id}, key: ord.key(f, model.Transition{}, true)})
		if s.stop {
			break
		}
	}
	push()
	for len(stack) > 0 && !s.stop {
		e := stack[len(stack)-1]
		stack[len(stack)-1] = entry{}
		stack = stack[:len(stack)-1]
		kids = kids[:0]
		s.swarmExpand(store, ord, e, &kids)
		push()
	}
	r := s.result()
	info := &SwarmInfo{MemberSeed: m.MemberSeed(), Order: ord.describe()}
	if bs != nil {
		info.Bitstate = bs.stats()
		bitstateVerdict(r)
	}
	return r, info
}

// swarmExpand is search.expand with the member's store, collecting the new
// successors of e in kids with their order keys.
func (s *search) swarmExpand(store swarmStore, ord *swarmOrder, e entry, kids *[]swarmKid) {
	s.tick()
	if s.stop {
		return
	}
	s.at = panicSite{id: e.id, valid: true}
	cut := s.c.opt.MaxDepth > 0 && e.depth >= s.c.opt.MaxDepth
	ample := -1
	if s.c.opt.POR {
		// A state the store takes for seen only makes the proviso stricter.
		ample = s.ampleNode(s.x, e.st, store.contains)
	}
	n, dead := s.x.expand(e.st, ample, !cut, s.props.checkDeadlock(), func(sc *succ) bool {
		if cut {
			if s.limit == "" {
				s.limit = "max-depth"
			}
			return true
		}
		if !store.insert(sc.fp) {
			return !s.stop
		}
		id := s.addLink(link{e.id, sc.ord})
		d := e.depth + 1
		s.depth = max(s.depth, d)
		s.checkNew(s.x, sc.next, id, d)
		*kids = append(*kids, swarmKid{entry: entry{st: s.x.h.Clone(sc.next), id: id, depth: d}, key: ord.key(sc.fp, sc.t, false)})
		return !s.stop
	})
	s.trans += int64(n)
	if dead && !s.stop && s.props.deadlocked(e.id, e.depth) {
		s.stop = true
	}
	s.at.valid = false
}

// bitstateVerdict makes a bitstate search's result say what it can: it may
// have missed states, so nothing it did not see violated is proven.
func bitstateVerdict(r *Result) {
	if r.Verdict == Verified || r.Verdict == Unreached {
		r.Verdict = Incomplete
	}
	if r.Limit == "" {
		r.Limit = "bitstate"
	}
	r.Exhausted = false
	for i, p := range r.Properties {
		if p.Status == Holds && p.Kind != model.Sometimes || p.Status == NeverReached {
			r.Properties[i].Status = Unknown
		}
	}
}

// swarmStore is a member's seen-set.
type swarmStore interface {
	insert(f fingerprint) bool
	contains(f fingerprint) bool
	bytes() int64
}

// bitstate is a bit array of 2^k bits; a state sets BitstateHashes bits
// picked by double hashing of its fingerprint, salted by the member seed
// (so members miss different states).
type bitstate struct {
	bits []uint64
	mask uint64
	salt uint64
	set  uint64
}

func newBitstate(k int, salt uint64) *bitstate {
	return &bitstate{bits: make([]uint64, (uint64(1)<<k)/64), mask: uint64(1)<<k - 1, salt: salt}
}

// index is the j-th bit of f.
func (b *bitstate) index(f fingerprint, j int) uint64 {
	h1 := splitmix64(f.lo ^ b.salt)
	h2 := splitmix64(h1^f.hi) | 1
	return (h1 + uint64(j)*h2) & b.mask
}

// insert sets f's bits and reports whether any was clear.
func (b *bitstate) insert(f fingerprint) bool {
	isNew := false
	for j := 0; j < BitstateHashes; j++ {
		i := b.index(f, j)
		if w, bit := &b.bits[i>>6], uint64(1)<<(i&63); *w&bit == 0 {
			*w |= bit
			b.set++
			isNew = true
		}
	}
	return isNew
}

func (b *bitstate) contains(f fingerprint) bool {
	for j := 0; j < BitstateHashes; j++ {
		i := b.index(f, j)
		if b.bits[i>>6]&(uint64(1)<<(i&63)) == 0 {
			return false
		}
	}
	return true
}

func (b *bitstate) bytes() int64 { return int64(len(b.bits)) * 8 }

func (b *bitstate) stats() *BitstateStats {
	n := b.mask + 1
	return &BitstateStats{Bits: n, Hashes: BitstateHashes, Set: b.set,
		Omission: math.Pow(float64(b.set)/float64(n), BitstateHashes)}
}

// swarmOrder orders a state's new successors for one member.
type swarmOrder struct {
	plain   bool
	seed    uint64
	classes [numClasses]int
	namer   model.ActionNamer
	actions map[string]int
}

func newSwarmOrder(sys model.System, m SwarmMember) *swarmOrder {
	o := &swarmOrder{plain: m.Index == 0, seed: m.MemberSeed()}
	if o.plain {
		return o
	}
	g := newGen(o.seed)
	for c := range o.classes {
		if c == classAdversary {
			o.classes[c] = g.intn(maxWeight + 1)
		} else {
			o.classes[c] = 1 + g.intn(maxWeight)
		}
	}
	if n, ok := sys.(model.ActionNamer); ok {
		o.namer = n
		o.actions = map[string]int{}
		for _, name := range n.ActionNames() {
			if _, dup := o.actions[name]; !dup {
				o.actions[name] = 1 + g.intn(4)
			}
		}
	}
	return o
}

// key is the sort key of a successor with fingerprint f reached by t (an
// initial state when init): ascending keys are a weighted random order
// without replacement (Efraimidis–Spirakis: -ln(u)/w), +Inf for weight 0.
func (o *swarmOrder) key(f fingerprint, t model.Transition, init bool) float64 {
	if o.plain {
		return 0
	}
	w := 1
	if !init {
		w = o.classes[o.class(t)]
		if o.namer != nil {
			if a, ok := o.actions[o.namer.ActionName(t)]; ok {
				w *= a
			}
		}
	}
	if w == 0 {
		return math.Inf(1)
	}
	u := (float64(splitmix64(f.lo^f.hi^o.seed)>>11) + 0.5) / (1 << 53)
	return -math.Log(u) / float64(w)
}

func (o *swarmOrder) class(t model.Transition) int {
	switch t.Kind {
	case model.EnvStep:
		return classEnv
	case model.AdversaryStep:
		return classAdversary
	}
	if o.namer != nil && o.namer.Delivery(t) {
		return classDelivery
	}
	return classNode
}

// sort puts kids in the member's order (stable: equal keys keep the order
// of generation, so member 0 keeps the sequential DFS's).
func (o *swarmOrder) sort(kids []swarmKid) {
	if o.plain || len(kids) < 2 {
		return
	}
	slices.SortStableFunc(kids, func(a, b swarmKid) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
}

func (o *swarmOrder) describe() SwarmOrder {
	d := SwarmOrder{Plain: o.plain}
	if o.plain {
		return d
	}
	d.Classes = map[string]int{}
	for c, w := range o.classes {
		d.Classes[ClassNames[c]] = w
	}
	if len(o.actions) > 0 {
		d.Actions = o.actions
	}
	return d
}
