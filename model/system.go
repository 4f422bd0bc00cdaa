package model

// State is one global state of a System. Its concrete type belongs to the
// System; explore treats it as opaque.
type State any

// StepKind says who takes a step.
type StepKind uint8

const (
	// NodeStep is a node running one of its guarded actions.
	NodeStep StepKind = iota
	// EnvStep is the application calling request-CS or exit-CS at a node.
	EnvStep
	// AdversaryStep is a topology change, a membership change or a crash.
	AdversaryStep
)

// String renders the kind as "node", "env" or "adversary".
func (k StepKind) String() string {
	switch k {
	case NodeStep:
		return "node"
	case EnvStep:
		return "env"
	case AdversaryStep:
		return "adversary"
	}
	return "unknown"
}

// Transition identifies one enabled step of a state. It is a small value:
// enough to describe or re-execute the step from the same source state. The
// fields beyond Kind and Node are owned by the System that produced it.
type Transition struct {
	Kind StepKind
	// Node is the acting node (node and env steps) or the first endpoint of
	// an adversary move.
	Node NodeID
	// Action indexes the protocol's actions (node and env steps) or is the
	// adversary move's type.
	Action uint8
	// Choices is the number of random outcomes drawn by the step; zero for
	// a deterministic step. Steps that differ only in Choice are the
	// outcomes of one probabilistic draw.
	Choices uint8
	// Msg is the index of the received message in the source state's
	// in-transit list (receive actions), or an adversary argument.
	Msg uint16
	// Choice packs the outcomes of the step's random draws, 8 bits each.
	Choice uint32
	// Arg holds adversary arguments (ports, second endpoint).
	Arg [3]uint8
}

// Invariant is a named predicate over states: one every reachable state
// must satisfy (Expect Always, the zero value), or one some reachable state
// must satisfy (Sometimes, a reachability witness).
type Invariant struct {
	// Name is stable kebab-case, e.g. "mutual-exclusion".
	Name string
	// Holds reports whether s satisfies the predicate. It must be pure.
	Holds func(s State) bool
	// Expect is Always or Sometimes.
	Expect Expectation
}

// System is a finite transition system as explore consumes it. All methods
// are deterministic: the same state always yields the same transitions in
// the same order.
type System interface {
	// Init returns the initial states.
	Init() []State
	// Successors calls yield for each enabled transition of s, in a fixed
	// order, with the successor state. The successor is only valid until
	// yield returns; keep it with Clone. Returning false from yield stops
	// the enumeration.
	Successors(s State, yield func(t Transition, next State) bool)
	// Clone returns a copy of s that shares nothing mutable with it.
	Clone(s State) State
	// AppendKey appends the canonical encoding of s to dst: two states have
	// equal keys if and only if they are equal.
	AppendKey(dst []byte, s State) []byte
	// Invariants returns the named state properties to check, sorted by
	// name: invariants (Always) and reachability witnesses (Sometimes).
	Invariants() []Invariant
}

// Handle enumerates successors and clones states for one goroutine.
type Handle interface {
	Successors(s State, yield func(t Transition, next State) bool)
	Clone(s State) State
}

// Handles is an optional System capability for the hot paths of a search:
// NewHandle returns a Handle with its own scratch storage — no lock, no
// pool, no allocation per call — to be used by one goroutine at a time
// (and not re-entered: enumerate nested successors with another handle or
// the System). A System is itself a Handle that any goroutine may use.
type Handles interface {
	NewHandle() Handle
}

// DeadlockProperty is the name of deadlock freedom (Expect NoDeadlock), the
// property WorkPending systems are checked for.
const DeadlockProperty = "no-deadlock"

// WorkPending is an optional System capability for deadlock detection:
// Pending reports whether some node in s still has unfinished work (a
// pending request, an unacknowledged phase). A state with pending work in
// which no step but stutters and adversary moves is enabled is a deadlock.
type WorkPending interface {
	Pending(s State) bool
}

// Describer is an optional System capability for readable traces.
type Describer interface {
	// DescribeStep names the step t taken from s, e.g.
	// "n1 ReceiveRequest n0->n1 request(ts=1)".
	DescribeStep(s State, t Transition) string
	// Changes lists what changed from one state to the next, one line each.
	Changes(from, to State) []string
	// Dump renders the whole state, one line per component.
	Dump(s State) []string
	// ITF returns the state as an Informal Trace Format value: a JSON object
	// of state variables.
	ITF(s State) map[string]any
}

