package maekawa

import (
	"fmt"
	"strings"

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

// notes reports the voting sets and whether every pair of requesters'
// voting sets intersects (Maekawa's safety condition).
func notes(c *model.Config, requesters model.NodeSet) []string {
	sets := make([]string, c.Nodes)
	for i, m := range c.Members {
		sets[i] = fmt.Sprintf("%v=%v", model.NodeID(i), m)
	}
	out := []string{"voting sets: " + strings.Join(sets, " ")}
	rs := requesters.All()
	for a, i := range rs {
		for _, j := range rs[a+1:] {
			if c.Members[i]&c.Members[j] == 0 {
				return append(out, fmt.Sprintf("voting-sets-intersect: fails for %v and %v (disjoint voting sets)", i, j))
			}
		}
	}
	return append(out, "voting-sets-intersect: holds for every pair of requesters")
}
