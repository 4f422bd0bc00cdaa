package camera

import "github.com/mxcheck/mxcheck/model"

// Variants are versions of the algorithm (--variant).
var Variants = model.Variants[Node, Msg]{
	{Name: "fast-path", Usage: "Algorithm 1"},
	// Our repair for churn: enter() also asks every node in the
	// requester's own recentlyOKed set, known or not.
	{Name: "ask-recently-oked", Usage: "our churn repair", Actions: []action{{
		Name:  "RequestCS",
		Kind:  model.Request,
		Guard: func(_ *ctx, n *Node) bool { return n.State == None },
		Do:    func(c *ctx, n *Node) { ask(c, n, c.Members()|n.RecentlyOKed.IDs()) },
	}}},
}

// Mutants are deliberate bugs the checker must catch (--mutant).
var Mutants = model.Variants[Node, Msg]{
	{Name: "none", Usage: "Algorithm 1 as published"},
	// The requester learns nothing from the recentlyOKed set an OK
	// carries (RA plus learning from REQUESTs).
	{Name: "ignore-recently-oked", Usage: "learn nothing from OK (breaks mutual-exclusion under symmetric ignorance)", Actions: []action{{
		Name: "ReceiveOK",
		Kind: model.Receive,
		On:   is(OK),
		Do:   func(c *ctx, n *Node) { n.PendingOKs = n.PendingOKs.Remove(c.From()) },
	}}},
	// Lines 2–6 of receive_request skipped: a REQUEST from an unknown node
	// neither joins the list nor gets our own request.
	{Name: "no-learn-on-request", Usage: "skip lines 2–6 of receive_request (breaks mutual-exclusion under asymmetric ignorance)", Actions: []action{{
		Name: "ReceiveRequest",
		Kind: model.Receive,
		On:   is(Request),
		Do:   deferOrOK,
	}}},
	{Name: "forget-deferred", Usage: "drop deferred requests on exit instead of answering them (deadlocks)", Actions: []action{{
		Name:  "ExitCS",
		Kind:  model.Exit,
		Guard: func(_ *ctx, n *Node) bool { return n.State == Held },
		Do: func(c *ctx, n *Node) {
			release(c, n)
			n.Deferred, n.DeferredTS = 0, Stamps{}
		},
	}}},
}
