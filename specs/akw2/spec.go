package akw2

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// Phase is the application state of §2.
type Phase uint8

// The three states of §2.
const (
	Thinking Phase = iota
	Hungry
	Eating
)

// String renders the phase as in the paper.
func (p Phase) String() string {
	switch p {
	case Thinking:
		return "thinking"
	case Hungry:
		return "hungry"
	case Eating:
		return "eating"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Node is one node's local state, indexed by port: its neighbours N (the
// ports whose LinkUp it has received and whose LinkDown it has not), the
// forks it holds (at[]), higher[] of §5 (the neighbours with priority over
// it), the deferred requests S and the requests it has outstanding; Mover
// is a ghost (--starvation=static: the node certainly moved).
type Node struct {
	State  Phase
	Mover  bool
	N      model.Ports
	At     model.Ports
	Higher model.Ports
	S      model.Ports
	Asked  model.Ports
	// Relay (--exit-priority=relay): the links on which the node, when it
	// last lowered its priority, did not have it; priority arriving on one
	// of them while the node is still thinking is sent back.
	Relay model.Ports
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	return append(dst, byte(n.State)|b2u(n.Mover)<<2, byte(n.N), byte(n.At), byte(n.Higher), byte(n.S), byte(n.Asked), byte(n.Relay))
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	// Notify is the notification a node sends when it becomes hungry.
	Notify Kind = iota
	// Req asks for the shared fork.
	Req
	// Fork is the shared fork.
	Fork
	// Prio tells the receiver it now has priority over the sender.
	Prio
	// Link is a link notification from the link layer, delivered
	// asynchronously (--notify=async).
	Link
)

var kindNames = [...]string{"notification", "req", "fork", "priority", "link"}

// Msg is a message of Algorithm 2.
type Msg struct {
	Kind Kind
	// Notice is the notification a Link message carries.
	Notice model.Notice
}

// AppendKey appends the canonical encoding of m (one byte, as before
// --notify=async, for every other kind).
func (m Msg) AppendKey(dst []byte) []byte {
	if m.Kind == Link {
		return append(dst, byte(m.Kind), byte(m.Notice))
	}
	return append(dst, byte(m.Kind))
}

// String renders the message.
func (m Msg) String() string {
	if m.Kind == Link {
		return m.Notice.String()
	}
	if int(m.Kind) < len(kindNames) {
		return kindNames[m.Kind]
	}
	return "msg?"
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
