package lmutin

import "fmt"

// CSState is state_i: InCS or OutCS.
type CSState uint8

// The two states of §2.2.
const (
	OutCS CSState = iota
	InCS
)

// String renders the state as in the paper.
func (s CSState) String() string {
	if s == InCS {
		return "InCS"
	}
	return "OutCS"
}

// Seq is where the application loop of §2.2 stands: between sequences, or
// in the exit sequence's `wait until`. (The entry sequence of l_i-LMUTIN
// never waits.)
type Seq uint8

// The places of the application loop.
const (
	// Idle: in the CS or in the remainder section, not in a sequence.
	Idle Seq = iota
	// Exiting: in the exit sequence, waiting for |N_i|+1 grants.
	Exiting
)

// String renders the place.
func (s Seq) String() string {
	if s == Exiting {
		return "exiting"
	}
	return "idle"
}

// Nil is the nil process id of preemptingNow_i.
const Nil int8 = -1

// Node is one process's local state: the variables of Algorithm 1, the
// place of the application loop, and one ghost bit.
type Node struct {
	State CSState
	Seq   Seq
	TS    uint8
	// NGrants is nGrants_i; Preempt decrements it, so it is signed.
	NGrants    int8
	GrantedTo  TSet
	PendingReq TSet
	// PreemptingNow is a process id or Nil.
	PreemptingNow int8
	// Undefined is a ghost bit: some handler ran an operation the
	// pseudocode leaves undefined (deleteMin or max of an empty set, a
	// Relinquish that deletes no item). The handler then skips the
	// operations that need the missing item; the property well-defined
	// reports it.
	Undefined bool
	// Recv is a ghost counter of the messages the process has received,
	// kept only with --count-messages (zero otherwise).
	Recv uint8
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(n.State)|byte(n.Seq)<<1|b2u(n.Undefined)<<2, n.TS, byte(n.NGrants), byte(n.PreemptingNow), n.Recv)
	dst = n.GrantedTo.AppendKey(dst)
	return n.PendingReq.AppendKey(dst)
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Kind is a message type of Algorithm 2.
type Kind uint8

// The messages of Algorithm 2. Each carries its sender P_i, which the
// engine keeps with every message (Ctx.From).
const (
	Request Kind = iota
	Grant
	Release
	Preempt
	Relinquish
)

var kindNames = [...]string{"Request", "Grant", "Release", "Preempt", "Relinquish"}

// Msg is a message: its kind and, for Request, the timestamp ts_i (for
// Preempt in the variant preempt-carries-ts, the preempted grant's).
type Msg struct {
	Kind Kind
	TS   uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind), m.TS) }

// String renders the message as "Request(ts=1)" or "Grant".
func (m Msg) String() string {
	name := "msg?"
	if int(m.Kind) < len(kindNames) {
		name = kindNames[m.Kind]
	}
	if m.Kind == Request || m.Kind != Grant && m.TS != 0 {
		return fmt.Sprintf("%s(ts=%d)", name, m.TS)
	}
	return name
}

// is selects the messages of one kind.
func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }
