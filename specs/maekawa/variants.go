package maekawa

import "github.com/mxcheck/mxcheck/model"

// Variants are the kinds of deadlock handling (--variant).
var Variants = model.Variants[Node, Msg]{
	// Maekawa without deadlock handling, as seed 003 §III-B describes it:
	// it can deadlock.
	{Name: "classic", Usage: "none"},
	// INQUIRE/FAILED/YIELD as Maekawa (1985) gives it.
	{Name: "yield", Usage: "INQUIRE/FAILED/YIELD, Maekawa 1985",
		Actions: yielding(receiveRequestYield)},
	// The textbook shortcut (Singhal and Shivaratri 1994, §6.9). It
	// deadlocks.
	{Name: "yield-lock-only", Usage: "the textbook shortcut",
		Actions: yielding(receiveRequestLockOnly)},
	// Our repair of yield: FAILED also to the request displaced from the
	// head of the queue.
	{Name: "yield-fail-displaced", Usage: "our repair",
		Actions: yielding(receiveRequestFailDisplaced)},
}

// yielding is a yield variant's actions: its ReceiveRequest, then the
// INQUIRE, FAILED and YIELD handlers, appended in that order.
func yielding(receiveRequest action) []action {
	return []action{receiveRequest, receiveInquire, receiveFailed, receiveYield}
}

// Mutants are deliberate bugs the checker must catch (--mutant).
var Mutants = model.Variants[Node, Msg]{
	{Name: "none", Usage: "the algorithm as published"},
	{Name: "vote-twice", Usage: "grant every REQUEST at once, even while the vote is out (breaks mutual-exclusion)", Actions: []action{{
		Name: "ReceiveRequest",
		Kind: model.Receive,
		On:   is(Request),
		Do: func(c *ctx, n *Node) {
			n.HSN = max(n.HSN, c.Msg().TS)
			grant(c, n)
		},
	}}},
	// Needs a yield variant (Build checks): classic has no ReceiveInquire.
	{Name: "yield-in-cs", Usage: "answer INQUIRE with YIELD even inside the CS (breaks mutual-exclusion; yield variants)", Actions: []action{{
		Name: "ReceiveInquire",
		Kind: model.Receive,
		On:   is(Inquire),
		Do: func(c *ctx, n *Node) {
			if n.State == Held && !n.Awaiting.Has(c.From()) {
				yieldTo(c, n, c.From())
				return
			}
			receiveInquire.Do(c, n)
		},
	}}},
	{Name: "keep-vote", Usage: "never pass the vote on at RELEASE (deadlocks)", Actions: []action{{
		Name: "ReceiveRelease",
		Kind: model.Receive,
		On:   is(Release),
		Do:   func(*ctx, *Node) {},
	}}},
}
