package akw

import "github.com/mxcheck/mxcheck/model"

// The greedy coloring procedure new-color() of Algorithm 1a (§4.4),
// reconstructed (doc.go): rounds of view exchange with the neighbours in
// R, then a deterministic greedy coloring of the view.

// ids is the set of node ids behind ports s.
func ids(c *ctx, s model.Ports) model.NodeSet {
	var out model.NodeSet
	for _, p := range s.All() {
		if j, ok := c.PeerOf(p); ok {
			out = out.Add(j)
		}
	}
	return out
}

// startNewColor begins new-color(): round 1, the view of the node's own
// row, sent to every neighbour in R.
func (a *alg) startNewColor(c *ctx, n *Node) {
	n.Round = 1
	n.Vw = View{}
	a.sendViews(c, n)
}

// sendViews refreshes the node's own row (its neighbours still in R) and
// sends the view of this round to R.
func (a *alg) sendViews(c *ctx, n *Node) {
	n.Got = 0
	n.Vw = n.Vw.SetRow(c.Self(), ids(c, n.R))
	for _, p := range n.R.All() {
		c.SendPort(p, Msg{Kind: ViewMsg, Round: n.Round, View: n.Vw})
	}
}

// expectsView reports whether the view being received belongs to the
// node's own run of new-color(): it is running it and the sender is in R
// and has not sent this round's view yet. Any other view is answered with
// NACK (L40–L41, generalised from "outside SD^r": doc.go).
func (a *alg) expectsView(c *ctx, n *Node) bool {
	p := c.Port()
	return n.Stage == Coloring && n.R.Has(p) && !n.Got.Has(p) && c.Msg().Round >= n.Round
}

// newColor runs the local greedy coloring on the view: the known nodes in
// DFS order from the smallest id of the node's component (neighbours in
// increasing id), each taking the smallest color ≥ 0 none of its already
// colored neighbours has. It returns the node's own color.
func newColor(_ *alg, c *ctx, n *Node) int {
	return greedy(n.Vw, c.Self())
}

// greedy colors view v as newColor describes and returns self's color.
func greedy(v View, self model.NodeID) int { return greedyAvoiding(v, self, 0) }

// greedyAvoiding is greedy where self also avoids the colors in forbid.
func greedyAvoiding(v View, self model.NodeID, forbid uint16) int {
	adj := func(x model.NodeID) model.NodeSet {
		s := v.Row(x) & v.Known
		for _, y := range v.Known.All() {
			if v.Row(y).Has(x) {
				s = s.Add(y) // the view's edges are undirected
			}
		}
		return s.Remove(x)
	}
	// The component of self.
	comp := model.NodeSet(0).Add(self)
	for grown := true; grown; {
		grown = false
		for _, x := range comp.All() {
			if add := adj(x) &^ comp; add != 0 {
				comp |= add
				grown = true
			}
		}
	}
	var color [MaxNodes]int
	var done model.NodeSet
	var visit func(x model.NodeID)
	visit = func(x model.NodeID) {
		var used uint16
		if x == self {
			used = forbid
		}
		for _, y := range adj(x).All() {
			if done.Has(y) {
				used |= 1 << color[y]
			}
		}
		k := 0
		for used&(1<<k) != 0 {
			k++
		}
		color[x] = k
		done = done.Add(x)
		for _, y := range adj(x).All() {
			if comp.Has(y) && !done.Has(y) {
				visit(y)
			}
		}
	}
	visit(comp.All()[0])
	return color[self]
}
