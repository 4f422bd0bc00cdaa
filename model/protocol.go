package model

// Value is what node states and messages must be: comparable values (no
// maps, slices or pointers) with a canonical binary encoding. AppendKey must
// be injective: equal values append equal bytes and different values append
// different bytes.
type Value interface {
	comparable
	AppendKey(dst []byte) []byte
}

// Message is a Value that also renders itself for traces, as
// "request(ts=2)".
type Message interface {
	Value
	String() string
}

// ActionKind says how an action is triggered.
type ActionKind uint8

const (
	// Local actions run when their guard holds on the node's own state.
	Local ActionKind = iota
	// Receive actions consume one message in transit to the node; the
	// adversary picks which, which is where message orders come from.
	Receive
	// Request is the application calling LOCK / request-CS. The engine
	// bounds it by Config.Requests per node.
	Request
	// Exit is the application calling UNLOCK / exit-CS.
	Exit
)

// Action is one guarded action `Name: Guard → Do` of a protocol.
type Action[N Value, M Message] struct {
	// Name is the paper's name for the action, e.g. "ReceivePrepare".
	Name string
	// Kind says how the action is triggered; the zero value is Local.
	Kind ActionKind
	// On selects the messages a Receive action takes; nil takes any.
	On func(m M) bool
	// Guard reports whether the action is enabled. It reads the node state
	// n and, for Receive actions, c.Msg(); it must not modify anything.
	// nil means always enabled.
	Guard func(c *Ctx[N, M], n *N) bool
	// Do runs the action: it updates n and may send messages and draw
	// random choices through c.
	Do func(c *Ctx[N, M], n *N)
	// Independent declares that this action's steps commute with every
	// other step of the same node, this action's other instances included:
	// in every reachable state where both are enabled, neither disables
	// the other and both orders reach the same state. Partial-order
	// reduction relies on it (a node's future receives are steps it cannot
	// see yet); reduce.CheckIndependence verifies it on a full search.
	Independent bool
}

// Property is a named predicate over the global state of a protocol: an
// invariant (Expect Always, the zero value) or a reachability witness
// (Expect Sometimes).
type Property[N Value, M Message] struct {
	// Name is stable kebab-case, e.g. "mutual-exclusion".
	Name string
	// Holds reports whether w satisfies the predicate; it must not modify w.
	Holds func(w *World[N, M]) bool
	// Expect is Always (every reachable state satisfies Holds) or
	// Sometimes (some reachable state does, e.g. "some node enters the
	// CS"). A Sometimes property must read only what Observe projects (or
	// declare ObservesNetwork), like an invariant, so that reductions keep
	// its witnesses, and must be invariant under renaming nodes when the
	// protocol is Anonymous.
	Expect Expectation
	// Explain, optional, says in one line why w violates the invariant
	// (e.g. the cycle of a dependency graph).
	Explain func(w *World[N, M]) string
	// DOT, optional, renders the graph the invariant inspects in w as
	// Graphviz DOT.
	DOT func(w *World[N, M]) string
}

