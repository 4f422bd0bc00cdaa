package model

// Asynchronous link notifications (seed 001, §2, the delivery the paper
// leaves open). The topology changes at the adversary's move; each live
// endpoint's LinkUp or LinkDown notification is a message posted then and
// delivered later by a Receive action ("LinkUp", "LinkDown") that runs the
// protocol's handler. A LinkUp notification is posted at the head of the
// new link's channel toward the endpoint, so under FIFO it arrives before
// anything the other endpoint sends on the link afterwards; a LinkUp still
// in transit when the link fails is lost with the link (that endpoint never
// knew the link). A LinkDown notification goes only to an endpoint that
// knows the link (Knows), and the adversary may not put a new link on a
// port whose owner has not yet been told that its old link failed (the
// protocol's Assume is extended with it), so notifications about one port
// never overtake each other.

// Notice is a link notification carried as a message.
type Notice uint8

// The notices; NotNotice is a protocol message.
const (
	NotNotice Notice = iota
	UpStatic
	UpMoving
	Down
)

// String renders the notice.
func (k Notice) String() string {
	switch k {
	case UpStatic:
		return "link-up(static)"
	case UpMoving:
		return "link-up(moving)"
	case Down:
		return "link-down"
	}
	return "not-a-notice"
}

// Async is what asynchronous delivery needs from a protocol.
type Async[N Value, M Message] struct {
	// Wrap returns the message carrying notice k.
	Wrap func(k Notice) M
	// Unwrap returns the notice m carries, or NotNotice.
	Unwrap func(m M) Notice
	// Knows reports whether node n believes port p carries a link: it
	// received the link's LinkUp and not yet its LinkDown. The protocol's
	// handlers keep what it reads.
	Knows func(n *N, p Port) bool
}

// AsyncLinks returns the variant that makes p's link notifications
// asynchronous: it sets p.Links.Async, appends the Receive actions that
// deliver them (named "LinkUp" and "LinkDown", running p.Links' handlers
// as they are when the action runs) and restricts the adversary's port
// re-use.
func AsyncLinks[N Value, M Message](name, usage string, a Async[N, M]) Variant[N, M] {
	return Variant[N, M]{Name: name, Usage: usage, Edit: func(p *Protocol[N, M]) {
		p.Links.Async = &a
		is := func(ks ...Notice) func(M) bool {
			return func(m M) bool {
				k := a.Unwrap(m)
				for _, x := range ks {
					if k == x {
						return true
					}
				}
				return false
			}
		}
		p.Actions = append(p.Actions,
			Action[N, M]{Name: "LinkUp", Kind: Receive, On: is(UpStatic, UpMoving),
				Do: func(c *Ctx[N, M], n *N) { p.Links.LinkUp(c, n, c.Port(), a.Unwrap(c.Msg()) == UpStatic) }},
			Action[N, M]{Name: "LinkDown", Kind: Receive, On: is(Down),
				Do: func(c *Ctx[N, M], n *N) { p.Links.LinkDown(c, n, c.Port()) }})
		assume := p.Assume
		p.Assume = func(w *World[N, M]) bool {
			return (assume == nil || assume(w)) && !a.reusedEarly(w)
		}
	}}
}

// post sends notice k to node to about its port p, on the link's channel.
func (a *Async[N, M]) post(m *Machine[N, M], w *World[N, M], to NodeID, p Port, k Notice) {
	l := w.Meta[to].Links[p]
	w.insert(Envelope[M]{From: l.Node(), FromPort: l.Port(), To: to, ToPort: p, Msg: a.Wrap(k)}, m.p.FIFO, new(keyBufs))
}

// postDown sends LinkDown to node to about its port p, whose link to
// from.fp has just failed.
func (a *Async[N, M]) postDown(m *Machine[N, M], w *World[N, M], to NodeID, p Port, from NodeID, fp Port) {
	w.insert(Envelope[M]{From: from, FromPort: fp, To: to, ToPort: p, Msg: a.Wrap(Down)}, m.p.FIFO, new(keyBufs))
}

// reusedEarly reports whether some port carries a link while its owner
// still has that port's LinkDown notification in transit.
func (a *Async[N, M]) reusedEarly(w *World[N, M]) bool {
	for i := range w.Msgs {
		e := &w.Msgs[i]
		if e.ToPort != 0 && a.Unwrap(e.Msg) == Down && w.Meta[e.To].Links[e.ToPort].Up() {
			return true
		}
	}
	return false
}
