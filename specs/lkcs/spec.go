package lkcs

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

// At is the enum at of Algorithm 3: which part a message or variable
// belongs to.
type At uint8

// The two parts: LMUTEX (permission to be InCS, at most K_i) and LMUTIN
// (permission to be OutCS, at most |N_i| − L_i + 1).
const (
	MUTEX At = iota
	MUTIN
)

// String renders the part as in the paper.
func (a At) String() string {
	if a == MUTIN {
		return "MUTIN"
	}
	return "MUTEX"
}

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

// Seq is where the application loop of §2.2 stands.
type Seq uint8

// The places of the application loop.
const (
	// Idle: between sequences (in the CS or in the remainder section).
	Idle Seq = iota
	// Exiting: in the exit sequence's while loop (waiting for MUTIN
	// grants).
	Exiting
	// Entering: in the entry sequence's while loop (waiting for MUTEX
	// grants).
	Entering
)

// String renders the place.
func (s Seq) String() string {
	switch s {
	case Exiting:
		return "exiting"
	case Entering:
		return "entering"
	}
	return "idle"
}

// at is the part a sequence waits for: MUTIN to exit, MUTEX to enter.
func (s Seq) at() At {
	if s == Exiting {
		return MUTIN
	}
	return MUTEX
}

// Stamp is a timestamp (ts, P) or nil (P = -1), as preemptingNow_i[at].
type Stamp struct {
	TS uint8
	P  int8
}

// NilStamp is nil.
var NilStamp = Stamp{P: -1}

// String renders the stamp as "(1,n2)" or "nil".
func (s Stamp) String() string {
	if s.P < 0 {
		return "nil"
	}
	return fmt.Sprintf("(%d,n%d)", s.TS, s.P)
}

// Node is one process's local state: the variables of Algorithm 3 (each
// indexed by at), the place of the application loop, whether the leader
// is in the `wait until` after TriggerNomination, and one ghost bit.
// candidate_LDR is not kept: TriggerNomination empties it before it
// returns.
type Node struct {
	State CSState
	Seq   Seq
	// TriggerWait: the leader called TriggerNomination and waits until
	// Waiting_LDR < |N_LDR| + 1.
	TriggerWait bool
	// Changes counts the sequences the application has started (the
	// workload bound, --changes).
	Changes    uint8
	TS         uint8
	NGrants    [2]model.NodeSet
	GrantedTo  [2]lmutin.TSet
	PendingReq [2]lmutin.TSet
	Preempting [2]Stamp
	// Undefined is a ghost bit: some step ran an operation the pseudocode
	// leaves undefined (deleteMin, min or max of an empty set, a
	// Relinquish that deletes no single item); property well-defined.
	Undefined bool
	// Nominee is 0, or, in variant trigger-retry while the leader waits
	// after a Trigger, 1 + P_h + 8·at of the Trigger ⟨Trigger, at, ts⟩ it
	// sent to P_h.
	Nominee uint8
	// Recv is a ghost counter of the messages the process has received,
	// kept only with --count-messages (zero otherwise).
	Recv uint8
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(n.State)|byte(n.Seq)<<1|b2u(n.TriggerWait)<<3|b2u(n.Undefined)<<4, n.TS, n.Changes, n.Recv, n.Nominee)
	for at := range 2 {
		s := n.NGrants[at]
		p := n.Preempting[at]
		dst = append(dst, byte(s), byte(s>>8), p.TS, byte(p.P))
		dst = n.GrantedTo[at].AppendKey(dst)
		dst = n.PendingReq[at].AppendKey(dst)
	}
	return dst
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Kind is a message type of Algorithms 4–7.
type Kind uint8

// The messages. Each carries its sender P_i, which the engine keeps with
// every message (Ctx.From).
const (
	Request Kind = iota
	Grant
	Release
	Preempt
	Relinquish
	Trigger
	RequestByTrigger
)

var kindNames = [...]string{"Request", "Grant", "Release", "Preempt", "Relinquish", "Trigger", "RequestByTrigger"}

// Msg is a message: its kind, its part at, and for Request and Trigger a
// timestamp.
type Msg struct {
	Kind Kind
	At   At
	TS   uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind), byte(m.At), m.TS) }

// String renders the message as "Request(MUTIN,ts=2)" or "Grant(MUTEX)".
func (m Msg) String() string {
	name := "msg?"
	if int(m.Kind) < len(kindNames) {
		name = kindNames[m.Kind]
	}
	if m.Kind == Request || m.Kind == Trigger || m.Kind == Preempt && m.TS != 0 {
		return fmt.Sprintf("%s(%v,ts=%d)", name, m.At, m.TS)
	}
	return fmt.Sprintf("%s(%v)", name, m.At)
}

// is selects the messages of one kind.
func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }
