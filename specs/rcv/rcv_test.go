package rcv_test

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/rcv"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestFiles runs the pinned scenarios of testdata/ (make golden rewrites
// them): verdicts, state counts and depths cross-checked BFS = DFS =
// parallel BFS, with disk levels and reductions, on bag and FIFO channels,
// for the faithful reading, its variants and its mutants, and the stored
// counterexamples of the findings.
func TestFiles(t *testing.T) { spectest.Files(t, rcv.Spec, "testdata") }

// TestMutualExclusionBroken stores the shortest trace in which two nodes
// are in the CS together, for the findings whose first violation is
// next-chain-consistent: the faithful algorithm at N = 4 (three
// requesters) on bag and on FIFO channels, and the same configuration with
// either repair of Exchange (two passes; line 18 deleting from NSIT too),
// where it goes away.
func TestMutualExclusionBroken(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params model.Values
		steps  int // 0: mutual exclusion holds
	}{
		{"faithful-exchange-row-order-mutex", model.Values{"nodes": "4", "requesters": "3"}, 13},
		{"faithful-exchange-row-order-mutex-fifo", model.Values{"nodes": "4", "requesters": "3", "fifo": "true"}, 13},
		{"two-pass-n4", model.Values{"nodes": "4", "requesters": "3", "variant": "exchange-two-pass"}, 0},
		{"delete-both-n4", model.Values{"nodes": "4", "requesters": "3", "variant": "exchange-delete-both"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, v := spectest.Build(t, rcv.Spec, tc.params)
			r := spectest.Run(t, sys, explore.Options{Continue: true, NoDeadlock: true})
			var found *explore.Violation
			for i := range r.Violations {
				if r.Violations[i].Property == "mutual-exclusion" {
					found = &r.Violations[i]
				}
			}
			if tc.steps == 0 {
				if found != nil || r.Verdict != explore.Verified {
					t.Fatalf("verdict %s, want verified", r.Verdict)
				}
				return
			}
			if found == nil {
				t.Fatalf("mutual exclusion holds (verdict %s), want a violation", r.Verdict)
			}
			if found.Trace.Len() != tc.steps {
				t.Errorf("shortest trace %d steps, want %d", found.Trace.Len(), tc.steps)
			}
			spectest.MustReplay(t, sys, rcv.Spec.Name, v, *found)
			var buf bytes.Buffer
			if err := explore.NewITF(rcv.Spec.Name, v, *found).Write(&buf); err != nil {
				t.Fatal(err)
			}
			spectest.Compare(t, filepath.Join("../../counterexamples/rcv", tc.name+".itf.json"), buf.Bytes())
		})
	}
}

// TestFullN4DFS: four nodes with one request each are beyond a BFS in a
// test, but a DFS meets the same Exchange flaw within about 116,000
// states: a finished request keeps a vote in a row copied early (step 15),
// two nodes order 3 and 2 differently, and the Next links form a cycle
// n2 -> n3 -> n2 (a deadlock). The trace is not the shortest.
func TestFullN4DFS(t *testing.T) {
	sys, v := spectest.Build(t, rcv.Spec, model.Values{"nodes": "4"})
	// The bound keeps the test finite should the flaw ever go away.
	r := spectest.Run(t, sys, explore.Options{Strategy: explore.DFS, MaxStates: 1_000_000})
	if r.Verdict != explore.Violated {
		t.Fatalf("verdict %s, want violated", r.Verdict)
	}
	x := r.Violations[0]
	if x.Property != "next-chain-consistent" || x.Trace.Len() != 18 {
		t.Fatalf("first violation %s in %d steps, want next-chain-consistent in 18", x.Property, x.Trace.Len())
	}
	spectest.MustReplay(t, sys, rcv.Spec.Name, v, x)
	var buf bytes.Buffer
	if err := explore.NewITF(rcv.Spec.Name, v, x).Write(&buf); err != nil {
		t.Fatal(err)
	}
	spectest.Compare(t, "../../counterexamples/rcv/faithful-n4-r1-next-cycle-dfs.itf.json", buf.Bytes())
}

// TestBadConfigurations: impossible configurations are one-line errors.
func TestBadConfigurations(t *testing.T) {
	for name, v := range map[string]model.Values{
		"one-node":           {"nodes": "1"},
		"five-nodes":         {"nodes": "5"},
		"negative-requests":  {"requests": "-1"},
		"too-many-requests":  {"requests": "4"},
		"requesters-too-big": {"nodes": "3", "requesters": "4"},
		"unknown-variant":    {"variant": "bogus"},
		"unknown-mutant":     {"mutant": "bogus"},
		"fifo-not-bool":      {"fifo": "maybe"},
		"not-a-number":       {"nodes": "three"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := rcv.Spec.Compile(v); err == nil {
				t.Errorf("Compile(%v) succeeded, want an error", v)
			} else if strings.Contains(err.Error(), "\n") {
				t.Errorf("Compile(%v): the error is not one line: %q", v, err)
			}
		})
	}
}