// Explainer is an optional System capability: why a state violates an
// invariant, and the graph the invariant inspects.
type Explainer interface {
	// Explain returns one line on why s violates invariant prop, or "".
	Explain(s State, prop string) string
	// DOT returns the graph invariant prop inspects in s as Graphviz DOT,
	// or "" when it has none.
	DOT(s State, prop string) string
}

// Noter is an optional System capability: lines to show before a search.
type Noter interface {
	Notes() []string
}

// Fair is an optional System capability for liveness checking.
type Fair interface {
	// Hungry returns the nodes of s that have requested the CS and not yet
	// entered it.
	Hungry(s State) NodeSet
	// FairClass appends to dst the weak-fairness class of transition t taken
	// from s and reports whether t is subject to fairness at all. Steps of
	// one class are "the same action" for weak fairness: a class that stays
	// enabled must eventually be taken. Classes: each local action of each
	// node; the delivery of each message in transit (its envelope, whichever
	// receive action takes it); each exit-CS call (the application leaves the
	// CS eventually). Request calls and adversary moves owe nothing.
	FairClass(dst []byte, s State, t Transition) ([]byte, bool)
}

// Independence is an optional System capability for partial-order
// reduction. Steps of different nodes commute (each reads its own state and
// one message, and only adds messages); a node's steps conflict only with
// adversary moves that touch the node.
type Independence interface {
	// Touchable reports whether, from s, some adversary move could ever
	// change what node u's steps read or write: its links, disconnection
	// set, membership, messages in transit to it, or crash it. It may
	// over-approximate (true is always sound).
	Touchable(s State, u NodeID) bool
	// Visible reports whether step t from s to next changes anything an
	// invariant reads. For a step of node u it must depend only on what u's
	// step reads and writes, so that the answer is the same in every state
	// where u's part is the same. It may over-approximate.
	Visible(s State, t Transition, next State) bool
	// Independent reports whether step t is declared to commute with every
	// other step of its node (model.Action.Independent). Adversary steps
	// are never independent.
	Independent(t Transition) bool
}

// Symmetric is an optional System capability for symmetry reduction: its
// nodes are interchangeable.
type Symmetric interface {
	// NodeCount is the number of nodes of s.
	NodeCount(s State) int
	// AppendNodeSignature appends the part of node i's state that does not
	// mention other nodes' ids; permutations only need to try orders that
	// sort nodes by signature.
	AppendNodeSignature(dst []byte, s State, i NodeID) []byte
	// AppendPermutedKey appends the canonical key of s with every node i
	// renamed perm[i] and, when ports is non-nil, every port q of node i
	// renamed ports[i][q].
	AppendPermutedKey(dst []byte, s State, perm []NodeID, ports [][MaxPorts]Port) []byte
	// Permute returns the renamed state itself (for checking that the
	// transition relation respects the symmetry).
	Permute(s State, perm []NodeID, ports [][MaxPorts]Port) State
	// PortSymmetry returns Δ when each node's ports 1..Δ are interchangeable
	// too, or 0.
	PortSymmetry() int
	// AppendLocalKey appends node i's own part of s, with its ports renamed
	// by ports: its state, disconnection set, which ports are up, its
	// bookkeeping; never another node's id.
	AppendLocalKey(dst []byte, s State, i NodeID, ports *[MaxPorts]Port) []byte
}

// SymmetryProvider is implemented by systems that may declare symmetry:
// Symmetric returns nil when this configuration's nodes are not
// interchangeable.
type SymmetryProvider interface {
	Symmetric() Symmetric
}

// RawKeyed is implemented by systems that may key states by their bytes
// (Protocol.RawKey): RawKey says whether they do, and EncodedKey writes
// the encoding they would key by otherwise, so that a test can check that
// both tell the same states apart (reduce.CheckRawKey).
type RawKeyed interface {
	RawKey() bool
	EncodedKey(dst []byte, s State) []byte
}

// Picturer is an optional System capability for drawing traces: the
// messages in transit of a state with their endpoints, and the nodes in the
// critical section.
type Picturer interface {
	// InTransit lists the messages in transit in s, in s's canonical
	// order; Text is the rendering Describer uses ("n0->n1 request(ts=1)").
	InTransit(s State) []InFlight
	// InCS returns the nodes of s that hold the critical section (or the
	// lock): those where the application may call exit-CS.
	InCS(s State) NodeSet
}

// InFlight is one message in transit as a picture draws it.
type InFlight struct {
	From, To NodeID
	Text     string
}
