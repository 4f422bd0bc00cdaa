package model

// ActionNamer is an optional System capability for simulation: it names the
// action behind a step (per-action coverage) and tells message deliveries
// from a node's other steps (per-kind step weights).
type ActionNamer interface {
	// ActionName names the action t takes, without its arguments: the
	// protocol's name for node and env steps ("ReceiveRequest"), or
	// "adversary connect", "adversary remove", ... for adversary moves.
	ActionName(t Transition) string
	// ActionNames lists every action this configuration could take, in a
	// fixed order: the protocol's actions in declaration order, then the
	// adversary moves the initial budget allows.
	ActionNames() []string
	// Delivery reports whether t is a node step that receives a message.
	Delivery(t Transition) bool
}

// CriticalSection is an optional System capability for protocols whose
// property is a lock, or one lock per node: who holds each lock in a state,
// and which steps are the application asking for the CS. Histories built
// from it are checked against a sequential lock model (package history).
type CriticalSection interface {
	// DeclaresCS reports whether the protocol says who holds its locks;
	// when false the other methods report nothing.
	DeclaresCS() bool
	// Holders returns, for each lock, the nodes of s holding it: one lock
	// (the critical section) for a protocol with InCS, one per node for a
	// protocol with LockHolders. The mutual-exclusion invariant holds in s
	// exactly when each lock has at most one holder.
	Holders(s State) []NodeSet
	// RequestsCS reports whether t is the application's request-CS call.
	RequestsCS(t Transition) bool
}

// adversaryMoveNames are the names of the adversary's moves, by type.
var adversaryMoveNames = [...]string{
	MoveConnect:    "adversary connect",
	MoveDisconnect: "adversary disconnect",
	MoveRemove:     "adversary remove",
	MoveRestore:    "adversary restore",
	MoveCrash:      "adversary crash",
}

// ActionName names the action of t (see ActionNamer).
func (m *Machine[N, M]) ActionName(t Transition) string {
	if t.Kind == AdversaryStep {
		if int(t.Action) < len(adversaryMoveNames) {
			return adversaryMoveNames[t.Action]
		}
		return "adversary unknown"
	}
	return m.p.Actions[t.Action].Name
}

// ActionNames lists the protocol's actions, then the adversary moves the
// initial budget allows.
func (m *Machine[N, M]) ActionNames() []string {
	out := make([]string, 0, len(m.p.Actions)+len(adversaryMoveNames))
	for i := range m.p.Actions {
		out = append(out, m.p.Actions[i].Name)
	}
	b := initialWorld(m.p, &m.cfg).Budget
	for mv, n := range [...]uint8{MoveConnect: b.Connects, MoveDisconnect: b.Disconnects, MoveRemove: b.Removes, MoveRestore: b.Restores, MoveCrash: b.Crashes} {
		if n > 0 {
			out = append(out, adversaryMoveNames[mv])
		}
	}
	return out
}

// Delivery reports whether t runs a Receive action.
func (m *Machine[N, M]) Delivery(t Transition) bool {
	return t.Kind == NodeStep && m.p.Actions[t.Action].Kind == Receive
}

// DeclaresCS reports whether the protocol has InCS or LockHolders.
func (m *Machine[N, M]) DeclaresCS() bool { return m.p.InCS != nil || m.p.LockHolders != nil }

// Holders returns the holders of each lock: the live nodes in the critical
// section (InCS), or the protocol's LockHolders.
func (m *Machine[N, M]) Holders(s State) []NodeSet {
	w := s.(*World[N, M])
	if m.p.LockHolders != nil {
		return m.p.LockHolders(w)
	}
	var in NodeSet
	if m.p.InCS == nil {
		return nil
	}
	for i := range w.Nodes {
		if !w.Meta[i].Crashed && m.p.InCS(&w.Nodes[i]) {
			in = in.Add(NodeID(i))
		}
	}
	return []NodeSet{in}
}

// RequestsCS reports whether t runs a Request action.
func (m *Machine[N, M]) RequestsCS(t Transition) bool {
	return t.Kind == EnvStep && m.p.Actions[t.Action].Kind == Request
}
