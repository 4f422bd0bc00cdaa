package model

// InTransit lists the messages in transit in s with their endpoints (see
// Picturer).
func (m *Machine[N, M]) InTransit(s State) []InFlight {
	w := s.(*World[N, M])
	out := make([]InFlight, len(w.Msgs))
	for i := range w.Msgs {
		e := &w.Msgs[i]
		out[i] = InFlight{From: e.From, To: e.To, Text: m.envString(e)}
	}
	return out
}

// InCS returns the nodes of s at which an exit-CS action (Kind Exit) is
// enabled: the nodes holding the critical section or the lock. Crashed nodes
// count as long as their state says so.
func (m *Machine[N, M]) InCS(s State) NodeSet {
	w := s.(*World[N, M])
	var out NodeSet
	c := &Ctx[N, M]{m: m, w: w}
	for i := range w.Nodes {
		c.self, c.d = NodeID(i), w.Meta[i].D
		for ai := range m.p.Actions {
			a := &m.p.Actions[ai]
			if a.Kind == Exit && (a.Guard == nil || a.Guard(c, &w.Nodes[i])) {
				out = out.Add(NodeID(i))
				break
			}
		}
	}
	return out
}
