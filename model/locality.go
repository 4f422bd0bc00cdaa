package model

// Failure locality (seed 001, Definition 1): a claim that holds only for
// nodes with no failure within distance m. A protocol declares Excused to
// take the nodes such a claim does not cover out of deadlock detection.

// Distance is the number of links on a shortest path, in the current
// topology, from node u to a node for which target holds; -1 when no such
// node is reachable. Crashed nodes keep their links and count as path
// nodes.
func (w *World[N, M]) Distance(u NodeID, target func(v NodeID) bool) int {
	seen := NodeSet(0).Add(u)
	frontier := []NodeID{u}
	for d := 0; len(frontier) > 0; d++ {
		var next []NodeID
		for _, x := range frontier {
			if target(x) {
				return d
			}
			for p := 1; p < MaxPorts; p++ {
				if l := w.Meta[x].Links[p]; l.Up() && !seen.Has(l.Node()) {
					seen = seen.Add(l.Node())
					next = append(next, l.Node())
				}
			}
		}
		frontier = next
	}
	return -1
}

// CrashDistance is the distance from u to the nearest crashed node, or -1.
func (w *World[N, M]) CrashDistance(u NodeID) int {
	return w.Distance(u, func(v NodeID) bool { return w.Meta[v].Crashed })
}

// PeerState returns the local state of the node at the other end of the
// acting node's port p, and whether p carries a link. It breaks message
// passing: only a spec's "oracle" variants use it (a doorway that meets a
// real-time guarantee by construction), and a protocol that uses it must
// leave Observe nil, so partial-order reduction stays off.
func (c *Ctx[N, M]) PeerState(p Port) (N, bool) {
	j, ok := c.PeerOf(p)
	if !ok || j == c.self {
		var zero N
		return zero, false
	}
	return c.w.Nodes[j], true
}
