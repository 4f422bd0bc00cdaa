package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Adversary move types, stored in Transition.Action for AdversaryStep.
const (
	MoveConnect uint8 = iota
	MoveDisconnect
	MoveRemove
	MoveRestore
	MoveCrash
)

// Machine is a Protocol compiled with a Config: a System (with Worker and
// Describer) whose states are *World[N, M].
type Machine[N Value, M Message] struct {
	p   *Protocol[N, M]
	cfg Config
	inv []Invariant
	pad padMasks // for AppendState (codec.go)
}

// handle is a Machine's per-goroutine handle (model.Handle): its own
// successor scratch and clone arena, so that a search's hot path neither
// locks nor allocates per state.
type handle[N Value, M Message] struct {
	m     *Machine[N, M]
	sc    scratch[N, M]
	arena arena[N, M] // backs the states Clone returns: one allocation per few hundred states
}

// NewHandle returns a handle for one goroutine.
func (m *Machine[N, M]) NewHandle() Handle { return &handle[N, M]{m: m} }

// Successors is Machine.Successors with the handle's scratch.
func (h *handle[N, M]) Successors(s State, yield func(Transition, State) bool) {
	h.m.successors(&h.sc, s, yield)
}

// Clone copies a state into the handle's arena.
func (h *handle[N, M]) Clone(s State) State { return h.arena.clone(s.(*World[N, M])) }

// scratch is the reusable storage of one Successors call.
type scratch[N Value, M Message] struct {
	next  World[N, M]
	c     Ctx[N, M]
	hint  keyHint
	inbox [MaxNodes + 1]int // inboxes' ranges
	at    actionAt
	yield func(Transition, State) bool // the caller's
}

// yieldStep hands a node step's successor to the caller, marking that the
// caller's code runs (its panics are its own).
func (sc *scratch[N, M]) yieldStep(t Transition, s State) bool {
	sc.at.yielding = true
	ok := sc.yield(t, s)
	sc.at.yielding = false
	return ok
}

// recoverAction turns a panic in an action into an *ActionPanic naming it.
func (m *Machine[N, M]) recoverAction(sc *scratch[N, M]) {
	if r := recover(); r != nil {
		if sc.at.yielding || !sc.at.running {
			panic(r)
		}
		panic(&ActionPanic{Node: sc.at.u, Action: m.p.Actions[sc.at.ai].Name, Value: r})
	}
}

// Compile checks c and returns the transition system of p under c. The error
// describes an impossible configuration in one line.
func Compile[N Value, M Message](p *Protocol[N, M], c Config) (*Machine[N, M], error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	m := &Machine[N, M]{p: p, cfg: c}
	if m.Encodable() {
		m.pad = padMasksOf[N, M](c.Nodes)
	} else if p.RawKey {
		return nil, fmt.Errorf("protocol %s: RawKey needs node states and messages without pointers", p.Name)
	}
	for _, iv := range p.Invariants {
		if iv.Expect != Always && iv.Expect != Sometimes {
			return nil, fmt.Errorf("property %s: a state property is always or sometimes, not %s", iv.Name, iv.Expect)
		}
		holds := iv.Holds
		m.inv = append(m.inv, Invariant{Name: iv.Name, Holds: func(s State) bool { return holds(s.(*World[N, M])) }, Expect: iv.Expect})
	}
	sort.Slice(m.inv, func(i, j int) bool { return m.inv[i].Name < m.inv[j].Name })
	return m, nil
}

// Init returns the single initial state.
func (m *Machine[N, M]) Init() []State { return []State{initialWorld(m.p, &m.cfg)} }

// Clone copies a state. Safe for concurrent use; a search clones through
// its handles instead.
func (m *Machine[N, M]) Clone(s State) State {
	w := s.(*World[N, M])
	c := &World[N, M]{Budget: w.Budget, Nodes: slices.Clone(w.Nodes), Meta: slices.Clone(w.Meta)}
	if len(w.Msgs) > 0 {
		c.Msgs = slices.Clone(w.Msgs)
	}
	return c
}

// AppendKey appends the canonical key of s: its encoding, or its bytes
// when the protocol declares RawKey.
func (m *Machine[N, M]) AppendKey(dst []byte, s State) []byte {
	if m.p.RawKey {
		return m.AppendState(dst, s)
	}
	return s.(*World[N, M]).appendKey(dst, m.cfg.Delta)
}

