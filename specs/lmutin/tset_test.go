package lmutin_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

// TestTSetOrder: Min and Max order (ts, P) by ts, then by process id;
// DeleteMin removes exactly the minimum; DeleteProc returns what it
// deleted.
func TestTSetOrder(t *testing.T) {
	var s lmutin.TSet
	s = s.Add(2, 1).Add(1, 3).Add(1, 2).Add(3, 0)
	if ts, j, ok := s.Min(); !ok || ts != 1 || j != 2 {
		t.Errorf("Min = (%d,n%d,%v), want (1,n2)", ts, j, ok)
	}
	if ts, j, ok := s.Max(); !ok || ts != 3 || j != 0 {
		t.Errorf("Max = (%d,n%d,%v), want (3,n0)", ts, j, ok)
	}
	if ts, j, _ := s.DeleteMin(); ts != 1 || j != 2 || s.Len() != 3 || s.Has(1, 2) {
		t.Errorf("DeleteMin = (%d,n%d), left %v", ts, j, s)
	}
	s = s.Add(0, 1)
	if del := s.DeleteProc(1); del != 1<<0|1<<2 || s.HasProc(1) || s.String() != "{(1,n3),(3,n0)}" {
		t.Errorf("DeleteProc(1) = %b, left %v", del, s)
	}
	var empty lmutin.TSet
	if _, _, ok := empty.DeleteMin(); ok {
		t.Error("DeleteMin of ∅ succeeded")
	}
	if !lmutin.Less(1, 2, 1, 3) || lmutin.Less(2, 0, 1, 5) || lmutin.Less(1, 2, 1, 2) {
		t.Error("Less is not (ts, id) order")
	}
}

// TestTSetKeyInjective: equal sets have equal encodings, different sets
// different ones.
func TestTSetKeyInjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	set := func() lmutin.TSet {
		var s lmutin.TSet
		for range rng.IntN(4) {
			s = s.Add(uint8(rng.IntN(3)), model.NodeID(rng.IntN(3)))
		}
		return s
	}
	for range 20000 {
		a, b := set(), set()
		if (a == b) != (string(a.AppendKey(nil)) == string(b.AppendKey(nil))) {
			t.Fatalf("key not injective: %v %v", a, b)
		}
	}
}