// TestKeyInjective: over random node states and messages, equal values have
// equal encodings and different values different encodings.
func TestKeyInjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	list := func() rcv.List {
		var l rcv.List
		for k := rng.IntN(3); k > 0; k-- {
			l.Append(rcv.Tuple{ID: model.NodeID(rng.IntN(2)), TS: uint8(1 + rng.IntN(2))})
		}
		return l
	}
	sit := func() rcv.SIT {
		var s rcv.SIT
		for k := 0; k < 2; k++ {
			s[rng.IntN(rcv.MaxN)] = rcv.Row{TS: uint8(rng.IntN(2)), MNL: list()}
		}
		return s
	}
	node := func() rcv.Node {
		return rcv.Node{Phase: rcv.Phase(rng.IntN(3)), ReqTS: uint8(rng.IntN(2)), Next: uint8(rng.IntN(2)),
			NONL: list(), NSIT: sit(), Overflow: rng.IntN(4) == 0, Stranded: rng.IntN(4) == 0,
			Cost: uint8(rng.IntN(2)), NextCost: uint8(rng.IntN(2))}
	}
	msg := func() rcv.Msg {
		return rcv.Msg{Kind: rcv.Kind(rng.IntN(3)), Host: model.NodeID(rng.IntN(2)), HostTS: uint8(rng.IntN(2)),
			UL: model.NodeSet(rng.IntN(4)), Next: model.NodeID(rng.IntN(2)), MONL: list(), MSIT: sit(), Cost: uint8(rng.IntN(2))}
	}
	// b is a copy of a with one field redrawn (often to the same value),
	// so near-equal pairs, which catch a field left out of the key, are
	// common.
	nodeFields := []func(n *rcv.Node){
		func(n *rcv.Node) { n.Phase = rcv.Phase(rng.IntN(3)) },
		func(n *rcv.Node) { n.ReqTS = uint8(rng.IntN(2)) },
		func(n *rcv.Node) { n.Next = uint8(rng.IntN(2)) },
		func(n *rcv.Node) { n.NONL = list() },
		func(n *rcv.Node) { n.NSIT = sit() },
		func(n *rcv.Node) { n.Overflow = rng.IntN(2) == 0 },
		func(n *rcv.Node) { n.Stranded = rng.IntN(2) == 0 },
		func(n *rcv.Node) { n.Cost = uint8(rng.IntN(2)) },
		func(n *rcv.Node) { n.NextCost = uint8(rng.IntN(2)) },
	}
	msgFields := []func(m *rcv.Msg){
		func(m *rcv.Msg) { m.Kind = rcv.Kind(rng.IntN(3)) },
		func(m *rcv.Msg) { m.Host = model.NodeID(rng.IntN(2)) },
		func(m *rcv.Msg) { m.HostTS = uint8(rng.IntN(2)) },
		func(m *rcv.Msg) { m.UL = model.NodeSet(rng.IntN(4)) },
		func(m *rcv.Msg) { m.Next = model.NodeID(rng.IntN(2)) },
		func(m *rcv.Msg) { m.MONL = list() },
		func(m *rcv.Msg) { m.MSIT = sit() },
		func(m *rcv.Msg) { m.Cost = uint8(rng.IntN(2)) },
	}
	equal, differ := 0, 0
	for i := 0; i < 50000; i++ {
		a := node()
		b := a
		nodeFields[rng.IntN(len(nodeFields))](&b)
		if (a == b) != (string(a.AppendKey(nil)) == string(b.AppendKey(nil))) {
			t.Fatalf("node key not injective: %+v %+v", a, b)
		}
		m := msg()
		n := m
		msgFields[rng.IntN(len(msgFields))](&n)
		if (m == n) != (string(m.AppendKey(nil)) == string(n.AppendKey(nil))) {
			t.Fatalf("message key not injective: %+v %+v", m, n)
		}
		if a == b && m == n {
			equal++
		} else {
			differ++
		}
	}
	if equal == 0 || differ == 0 {
		t.Fatalf("%d equal and %d different pairs; the test proves nothing", equal, differ)
	}
}

// TestLine26Reading: the two readings of MPM line 26 differ only from N = 3
// with two requests each, whose space is beyond the test's reach; to the
// depth where the prose reading drops a requester (12 steps), the faithful
// (line 26) reading has no violation.
func TestLine26Reading(t *testing.T) {
	for _, tc := range []struct {
		variant string
		clean   bool
	}{{rcv.Faithful, true}, {"im-current-request", false}} {
		sys, _ := spectest.Build(t, rcv.Spec, model.Values{"requests": "2", "variant": tc.variant})
		r := spectest.Run(t, sys, explore.Options{MaxDepth: 13})
		if clean := len(r.Violations) == 0; clean != tc.clean {
			t.Errorf("%s to depth 13: verdict %s, violations %d, want clean=%v", tc.variant, r.Verdict, len(r.Violations), tc.clean)
		}
		if tc.clean && r.Verdict != explore.Incomplete {
			t.Errorf("%s: a depth-bounded search says %s, want incomplete", tc.variant, r.Verdict)
		}
	}
}

// TestListOps: deleting keeps unused slots zero (so == and AppendKey
// agree), DropThrough drops a prefix, and a full list refuses to grow.
func TestListOps(t *testing.T) {
	var l rcv.List
	for i := 1; i <= rcv.MaxList; i++ {
		if !l.Append(rcv.Tuple{ID: model.NodeID(i % 4), TS: uint8(i)}) {
			t.Fatalf("append %d refused", i)
		}
	}
	if l.Append(rcv.Tuple{ID: 0, TS: 99}) {
		t.Fatal("a full list grew")
	}
	l.Delete(rcv.Tuple{ID: 2, TS: 2})
	l.DropThrough(1)
	var want rcv.List
	for i := 4; i <= rcv.MaxList; i++ {
		want.Append(rcv.Tuple{ID: model.NodeID(i % 4), TS: uint8(i)})
	}
	if l != want {
		t.Fatalf("got %v (%+v), want %v", l, l, want)
	}
}