// RawKey reports whether states are keyed by their bytes (Protocol.RawKey).
func (m *Machine[N, M]) RawKey() bool { return m.p.RawKey }

// EncodedKey appends the encoding of s that AppendKey writes without
// RawKey, for checking the declaration (reduce.CheckRawKey).
func (m *Machine[N, M]) EncodedKey(dst []byte, s State) []byte {
	return s.(*World[N, M]).appendKey(dst, m.cfg.Delta)
}

// Invariants returns the protocol's invariants sorted by name.
func (m *Machine[N, M]) Invariants() []Invariant { return m.inv }

// Explain says why s violates invariant prop, when the protocol can tell.
func (m *Machine[N, M]) Explain(s State, prop string) string {
	if prop == DeadlockProperty {
		return m.explainDeadlock(s.(*World[N, M]))
	}
	for _, iv := range m.p.Invariants {
		if iv.Name == prop && iv.Explain != nil {
			return iv.Explain(s.(*World[N, M]))
		}
	}
	return ""
}

// explainDeadlock names the live nodes with pending work in a deadlocked
// state and, when some node has crashed, each one's distance to the
// nearest crash (the failure-locality claims of seed 001 are about it);
// excused nodes are listed apart.
func (m *Machine[N, M]) explainDeadlock(w *World[N, M]) string {
	if m.p.Pending == nil {
		return ""
	}
	crashed := false
	for i := range w.Meta {
		crashed = crashed || w.Meta[i].Crashed
	}
	var stuck, excused []string
	for i := range w.Nodes {
		id := NodeID(i)
		if w.Meta[i].Crashed || !m.p.Pending(&w.Nodes[i]) {
			continue
		}
		name := id.String()
		if crashed {
			if d := w.CrashDistance(id); d >= 0 {
				name += fmt.Sprintf(" (crash %d links away)", d)
			} else {
				name += " (no crashed node reachable)"
			}
		}
		if m.p.Excused != nil && m.p.Excused(w, id) {
			excused = append(excused, name)
		} else {
			stuck = append(stuck, name)
		}
	}
	if len(stuck) == 0 {
		return ""
	}
	out := "waiting forever: " + strings.Join(stuck, ", ")
	if len(excused) > 0 {
		out += "; excused by the failure locality: " + strings.Join(excused, ", ")
	}
	return out
}

// DOT renders the graph invariant prop inspects in s.
func (m *Machine[N, M]) DOT(s State, prop string) string {
	for _, iv := range m.p.Invariants {
		if iv.Name == prop && iv.DOT != nil {
			return iv.DOT(s.(*World[N, M]))
		}
	}
	return ""
}

// Notes returns the protocol's notes on this configuration.
func (m *Machine[N, M]) Notes() []string {
	if m.p.Notes == nil {
		return nil
	}
	return m.p.Notes(&m.cfg)
}

// Hungry returns the live nodes waiting for the CS.
func (m *Machine[N, M]) Hungry(s State) NodeSet {
	var out NodeSet
	if m.p.Hungry == nil {
		return out
	}
	w := s.(*World[N, M])
	if m.p.HungryWorld != nil && !m.p.HungryWorld(w) {
		return out
	}
	for i := range w.Nodes {
		if !w.Meta[i].Crashed && m.p.Hungry(&w.Nodes[i]) {
			out = out.Add(NodeID(i))
		}
	}
	return out
}

// LivenessProperty names the protocol's liveness property, or returns "" when
// it makes no liveness claim (no Hungry predicate).
func (m *Machine[N, M]) LivenessProperty() string {
	switch {
	case m.p.Hungry == nil:
		return ""
	case m.p.Liveness != "":
		return m.p.Liveness
	}
	return "starvation-freedom"
}

// FairClass appends the weak-fairness class of t from s (see Fair).
func (m *Machine[N, M]) FairClass(dst []byte, s State, t Transition) ([]byte, bool) {
	if t.Kind == AdversaryStep {
		return dst, false
	}
	a := &m.p.Actions[t.Action]
	switch a.Kind {
	case Request:
		return dst, false
	case Receive:
		w := s.(*World[N, M])
		e := &w.Msgs[t.Msg]
		dst = append(dst, 'm', byte(e.From), byte(e.To), byte(e.FromPort)<<4|byte(e.ToPort))
		return e.Msg.AppendKey(dst), true
	}
	return append(dst, 'a', byte(t.Node), t.Action), true
}

