package model

// Link-level notifications (seed 001, §2): a link-level protocol tells each
// endpoint of a new link whether it came up "while static" or "while
// moving", and tells both endpoints of a broken link that it went down. A
// protocol that declares LinkUp/LinkDown handlers gets them delivered
// atomically with the adversary's connect and disconnect moves: the move
// and both endpoints' handlers are one step, so "neighbours" is the same
// relation for both endpoints in every state. With Async (AsyncLinks), each
// notification is instead a message delivered later, at the head of its
// link's channel (async.go).

// Notifications are the optional link-level handlers of a protocol. Both
// nil keeps the plain semantics (a disconnect only fills the disconnection
// set D).
type Notifications[N Value, M Message] struct {
	// LinkUp runs at each live endpoint of a new link, on the new port p,
	// right after the link exists (so it may send on p). static says which
	// notification the endpoint gets: exactly one endpoint of every new
	// link gets static = true, and a connect move is split into one move
	// per choice of that endpoint (a link comes up only when at least one
	// endpoint moves; between two movers the link layer breaks the tie).
	LinkUp func(c *Ctx[N, M], n *N, p Port, static bool)
	// LinkDown runs at each live endpoint of a broken link, on the port p
	// that lost it, after the messages in transit on the link are lost. A
	// crashed endpoint takes no step. With LinkDown set, a disconnect does
	// not fill D: the notification replaces it.
	LinkDown func(c *Ctx[N, M], n *N, p Port)
	// Moved, optional, runs at an endpoint that certainly moved, when the
	// move happens (also with Async): the endpoint of a new link told
	// "moving", and the live endpoint of a broken link to a crashed node
	// (a crashed node never moves). The endpoint told "static" and the
	// endpoints of any other broken link may be static: the adversary may
	// have moved the other one. It is for ghost variables (which nodes
	// ever moved) and must not send.
	Moved func(n *N)
	// Async, optional, delivers the notifications asynchronously (set by
	// AsyncLinks).
	Async *Async[N, M]
}

// staticArg is the adversary argument (Transition.Msg) of a connect move
// whose static endpoint is the second node; 0 means the first.
const staticArg = 1

// notifyUp runs the LinkUp handlers of a new link u.p-v.q in next; static is
// the endpoint that gets the static notification. Handlers must not draw
// random choices.
func (m *Machine[N, M]) notifyUp(next *World[N, M], u NodeID, p Port, v NodeID, q Port, static NodeID) {
	h := m.p.Links.LinkUp
	for _, end := range [2]struct {
		id NodeID
		pt Port
	}{{u, p}, {v, q}} {
		if next.Meta[end.id].Crashed {
			continue
		}
		if end.id != static && m.p.Links.Moved != nil {
			m.p.Links.Moved(&next.Nodes[end.id])
		}
		if as := m.p.Links.Async; as != nil {
			k := UpMoving
			if end.id == static {
				k = UpStatic
			}
			as.post(m, next, end.id, end.pt, k)
			continue
		}
		c := &Ctx[N, M]{m: m, w: next, self: end.id, do: true}
		h(c, &next.Nodes[end.id], end.pt, end.id == static)
		if c.nchoice != 0 {
			panic("model: a LinkUp handler drew a random choice")
		}
	}
}

// notifyDown runs the LinkDown handlers of the broken link u.p-v.q in next.
func (m *Machine[N, M]) notifyDown(next *World[N, M], u NodeID, p Port, v NodeID, q Port) {
	h := m.p.Links.LinkDown
	for _, end := range [2]struct {
		id NodeID
		pt Port
	}{{u, p}, {v, q}} {
		if next.Meta[end.id].Crashed {
			continue
		}
		if other := u + v - end.id; next.Meta[other].Crashed && m.p.Links.Moved != nil {
			m.p.Links.Moved(&next.Nodes[end.id])
		}
		if as := m.p.Links.Async; as != nil {
			if as.Knows(&next.Nodes[end.id], end.pt) {
				as.postDown(m, next, end.id, end.pt, u+v-end.id, p+q-end.pt)
			}
			continue
		}
		c := &Ctx[N, M]{m: m, w: next, self: end.id, do: true}
		h(c, &next.Nodes[end.id], end.pt)
		if c.nchoice != 0 {
			panic("model: a LinkDown handler drew a random choice")
		}
	}
}

// PeerOf returns the node at the other end of the acting node's port p, and
// whether p carries a link. Protocols whose nodes know their neighbours' ids
// (seed 001: "each node has a unique identifier") use it to name the
// neighbour behind a port.
func (c *Ctx[N, M]) PeerOf(p Port) (NodeID, bool) {
	if p == 0 || int(p) >= MaxPorts {
		return c.self, p == 0
	}
	l := c.w.Meta[c.self].Links[p]
	if !l.Up() {
		return 0, false
	}
	return l.Node(), true
}