// Protocol is a message-passing protocol written as guarded actions.
type Protocol[N Value, M Message] struct {
	// Name is the spec's name, e.g. "ra".
	Name string
	// Init returns node id's initial local state under config c.
	Init func(id NodeID, c *Config) N
	// Actions are tried in order for each node; the order fixes the order
	// of transitions, and so of traces.
	Actions []Action[N, M]
	// Invariants are the state properties: invariants (Always) checked in
	// every reachable state, and reachability witnesses (Sometimes) a
	// complete search must reach.
	Invariants []Property[N, M]
	// Pending reports whether a node still has unfinished work; deadlock is
	// a state where some node is pending and no step but stutters and
	// adversary moves is enabled. nil disables deadlock detection.
	Pending func(n *N) bool
	// PendingWorld, optional, replaces Pending for deadlock detection with
	// a predicate over the whole state (e.g. "every process is waiting",
	// when a process that stopped between sequences is not a deadlock).
	PendingWorld func(w *World[N, M]) bool
	// Hungry reports whether a node has requested the CS and not yet
	// entered it. Liveness checking looks for fair cycles on which some node
	// stays hungry forever; nil means the protocol makes no liveness claim.
	Hungry func(n *N) bool
	// HungryWorld, optional, restricts Hungry with a predicate over the
	// whole state: where it is false no node counts as hungry (e.g. a
	// process stopped by a bounded workload may hold what a waiting one
	// needs, which is no starvation of the algorithm).
	HungryWorld func(w *World[N, M]) bool
	// InCS, optional, reports whether a node is in the critical section:
	// for a lock-like protocol, exactly what the mutual-exclusion invariant
	// counts. It lets traces be checked as lock histories (package history).
	InCS func(n *N) bool
	// LockHolders, optional, is InCS for a protocol whose property is many
	// locks (local mutual exclusion: each node a resource): for each node v,
	// the nodes holding v in w, exactly what the mutual-exclusion
	// invariant requires to be at most one.
	LockHolders func(w *World[N, M]) []NodeSet
	// Liveness names the liveness property Hungry defines, e.g.
	// "lockout-freedom" (seed 000's term); "" means "starvation-freedom".
	Liveness string
	// Observe projects a node state onto what the invariants read of it
	// (for mutual exclusion: whether the node is in the CS). Partial-order
	// reduction treats a node's step as invisible when it leaves the
	// projection unchanged. nil makes every step visible: no reduction.
	Observe func(n *N) uint64
	// ObservesNetwork says the invariants also read messages in transit,
	// topology or membership: every step that sends, receives or changes
	// those is then visible.
	ObservesNetwork bool
	// Anonymous declares that node states and messages hold no node ids and
	// every property is invariant under renaming nodes, so symmetry
	// reduction may permute nodes. Leave it false when ids break ties.
	Anonymous bool
	// RenamePorts, optional, returns n with every port p it mentions
	// renamed perm[p] (perm[0] = 0: the self-port stays). Declaring it
	// asserts that the protocol treats a node's ports interchangeably (no
	// tie broken by port number) and that messages carry no port numbers;
	// symmetry reduction then also permutes each node's ports. Only used
	// with Anonymous.
	RenamePorts func(n N, perm *[MaxPorts]Port) N
	// Assume, optional, restricts the adversary to moves after which it
	// holds: the hypothesis of a theorem imposed on the environment (e.g.
	// Camera's "as long as the Mutual Friend Property holds"). It reads the
	// state an adversary move leads to and must not modify it.
	Assume func(w *World[N, M]) bool
	// FIFO makes every channel first-in first-out; the default is a bag.
	FIFO bool
	// RawKey declares that the AppendKey methods of node states and
	// messages write every field, so that two states have the same
	// encoding exactly when they have the same bytes. A state's key is
	// then its memory as the codec writes it (codec.go), which is far
	// cheaper to make than the encoding: the search hashes it for every
	// transition. Node states and messages must be plain values; a spec
	// declaring it runs reduce.CheckRawKey in its tests.
	RawKey bool
	// Notes, optional, returns lines printed before a search of
	// configuration c: preconditions a user should see, such as whether a
	// membership graph has the property a theorem assumes.
	Notes func(c *Config) []string
	// Links, optional, declares link-level notifications delivered
	// atomically with connect and disconnect moves (notify.go), or later
	// as messages (AsyncLinks, async.go).
	Links Notifications[N, M]
	// Excused, optional, reports whether pending node i of w is outside
	// the protocol's progress claim (failure locality: a crashed node
	// within the claimed distance, locality.go); deadlock detection then
	// ignores it.
	Excused func(w *World[N, M], i NodeID) bool
}

// Ctx is what an action sees of the world beyond its own node state: the
// message it receives, the network, membership, and random choices. A Ctx is
// only valid during the Guard or Do call it is passed to.
type Ctx[N Value, M Message] struct {
	m    *Machine[N, M]
	w    *World[N, M] // the successor being built (Do) or the source (Guard)
	self NodeID
	env  *Envelope[M] // the received message, for Receive actions
	recv Envelope[M]  // Do's copy of it, which env points to (no allocation per step)
	d    Ports        // snapshot of the disconnection set D
	do   bool         // Do (may modify) rather than Guard

	nchoice int
	choice  [maxChoices]uint8
	radix   [maxChoices]uint8
	keys    keyScratch // for inserting the messages a step sends
	kb      keyBufs
}

// keyBufs lends the context's key buffers to compareEnv.
func (c *Ctx[N, M]) keyBufs() *keyBufs {
	c.kb.ks = &c.keys
	return &c.kb
}

const maxChoices = 4

