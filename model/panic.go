package model

import "fmt"

// ActionPanic is what Successors panics with when a spec's action code
// (its message filter, guard or body) panics: the node and the action, so
// that the checker can name them instead of printing a Go stack.
type ActionPanic struct {
	Node   NodeID
	Action string
	// Value is what the action panicked with.
	Value any
}

// Error renders the panic as "n1 ReceiveRequest: <value>".
func (p *ActionPanic) Error() string {
	return fmt.Sprintf("%v %s: %v", p.Node, p.Action, p.Value)
}

// actionAt is the action Successors is running, for ActionPanic.
type actionAt struct {
	u        NodeID
	ai       int
	running  bool // inside a node's action, not the adversary
	yielding bool // inside the caller's yield: its panics are its own
}
