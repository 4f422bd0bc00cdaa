package lkcs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lkcs"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

// TestKeyInjective: over random node states and messages, equal values
// have equal encodings and different values different encodings.
func TestKeyInjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	set := func() lmutin.TSet {
		var s lmutin.TSet
		for range rng.IntN(3) {
			s = s.Add(uint8(rng.IntN(2)), model.NodeID(rng.IntN(2)))
		}
		return s
	}
	node := func() lkcs.Node {
		n := lkcs.Node{State: lkcs.CSState(rng.IntN(2)), Seq: lkcs.Seq(rng.IntN(3)), TriggerWait: rng.IntN(2) == 0,
			Changes: uint8(rng.IntN(2)), TS: uint8(rng.IntN(2)), Undefined: rng.IntN(2) == 0, Recv: uint8(rng.IntN(2)), Nominee: uint8(rng.IntN(2))}
		for at := range 2 {
			n.NGrants[at] = model.NodeSet(rng.IntN(4))
			n.GrantedTo[at], n.PendingReq[at] = set(), set()
			n.Preempting[at] = lkcs.Stamp{TS: uint8(rng.IntN(2)), P: int8(rng.IntN(3) - 1)}
		}
		return n
	}
	msg := func() lkcs.Msg {
		return lkcs.Msg{Kind: lkcs.Kind(rng.IntN(7)), At: lkcs.At(rng.IntN(2)), TS: uint8(rng.IntN(2))}
	}
	// Each field changed alone must change the key.
	tweak := []func(n *lkcs.Node){
		func(n *lkcs.Node) { n.State ^= 1 },
		func(n *lkcs.Node) { n.Seq = (n.Seq + 1) % 3 },
		func(n *lkcs.Node) { n.TriggerWait = !n.TriggerWait },
		func(n *lkcs.Node) { n.Changes++ },
		func(n *lkcs.Node) { n.TS++ },
		func(n *lkcs.Node) { n.Undefined = !n.Undefined },
		func(n *lkcs.Node) { n.Recv++ },
		func(n *lkcs.Node) { n.Nominee++ },
		func(n *lkcs.Node) { n.NGrants[1] ^= 2 },
		func(n *lkcs.Node) { n.GrantedTo[0] = n.GrantedTo[0].Add(3, 1) },
		func(n *lkcs.Node) { n.PendingReq[1] = n.PendingReq[1].Add(3, 0) },
		func(n *lkcs.Node) { n.Preempting[0].P = 4 },
		func(n *lkcs.Node) { n.Preempting[1].TS = 9 },
	}
	for range 20000 {
		a, b := node(), node()
		if (a == b) != (string(a.AppendKey(nil)) == string(b.AppendKey(nil))) {
			t.Fatalf("node key not injective: %+v %+v", a, b)
		}
		c := a
		tweak[rng.IntN(len(tweak))](&c)
		if string(a.AppendKey(nil)) == string(c.AppendKey(nil)) {
			t.Fatalf("node key does not see a change: %+v %+v", a, c)
		}
		m, n := msg(), msg()
		if (m == n) != (string(m.AppendKey(nil)) == string(n.AppendKey(nil))) {
			t.Fatalf("message key not injective: %+v %+v", m, n)
		}
	}
}
