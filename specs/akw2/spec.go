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

// Node is one node's local state, indexed by port: the forks it holds
// (at[]), higher[] of §5 (the neighbours with priority over it), the
// deferred requests S and the requests it has outstanding.
type Node struct {
	State  Phase
	At     model.Ports
	Higher model.Ports
	S      model.Ports
	Asked  model.Ports
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	return append(dst, byte(n.State), byte(n.At), byte(n.Higher), byte(n.S), byte(n.Asked))
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
)

var kindNames = [...]string{"notification", "req", "fork", "priority"}

// Msg is a message of Algorithm 2.
type Msg struct{ Kind Kind }

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind)) }

// String renders the message.
func (m Msg) String() string {
	if int(m.Kind) < len(kindNames) {
		return kindNames[m.Kind]
	}
	return "msg?"
}
