package camera

import "github.com/mxcheck/mxcheck/model"

type (
	ctx    = model.Ctx[Node, Msg]
	action = model.Action[Node, Msg]
)

func is(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }

// Protocol is Camera's fast path as published (Algorithm 1): one action per
// procedure, in the paper's order.
var Protocol = model.Protocol[Node, Msg]{
	Name:       "camera",
	RawKey:     true,
	Init:       func(model.NodeID, *model.Config) Node { return Node{} },
	Actions:    []action{requestCS, enter, exitCS, receiveRequest, receiveRelease, receiveOK},
	Invariants: []model.Property[Node, Msg]{mutualExclusion, csEntered},
	InCS:       func(n *Node) bool { return n.State == Held },
	Pending:    func(n *Node) bool { return n.State != None },
	Hungry:     func(n *Node) bool { return n.State == Wait },
	Notes:      notes,
}

// RequestCS is enter() lines 11–17: WAIT, stamp the request, ask every
// other member.
var requestCS = action{
	Name:  "RequestCS",
	Kind:  model.Request,
	Guard: func(_ *ctx, n *Node) bool { return n.State == None },
	Do:    func(c *ctx, n *Node) { ask(c, n, c.Members()) },
}

// Enter is enter() lines 18–19: WAITFOR(Pending_OKs empty), then HELD.
var enter = action{
	Name:  "Enter",
	Guard: func(_ *ctx, n *Node) bool { return n.State == Wait && n.PendingOKs.Empty() },
	Do:    func(_ *ctx, n *Node) { n.State = Held },
}

// ExitCS is exit(): multicast RELEASE(myRequest), answer every deferred
// request with OK(recentlyOKed) and note it in recentlyOKed.
var exitCS = action{
	Name:  "ExitCS",
	Kind:  model.Exit,
	Guard: func(_ *ctx, n *Node) bool { return n.State == Held },
	Do: func(c *ctx, n *Node) {
		release(c, n)
		for _, j := range n.Deferred.All() {
			c.Send(j, Msg{Kind: OK, Recent: n.RecentlyOKed.IDs()})
			n.RecentlyOKed.Insert(Req{TS: n.DeferredTS[j], ID: j})
		}
		n.Deferred, n.DeferredTS = 0, Stamps{}
	},
}

// ReceiveRequest is receive_request: lines 2–6 learn an unknown sender,
// the rest defers or answers the request.
var receiveRequest = action{
	Name: "ReceiveRequest",
	Kind: model.Receive,
	On:   is(Request),
	Do: func(c *ctx, n *Node) {
		learn(c, n, c.From(), true)
		deferOrOK(c, n)
	},
}

// ReceiveRelease is receive_release.
var receiveRelease = action{
	Name: "ReceiveRelease",
	Kind: model.Receive,
	On:   is(Release),
	Do: func(c *ctx, n *Node) {
		n.RecentlyOKed.Remove(Req{TS: c.Msg().TS, ID: c.From()})
	},
}

// ReceiveOK is receive_OKs: request every unknown node in the sender's
// recentlyOKed, then one fewer OK to wait for.
var receiveOK = action{
	Name: "ReceiveOK",
	Kind: model.Receive,
	On:   is(OK),
	Do: func(c *ctx, n *Node) {
		for _, k := range c.Msg().Recent.All() {
			learn(c, n, k, false)
		}
		n.PendingOKs = n.PendingOKs.Remove(c.From())
	},
}

// ask is enter() lines 11–17 asking the nodes in to (the requester itself
// excluded): State=WAIT, max_timestamp_seen+=1, myRequest stamped, and a
// REQUEST to each node in Pending_OKs.
func ask(c *ctx, n *Node, to model.NodeSet) {
	n.State = Wait
	n.HSN++
	n.TS = n.HSN
	n.PendingOKs = to.Remove(c.Self())
	for _, j := range n.PendingOKs.All() {
		c.Send(j, Msg{Kind: Request, TS: n.TS})
	}
}

// release is exit()'s first half: State=NONE and RELEASE(myRequest) to
// every other node (IP_MULTICAST: the group, not just the list).
func release(c *ctx, n *Node) {
	n.State = None
	for j := 0; j < c.Nodes(); j++ {
		if model.NodeID(j) != c.Self() {
			c.Send(model.NodeID(j), Msg{Kind: Release, TS: n.TS})
		}
	}
}

// deferOrOK is receive_request after line 6: note the timestamp, defer the
// request when HELD or WAITing with a smaller (timestamp, id), otherwise
// answer OK(recentlyOKed) and note the request in recentlyOKed.
func deferOrOK(c *ctx, n *Node) {
	m, j := c.Msg(), c.From()
	n.HSN = max(n.HSN, m.TS)
	req := Req{TS: m.TS, ID: j}
	if n.State == Held || n.State == Wait && (Req{TS: n.TS, ID: c.Self()}).less(req) {
		n.Deferred = n.Deferred.Add(j)
		n.DeferredTS[j] = m.TS
		return
	}
	c.Send(j, Msg{Kind: OK, Recent: n.RecentlyOKed.IDs()})
	n.RecentlyOKed.Insert(req)
}

// learn is what receive_request lines 2–6 and receive_OKs lines 17–21 do
// with an unknown node: add it to Memlist and, while waiting, to
// Pending_OKs, sending it our request.
func learn(c *ctx, n *Node, j model.NodeID, whileWaiting bool) {
	if c.Members().Has(j) {
		return
	}
	if !whileWaiting || n.State == Wait {
		n.PendingOKs = n.PendingOKs.Add(j)
		c.Send(j, Msg{Kind: Request, TS: n.TS})
	}
	c.AddMember(j)
}
