package maekawa

import "github.com/mxcheck/mxcheck/model"

// Deadlock handling: INQUIRE/FAILED/YIELD. The yield variants (variants.go)
// replace ReceiveRequest by one of the three below and add ReceiveInquire,
// ReceiveFailed and ReceiveYield.

// receiveRequestYield is ReceiveRequest as Maekawa (1985) gives it: a
// request that finds the vote out gets FAILED when the vote's holder or a
// queued request has priority over it; otherwise it is the
// highest-priority request and the holder gets one INQUIRE per grant.
var receiveRequestYield = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		if vote(c, n) {
			return
		}
		beaten := holderBeats(c, n) || headBeats(c, n)
		queue(c, n)
		failOrInquire(c, n, beaten)
	},
}

// receiveRequestLockOnly is the textbook shortcut (Singhal and Shivaratri
// 1994, §6.9): FAILED only when the vote's holder has priority, else an
// INQUIRE each time.
var receiveRequestLockOnly = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		if vote(c, n) {
			return
		}
		beaten := holderBeats(c, n)
		queue(c, n)
		if beaten {
			c.Send(c.From(), Msg{Kind: Failed})
		} else {
			c.Send(n.VotedFor, Msg{Kind: Inquire})
		}
	},
}

// receiveRequestFailDisplaced is our repair of receiveRequestYield: a
// request that becomes the highest-priority waiting one also sends FAILED
// to the request it displaces from the head of the queue, when that one
// beat the holder (and so was sent INQUIRE, not FAILED, when it arrived).
var receiveRequestFailDisplaced = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		if vote(c, n) {
			return
		}
		head, queued := n.head()
		beaten := holderBeats(c, n) || headBeats(c, n)
		queue(c, n)
		if !beaten && queued && !precedes(n.VoteTS, n.VotedFor, n.QueueTS[head], head) {
			c.Send(head, Msg{Kind: Failed})
		}
		failOrInquire(c, n, beaten)
	},
}

// ReceiveInquire: yield the vote if this node has seen a FAILED or yielded
// before; otherwise wait for a FAILED. Ignored in the CS (RELEASE follows)
// and when the vote is not held.
var receiveInquire = action{
	Name: "ReceiveInquire",
	Kind: model.Receive,
	On:   is(Inquire),
	Do: func(c *ctx, n *Node) {
		j := c.From()
		if n.Awaiting.Has(j) || n.State != Wanted {
			return
		}
		if !n.Failed.Empty() || !n.Yielded.Empty() {
			yieldTo(c, n, j)
			return
		}
		n.Inquired = n.Inquired.Add(j)
	},
}

// ReceiveFailed: note the FAILED and answer every deferred INQUIRE with
// YIELD.
var receiveFailed = action{
	Name: "ReceiveFailed",
	Kind: model.Receive,
	On:   is(Failed),
	Do: func(c *ctx, n *Node) {
		if n.State != Wanted {
			return
		}
		n.Failed = n.Failed.Add(c.From())
		for _, k := range n.Inquired.All() {
			if !n.Awaiting.Has(k) {
				yieldTo(c, n, k)
			}
		}
		n.Inquired = 0
	},
}

// ReceiveYield: queue the yielder's request again and vote for the queued
// request of highest priority.
var receiveYield = action{
	Name: "ReceiveYield",
	Kind: model.Receive,
	On:   is(Yield),
	Do: func(c *ctx, n *Node) {
		j := c.From()
		if !n.Voted || n.VotedFor != j {
			return
		}
		n.Queue = n.Queue.Add(j)
		n.QueueTS[j] = n.VoteTS
		grantNext(c, n)
	},
}

// holderBeats reports whether the vote's holder has priority over the
// REQUEST in c.
func holderBeats(c *ctx, n *Node) bool {
	return precedes(n.VoteTS, n.VotedFor, c.Msg().TS, c.From())
}

// headBeats reports whether the queued request of highest priority has
// priority over the REQUEST in c.
func headBeats(c *ctx, n *Node) bool {
	head, queued := n.head()
	return queued && precedes(n.QueueTS[head], head, c.Msg().TS, c.From())
}

// failOrInquire answers a request that found the vote out: FAILED when it
// is beaten, else an INQUIRE to the vote's holder unless one went since the
// vote was given.
func failOrInquire(c *ctx, n *Node, beaten bool) {
	switch {
	case beaten:
		c.Send(c.From(), Msg{Kind: Failed})
	case !n.Inquiring:
		n.Inquiring = true
		c.Send(n.VotedFor, Msg{Kind: Inquire})
	}
}

// yieldTo gives voter j's vote back.
func yieldTo(c *ctx, n *Node, j model.NodeID) {
	n.Awaiting = n.Awaiting.Add(j)
	n.Yielded = n.Yielded.Add(j)
	n.Inquired = n.Inquired.Remove(j)
	c.Send(j, Msg{Kind: Yield})
}