// Pending reports whether some live node has unfinished work.
func (m *Machine[N, M]) Pending(s State) bool {
	w := s.(*World[N, M])
	if m.p.PendingWorld != nil {
		return m.p.PendingWorld(w)
	}
	if m.p.Pending == nil {
		return false
	}
	for i := range w.Nodes {
		if !w.Meta[i].Crashed && m.p.Pending(&w.Nodes[i]) && (m.p.Excused == nil || !m.p.Excused(w, NodeID(i))) {
			return true
		}
	}
	return false
}

// Successors enumerates, in this order: for each node and each action in
// declaration order, the action's enabled instances (one per distinct
// deliverable message for Receive actions, one per random outcome); then the
// adversary's moves. Each call has its own scratch, so calls may nest and
// run concurrently; a search enumerates through its handles instead.
func (m *Machine[N, M]) Successors(s State, yield func(Transition, State) bool) {
	m.successors(new(scratch[N, M]), s, yield)
}

// successors is Successors with the given scratch.
func (m *Machine[N, M]) successors(sc *scratch[N, M], s State, yield func(Transition, State) bool) {
	w := s.(*World[N, M])
	next, c := &sc.next, &sc.c
	*c = Ctx[N, M]{m: m}
	next.hint = nil
	if !m.p.RawKey {
		recordHint(&sc.hint, w, m.cfg.Delta)
		next.hint = &sc.hint
	} else if next.flat == nil && flatLayout[N, M](len(w.Nodes)) {
		next.layFlat(len(w.Nodes), 2*(len(w.Msgs)+flatSlack))
	}
	sc.at, sc.yield = actionAt{}, yield
	defer m.recoverAction(sc)
	inbox := inboxes(w, &sc.inbox)
	for u := range w.Nodes {
		if w.Meta[u].Crashed {
			continue
		}
		for ai := range m.p.Actions {
			sc.at = actionAt{u: NodeID(u), ai: ai, running: true}
			if !m.nodeAction(w, next, sc, NodeID(u), ai, inbox[u], inbox[u+1]) {
				return
			}
		}
	}
	sc.at.running = false
	if next.hint != nil {
		next.hint.dirty = allDirty // an adversary move may change any node's bookkeeping
	}
	if assume := m.p.Assume; assume != nil {
		m.adversary(w, next, func(t Transition, s State) bool {
			return !assume(s.(*World[N, M])) || yield(t, s)
		})
		return
	}
	m.adversary(w, next, yield)
}

// nodeAction yields every enabled instance of action ai at node u.
// Only messages lo..hi-1 (see inboxes) can be addressed to u.
func (m *Machine[N, M]) nodeAction(w, next *World[N, M], sc *scratch[N, M], u NodeID, ai, lo, hi int) bool {
	a := &m.p.Actions[ai]
	kind := NodeStep
	switch a.Kind {
	case Request:
		kind = EnvStep
		if int(w.Meta[u].Requests) >= m.cfg.Requests {
			return true
		}
	case Exit:
		kind = EnvStep
	case Receive:
		for mi := lo; mi < hi; mi++ {
			e := &w.Msgs[mi]
			if e.To != u {
				continue
			}
			if mi > 0 && w.Msgs[mi-1] == *e {
				continue // an identical copy was just tried
			}
			if m.p.FIFO && mi > 0 && compareEnv(&w.Msgs[mi-1], e, true, nil) == 0 {
				continue // not the head of its channel
			}
			if a.On != nil && !a.On(e.Msg) {
				continue
			}
			if !m.fire(w, next, sc, u, ai, mi, kind) {
				return false
			}
		}
		return true
	}
	return m.fire(w, next, sc, u, ai, -1, kind)
}