// reset readies c for one Guard (do false) or Do call: the fields a step
// reads are set one by one, rather than the whole context cleared (radix
// is written by Choose before it is read).
func (c *Ctx[N, M]) reset(m *Machine[N, M], w *World[N, M], self NodeID, d Ports, do bool, choice [maxChoices]uint8) {
	c.m, c.w, c.self, c.env, c.d, c.do = m, w, self, nil, d, do
	c.nchoice, c.choice = 0, choice
}

// Self is the acting node.
func (c *Ctx[N, M]) Self() NodeID { return c.self }

// Nodes is the number of nodes in the configuration.
func (c *Ctx[N, M]) Nodes() int { return len(c.w.Nodes) }

// Delta is Δ, the number of ports per node besides the self-port.
func (c *Ctx[N, M]) Delta() int { return c.m.cfg.Delta }

// Msg is the message being received. It is the zero M outside a Receive
// action.
func (c *Ctx[N, M]) Msg() M {
	if c.env == nil {
		var zero M
		return zero
	}
	return c.env.Msg
}

// From is the sender of the message being received.
func (c *Ctx[N, M]) From() NodeID {
	if c.env == nil {
		return c.self
	}
	return c.env.From
}

// Port is the receiver's port the message arrived on (0 for the self-port
// and for id-addressed protocols).
func (c *Ctx[N, M]) Port() Port {
	if c.env == nil {
		return 0
	}
	return c.env.ToPort
}

// Members is the acting node's current membership list.
func (c *Ctx[N, M]) Members() NodeSet { return c.w.Meta[c.self].Members }

// AddMember adds id to the acting node's membership list (Camera learns of
// unknown requesters this way). Only valid in Do.
func (c *Ctx[N, M]) AddMember(id NodeID) {
	c.mustDo("AddMember")
	c.w.Meta[c.self].Members = c.w.Meta[c.self].Members.Add(id)
}

// Neighbors is the set of the acting node's ports 1..Δ that are connected.
func (c *Ctx[N, M]) Neighbors() Ports {
	var s Ports
	meta := &c.w.Meta[c.self]
	for p := 1; p <= c.m.cfg.Delta; p++ {
		if meta.Links[p] != noLink {
			s = s.Add(Port(p))
		}
	}
	return s
}

// Disconnected is the snapshot of the acting node's disconnection set D
// taken at the start of this action; D is reset once the action runs.
func (c *Ctx[N, M]) Disconnected() Ports { return c.d }

// Send sends msg to node `to` (id-addressed protocols). Sending to oneself
// uses the self-port. Only valid in Do.
func (c *Ctx[N, M]) Send(to NodeID, msg M) {
	c.mustDo("Send")
	if int(to) >= len(c.w.Nodes) {
		panic("model: Send to node " + to.String() + " out of range")
	}
	c.w.insert(Envelope[M]{From: c.self, To: to, Msg: msg}, c.m.p.FIFO, c.keyBufs())
}

// SendPort sends msg on port p of the acting node (port-addressed
// protocols); port 0 is the self-port. A message sent on a port with no
// edge is lost. Only valid in Do.
func (c *Ctx[N, M]) SendPort(p Port, msg M) {
	c.mustDo("SendPort")
	if p == 0 {
		c.w.insert(Envelope[M]{From: c.self, To: c.self, Msg: msg}, c.m.p.FIFO, c.keyBufs())
		return
	}
	l := c.w.Meta[c.self].Links[p]
	if l == noLink {
		return
	}
	c.w.insert(Envelope[M]{From: c.self, FromPort: p, To: l.Node(), ToPort: l.Port(), Msg: msg}, c.m.p.FIFO, c.keyBufs())
}

// Choose draws a random value in 0..n-1. The explorer branches over every
// outcome and marks the branch probabilistic, not adversarial. At most four
// draws per action, each with 1 ≤ n ≤ 255. Only valid in Do.
func (c *Ctx[N, M]) Choose(n int) int {
	c.mustDo("Choose")
	if n < 1 || n > 255 {
		panic("model: Choose needs 1 ≤ n ≤ 255")
	}
	if c.nchoice == maxChoices {
		panic("model: more than four Choose calls in one action")
	}
	k := c.nchoice
	c.nchoice++
	c.radix[k] = uint8(n)
	if c.choice[k] >= uint8(n) {
		c.choice[k] = 0
	}
	return int(c.choice[k])
}

func (c *Ctx[N, M]) mustDo(what string) {
	if !c.do {
		panic("model: " + what + " called from a Guard; guards must not change anything")
	}
}
