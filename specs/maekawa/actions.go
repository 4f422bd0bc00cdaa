package maekawa

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// Protocol is Maekawa's algorithm as seed 003 §III-B describes it, with no
// deadlock handling (--variant=classic); every node may request. The yield
// variants add the actions of yield.go.
var Protocol = model.Protocol[Node, Msg]{
	Name:       "maekawa",
	RawKey:     true,
	Init:       func(model.NodeID, *model.Config) Node { return Node{} },
	Actions:    []action{requestCS, enter, exitCS, receiveRequest, receiveGrant, receiveRelease},
	Invariants: []model.Property[Node, Msg]{mutualExclusion, csEntered},
	InCS:       func(n *Node) bool { return n.State == Held },
	Pending:    func(n *Node) bool { return n.State != Released },
	Hungry:     func(n *Node) bool { return n.State == Wanted },
	FIFO:       true,
	Notes:      func(c *model.Config) []string { return notes(c, model.FullSet(c.Nodes)) },
}

// RequestCS: send REQUEST(HSN+1) to every member of V_i, itself included.
var requestCS = action{
	Name:  "RequestCS",
	Kind:  model.Request,
	Guard: func(_ *ctx, n *Node) bool { return n.State == Released },
	Do: func(c *ctx, n *Node) {
		n.State = Wanted
		n.TS = n.HSN + 1
		n.Asked = c.Members()
		n.Awaiting = n.Asked
		for _, j := range n.Asked.All() {
			c.Send(j, Msg{Kind: Request, TS: n.TS})
		}
	},
}

// Enter: every voter asked has granted its vote.
var enter = action{
	Name:  "Enter",
	Guard: func(_ *ctx, n *Node) bool { return n.State == Wanted && n.Awaiting.Empty() },
	Do: func(_ *ctx, n *Node) {
		n.State = Held
		n.Failed, n.Yielded, n.Inquired = 0, 0, 0
	},
}

// ExitCS: send RELEASE to every voter asked.
var exitCS = action{
	Name:  "ExitCS",
	Kind:  model.Exit,
	Guard: func(_ *ctx, n *Node) bool { return n.State == Held },
	Do: func(c *ctx, n *Node) {
		for _, j := range n.Asked.All() {
			c.Send(j, Msg{Kind: Release})
		}
		n.State, n.TS, n.Asked = Released, 0, 0
	},
}

// ReceiveRequest: vote for the requester if the vote is free; otherwise
// queue the request.
var receiveRequest = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		if !vote(c, n) {
			queue(c, n)
		}
	},
}

// ReceiveGrant: one more vote held.
var receiveGrant = action{
	Name: "ReceiveGrant",
	Kind: model.Receive,
	On:   is(Grant),
	Do: func(c *ctx, n *Node) {
		j := c.From()
		n.Awaiting = n.Awaiting.Remove(j)
		n.Failed = n.Failed.Remove(j)
		n.Yielded = n.Yielded.Remove(j)
	},
}

// ReceiveRelease: pass the vote to the next queued request.
var receiveRelease = action{
	Name: "ReceiveRelease",
	Kind: model.Receive,
	On:   is(Release),
	Do: func(c *ctx, n *Node) {
		if n.Voted && n.VotedFor == c.From() {
			grantNext(c, n)
		}
	},
}

// precedes reports whether request (ts, i) has priority over (ts2, j):
// smaller timestamp, ties broken by the smaller id.
func precedes(ts uint8, i model.NodeID, ts2 uint8, j model.NodeID) bool {
	return ts < ts2 || ts == ts2 && i < j
}

// vote notes the timestamp of the REQUEST in c and grants it the vote if
// the vote is free; it reports whether it did.
func vote(c *ctx, n *Node) bool {
	n.HSN = max(n.HSN, c.Msg().TS)
	if n.Voted {
		return false
	}
	grant(c, n)
	return true
}

// grant gives the vote to the REQUEST in c.
func grant(c *ctx, n *Node) {
	j := c.From()
	n.Voted, n.VotedFor, n.VoteTS = true, j, c.Msg().TS
	c.Send(j, Msg{Kind: Grant})
}

// queue queues the REQUEST in c for the vote.
func queue(c *ctx, n *Node) {
	j := c.From()
	n.Queue = n.Queue.Add(j)
	n.QueueTS[j] = c.Msg().TS
}

// grantNext passes the vote to the queued request of highest priority, or
// frees it when the queue is empty.
func grantNext(c *ctx, n *Node) {
	n.Inquiring = false
	if n.Queue.Empty() {
		n.Voted, n.VotedFor, n.VoteTS = false, 0, 0
		return
	}
	best, _ := n.head()
	n.Voted, n.VotedFor, n.VoteTS = true, best, n.QueueTS[best]
	n.Queue = n.Queue.Remove(best)
	n.QueueTS[best] = 0
	c.Send(best, Msg{Kind: Grant})
}

// head returns the queued request of highest priority, if any.
func (n *Node) head() (model.NodeID, bool) {
	best := model.NodeID(0)
	first := true
	for _, j := range n.Queue.All() {
		if first || precedes(n.QueueTS[j], j, n.QueueTS[best], best) {
			best, first = j, false
		}
	}
	return best, !first
}
