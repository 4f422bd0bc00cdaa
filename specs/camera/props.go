package camera

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// mutualExclusion: at most one node is in the CS.
var mutualExclusion = model.Property[Node, Msg]{Name: "mutual-exclusion", Holds: func(w *model.World[Node, Msg]) bool {
	return w.Count(func(n *Node) bool { return n.State == Held }) <= 1
}}

// csEntered, a witness: some node enters the CS.
var csEntered = model.Property[Node, Msg]{Name: "cs-entered", Expect: model.Sometimes, Holds: func(w *model.World[Node, Msg]) bool {
	return w.Count(func(n *Node) bool { return n.State == Held }) > 0
}}

// MFP reports whether the Mutual Friend Property (Definition 4) holds for
// the lists: every pair of distinct nodes in requesters shares a member
// (lists contain their owners, so knowing each other counts). When it fails
// it returns the first pair, in id order.
func MFP(lists []model.NodeSet, requesters model.NodeSet) (ok bool, i, j model.NodeID) {
	rs := requesters.All()
	for a, x := range rs {
		for _, y := range rs[a+1:] {
			if lists[x]&lists[y] == 0 {
				return false, x, y
			}
		}
	}
	return true, 0, 0
}

// StronglyConnected reports whether the membership graph (an edge i→j when
// j is in i's list) is strongly connected; when it is not, it returns a
// pair (i, j) such that j is unreachable from i.
func StronglyConnected(lists []model.NodeSet) (ok bool, i, j model.NodeID) {
	n := len(lists)
	for s := 0; s < n; s++ {
		seen := model.NodeSet(0).Add(model.NodeID(s))
		todo := []model.NodeID{model.NodeID(s)}
		for len(todo) > 0 {
			u := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, v := range lists[u].All() {
				if !seen.Has(v) {
					seen = seen.Add(v)
					todo = append(todo, v)
				}
			}
		}
		if seen != model.FullSet(n) {
			return false, model.NodeID(s), (model.FullSet(n) &^ seen).All()[0]
		}
	}
	return true, 0, 0
}

// requesters is the set of nodes that may request under c.
func requesters(c *model.Config) model.NodeSet {
	if c.Requests == 0 {
		return 0
	}
	return model.FullSet(c.Nodes)
}

// lists returns the initial membership lists of c.
func lists(c *model.Config) []model.NodeSet {
	if c.Members != nil {
		return c.Members
	}
	out := make([]model.NodeSet, c.Nodes)
	for i := range out {
		out[i] = model.FullSet(c.Nodes)
	}
	return out
}

// notes reports the preconditions of Camera's theorems on the initial
// lists: the Mutual Friend Property (Definition 4, Theorem 5) and strong
// connectivity of the membership graph (Theorem 1).
func notes(c *model.Config) []string {
	ls := lists(c)
	var out []string
	if ok, i, j := MFP(ls, requesters(c)); ok {
		out = append(out, "mutual-friend-property: holds (every pair of requesting nodes shares a list member)")
	} else {
		out = append(out, fmt.Sprintf("mutual-friend-property: fails for %v and %v (lists %v and %v share no node)", i, j, ls[i], ls[j]))
	}
	if ok, i, j := StronglyConnected(ls); ok {
		out = append(out, "strongly-connected: holds (every node reaches every node through the lists)")
	} else {
		out = append(out, fmt.Sprintf("strongly-connected: fails (%v cannot reach %v through the lists)", i, j))
	}
	if c.Budget.Removes > 0 {
		out = append(out, fmt.Sprintf("churn: the adversary may remove %d list entries while the protocol runs; the lines above hold for the initial lists only", c.Budget.Removes))
	}
	return out
}