// inboxes sets b[u]..b[u+1]-1 to the messages in transit to node u: the
// canonical order puts them together, by receiver. Should the list not be
// in that order, every node's range is the whole list.
func inboxes[N Value, M Message](w *World[N, M], b *[MaxNodes + 1]int) *[MaxNodes + 1]int {
	k := 0
	for u := range w.Nodes {
		b[u] = k
		for k < len(w.Msgs) && int(w.Msgs[k].To) == u {
			k++
		}
	}
	b[len(w.Nodes)] = k
	if k != len(w.Msgs) {
		for u := range w.Nodes {
			b[u], b[u+1] = 0, len(w.Msgs)
		}
	}
	return b
}

// fire checks the guard of action ai at u (receiving message mi if mi ≥ 0)
// and yields one successor per outcome of its random draws.
func (m *Machine[N, M]) fire(w, next *World[N, M], sc *scratch[N, M], u NodeID, ai, mi int, kind StepKind) bool {
	a, c := &m.p.Actions[ai], &sc.c
	c.reset(m, w, u, w.Meta[u].D, false, [maxChoices]uint8{})
	if mi >= 0 {
		c.env = &w.Msgs[mi]
	}
	if a.Guard != nil && !a.Guard(c, &w.Nodes[u]) {
		return true
	}
	var choice [maxChoices]uint8
	// The transition is written before the loop, and in it only when the
	// step draws: the yield's copy of it, one 16-byte load, then reads
	// bytes stored long before rather than just now one by one (which
	// the processor cannot forward to it: that stall was a fifth of
	// fire's time).
	t := Transition{Kind: kind, Node: u, Action: uint8(ai)}
	if mi >= 0 {
		t.Msg = uint16(mi)
	}
	for {
		next.copyWithout(w, mi)
		c.reset(m, next, u, w.Meta[u].D, true, choice)
		if mi >= 0 {
			c.recv = w.Msgs[mi]
			c.env = &c.recv
		}
		next.Meta[u].D = 0
		if a.Kind == Request {
			next.Meta[u].Requests++
		}
		a.Do(c, &next.Nodes[u])
		if c.nchoice > 0 || t.Choices > 0 {
			var drawn uint32
			for k := 0; k < c.nchoice; k++ {
				drawn |= uint32(c.choice[k]) << (8 * k)
			}
			t.Choices, t.Choice = uint8(c.nchoice), drawn
		}
		if next.hint != nil {
			next.hint.dirty = 1 << u // a node step changes only its own node
		}
		if !sc.yieldStep(t, next) {
			return false
		}
		// Advance the odometer over the draws this run made.
		k := c.nchoice - 1
		for k >= 0 && c.choice[k]+1 >= c.radix[k] {
			k--
		}
		if k < 0 {
			return true
		}
		choice = c.choice
		choice[k]++
		for j := k + 1; j < maxChoices; j++ {
			choice[j] = 0
		}
	}
}

