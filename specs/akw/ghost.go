package akw

import (
	"math/bits"

	"github.com/mxcheck/mxcheck/model"
)

// Ghost state for the doorway-guarantee property (§3: "if a node p_i
// crosses it before its neighbor p_j begins executing the entry code, then
// p_j does not cross the doorway until p_i exits"). Not part of the
// algorithm: it reads the neighbours' true positions (model.Ctx.PeerState)
// and no action reads it.
//
// Node.Par flips bit d each time the node crosses doorway d. When a node
// begins the entry code of d, Blk[d] records the neighbours then behind d
// and BlkPar[d] their Par bit: while the node is behind d, such a
// neighbour still behind d with the same parity has not exited since (up
// to an even number of re-crossings, which the property then misses).

func door(d Doors) int { return bits.TrailingZeros8(uint8(d)) }

// ghostCross flips the parity of the doorways crossed.
func ghostCross(n *Node, d Doors) { n.Par ^= d }

// ghostBeginEntry starts the entry code of doorway d at stage, recording
// the ghost blockers.
func ghostBeginEntry(c *ctx, n *Node, stage Stage, d Doors) {
	n.Stage = stage
	k := door(d)
	n.Blk[k], n.BlkPar[k] = 0, 0
	for _, p := range n.N.All() {
		if peer, ok := c.PeerState(p); ok && peer.Pos&d != 0 {
			n.Blk[k] = n.Blk[k].Add(p)
			if peer.Par&d != 0 {
				n.BlkPar[k] = n.BlkPar[k].Add(p)
			}
		}
	}
}

// forgetPort drops port p from the ghost blockers (its link failed or is
// a new incarnation).
func forgetPort(n *Node, p model.Port) {
	for k := range n.Blk {
		n.Blk[k], n.BlkPar[k] = n.Blk[k].Remove(p), n.BlkPar[k].Remove(p)
	}
}

// guaranteeBroken returns a node behind a doorway together with a
// neighbour that was behind it when the node began its entry code and has
// not exited since.
func guaranteeBroken(w *world) (model.NodeID, model.NodeID, Doors, bool) {
	for u := range w.Nodes {
		n := &w.Nodes[u]
		for k := 0; k < 4; k++ {
			d := Doors(1 << k)
			if n.Pos&d == 0 {
				continue
			}
			for _, p := range n.Blk[k].All() {
				l := w.Meta[u].Links[p]
				if !l.Up() {
					continue
				}
				peer := &w.Nodes[l.Node()]
				if peer.Pos&d != 0 && (peer.Par&d != 0) == n.BlkPar[k].Has(p) {
					return model.NodeID(u), l.Node(), d, true
				}
			}
		}
	}
	return 0, 0, 0, false
}