// adversary yields every move the remaining budget allows.
func (m *Machine[N, M]) adversary(w, next *World[N, M], yield func(Transition, State) bool) {
	n := len(w.Nodes)
	b := w.Budget
	if b.Connects > 0 {
		for u := 0; u < n; u++ {
			for v := u + 1; v < n; v++ {
				if w.Meta[u].Crashed || w.Meta[v].Crashed || m.linked(w, NodeID(u), NodeID(v)) {
					continue
				}
				for p := 1; p <= m.cfg.Delta; p++ {
					if !m.freePort(w, NodeID(u), Port(p)) {
						continue
					}
					for q := 1; q <= m.cfg.Delta; q++ {
						if !m.freePort(w, NodeID(v), Port(q)) {
							continue
						}
						for static := 0; static <= 1; static++ {
							if static == staticArg && m.p.Links.LinkUp == nil {
								break
							}
							next.copyFrom(w)
							next.Budget.Connects--
							next.Meta[u].Links[p] = makeLink(NodeID(v), Port(q))
							next.Meta[v].Links[q] = makeLink(NodeID(u), Port(p))
							if m.p.Links.LinkUp != nil {
								m.notifyUp(next, NodeID(u), Port(p), NodeID(v), Port(q), [2]NodeID{NodeID(u), NodeID(v)}[static])
							}
							t := Transition{Kind: AdversaryStep, Node: NodeID(u), Action: MoveConnect, Msg: uint16(static), Arg: [3]uint8{uint8(p), uint8(v), uint8(q)}}
							if !yield(t, next) {
								return
							}
						}
					}
				}
			}
		}
	}
	if b.Disconnects > 0 {
		for u := 0; u < n; u++ {
			for p := 1; p <= m.cfg.Delta; p++ {
				l := w.Meta[u].Links[p]
				if !l.Up() || int(l.Node()) < u {
					continue
				}
				v, q := l.Node(), l.Port()
				next.copyFrom(w)
				next.Budget.Disconnects--
				next.Meta[u].Links[p] = noLink
				next.Meta[v].Links[q] = noLink
				next.dropEdge(NodeID(u), Port(p), v, q)
				if m.p.Links.LinkDown != nil {
					m.notifyDown(next, NodeID(u), Port(p), v, q)
				} else {
					next.Meta[u].D = next.Meta[u].D.Add(Port(p))
					next.Meta[v].D = next.Meta[v].D.Add(q)
				}
				t := Transition{Kind: AdversaryStep, Node: NodeID(u), Action: MoveDisconnect, Arg: [3]uint8{uint8(p), uint8(v), uint8(q)}}
				if !yield(t, next) {
					return
				}
			}
		}
	}
	if b.Removes > 0 {
		for i := 0; i < n; i++ {
			for _, j := range w.Meta[i].Members.Remove(NodeID(i)).All() {
				next.copyFrom(w)
				next.Budget.Removes--
				next.Meta[i].Members = next.Meta[i].Members.Remove(j)
				next.Meta[i].Removed = next.Meta[i].Removed.Add(j)
				t := Transition{Kind: AdversaryStep, Node: NodeID(i), Action: MoveRemove, Arg: [3]uint8{0, uint8(j), 0}}
				if !yield(t, next) {
					return
				}
			}
		}
	}
	if b.Restores > 0 {
		for i := 0; i < n; i++ {
			for _, j := range w.Meta[i].Removed.All() {
				next.copyFrom(w)
				next.Budget.Restores--
				next.Meta[i].Members = next.Meta[i].Members.Add(j)
				next.Meta[i].Removed = next.Meta[i].Removed.Remove(j)
				t := Transition{Kind: AdversaryStep, Node: NodeID(i), Action: MoveRestore, Arg: [3]uint8{0, uint8(j), 0}}
				if !yield(t, next) {
					return
				}
			}
		}
	}
	if b.Crashes > 0 {
		for u := 0; u < n; u++ {
			if w.Meta[u].Crashed {
				continue
			}
			next.copyFrom(w)
			next.Budget.Crashes--
			next.Meta[u].Crashed = true
			next.dropTo(NodeID(u))
			t := Transition{Kind: AdversaryStep, Node: NodeID(u), Action: MoveCrash}
			if !yield(t, next) {
				return
			}
		}
	}
}

// linked reports whether u and v are already neighbours.
func (m *Machine[N, M]) linked(w *World[N, M], u, v NodeID) bool {
	for p := 1; p <= m.cfg.Delta; p++ {
		if l := w.Meta[u].Links[p]; l.Up() && l.Node() == v {
			return true
		}
	}
	return false
}

// freePort reports whether a connect may use port p of u: no edge on it and,
// unless ports may be re-used, not in u's disconnection set (seed 000,
// footnote 1).
func (m *Machine[N, M]) freePort(w *World[N, M], u NodeID, p Port) bool {
	if w.Meta[u].Links[p].Up() {
		return false
	}
	return m.cfg.ReusePorts || !w.Meta[u].D.Has(p)
}

// dropEdge loses every message in transit on edge u.p-v.q, both ways.
func (w *World[N, M]) dropEdge(u NodeID, p Port, v NodeID, q Port) {
	k := 0
	for _, e := range w.Msgs {
		on := (e.From == u && e.FromPort == p && e.To == v && e.ToPort == q) ||
			(e.From == v && e.FromPort == q && e.To == u && e.ToPort == p)
		if !on {
			w.Msgs[k] = e
			k++
		}
	}
	w.Msgs = w.Msgs[:k]
}

// dropTo loses every message in transit to u: a crashed node never reads.
func (w *World[N, M]) dropTo(u NodeID) {
	k := 0
	for _, e := range w.Msgs {
		if e.To != u {
			w.Msgs[k] = e
			k++
		}
	}
	w.Msgs = w.Msgs[:k]
}
