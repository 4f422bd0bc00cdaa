package explore

import (
	"slices"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
)

func raSystem(t *testing.T, v model.Values) model.System {
	t.Helper()
	sys, _, err := ra.Spec.Compile(v)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func runMember(t *testing.T, sys model.System, opt Options, m SwarmMember) (*Result, *SwarmInfo) {
	t.Helper()
	opt.Strategy = DFS
	c, err := New(sys, opt)
	if err != nil {
		t.Fatal(err)
	}
	r, info, err := c.CheckSwarm(m)
	if err != nil {
		t.Fatal(err)
	}
	return r, info
}

func labels(tr Trace) []string {
	var out []string
	for _, s := range tr.Steps[1:] {
		out = append(out, s.Label)
	}
	return out
}

// TestSwarmMemberZeroIsDFS: member 0 is the sequential DFS exactly (counts
// and trace), whatever the swarm's size and seed.
func TestSwarmMemberZeroIsDFS(t *testing.T) {
	sys := raSystem(t, model.Values{"churn": "1"})
	c, err := New(sys, Options{Strategy: DFS})
	if err != nil {
		t.Fatal(err)
	}
	want := c.Run()
	for _, m := range []SwarmMember{{Of: 1}, {Of: 8, Seed: 42}} {
		got, info := runMember(t, sys, Options{}, m)
		if len(got.Violations) == 0 {
			t.Fatalf("member 0 of %d: %v, no violation", m.Of, got.Verdict)
		}
		if !info.Order.Plain || got.Stats.Distinct != want.Stats.Distinct || got.Stats.Transitions != want.Stats.Transitions ||
			!slices.Equal(labels(got.Violations[0].Trace), labels(want.Violations[0].Trace)) {
			t.Fatalf("member 0 of %d: %d states %d transitions, trace %d steps; the DFS: %d, %d, %d",
				m.Of, got.Stats.Distinct, got.Stats.Transitions, got.Violations[0].Trace.Len(),
				want.Stats.Distinct, want.Stats.Transitions, want.Violations[0].Trace.Len())
		}
	}
}

// TestSwarmMembersDiffer: the members of a swarm search in different
// orders: on RA with one churned entry each stops at the first violation
// after a different number of states, and at least two traces differ.
func TestSwarmMembersDiffer(t *testing.T) {
	sys := raSystem(t, model.Values{"churn": "1"})
	counts := map[int64]bool{}
	traces := map[string]bool{}
	for i := 0; i < 4; i++ {
		r, info := runMember(t, sys, Options{}, SwarmMember{Index: i, Of: 4, Seed: 1})
		if r.Verdict != Violated {
			t.Fatalf("member %d: %v", i, r.Verdict)
		}
		if info.Order.Plain != (i == 0) {
			t.Fatalf("member %d: plain order %v", i, info.Order.Plain)
		}
		counts[r.Stats.Distinct] = true
		traces[strings.Join(labels(r.Violations[0].Trace), "\n")] = true
	}
	if len(counts) < 4 {
		t.Fatalf("4 members stopped after %d different state counts: %v", len(counts), counts)
	}
	if len(traces) < 2 {
		t.Fatalf("every member found the same trace")
	}
}

// TestSwarmDeterministic: a member is a function of (seed, index, of): the
// same member twice gives the same counts and trace; another seed another
// order.
func TestSwarmDeterministic(t *testing.T) {
	sys := raSystem(t, model.Values{"churn": "1"})
	m := SwarmMember{Index: 3, Of: 4, Seed: 7}
	a, ia := runMember(t, sys, Options{}, m)
	b, ib := runMember(t, sys, Options{}, m)
	if a.Stats.Distinct != b.Stats.Distinct || a.Stats.Transitions != b.Stats.Transitions ||
		!slices.Equal(labels(a.Violations[0].Trace), labels(b.Violations[0].Trace)) || ia.MemberSeed != ib.MemberSeed {
		t.Fatalf("the same member twice: %d/%d states", a.Stats.Distinct, b.Stats.Distinct)
	}
	m.Seed = 8
	if _, ic := runMember(t, sys, Options{}, m); ic.MemberSeed == ia.MemberSeed {
		t.Fatal("another seed, the same member seed")
	}
}

// TestSwarmCompleteWithExactStorage: on a configuration without a
// violation every member with exact storage runs to its end and visits
// exactly the states and transitions of the BFS, in whatever order.
func TestSwarmCompleteWithExactStorage(t *testing.T) {
	sys := raSystem(t, model.Values{"requests": "2"})
	c, err := New(sys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := c.Run()
	if want.Verdict != Verified {
		t.Fatalf("BFS: %v", want.Verdict)
	}
	for i := 0; i < 4; i++ {
		r, _ := runMember(t, sys, Options{}, SwarmMember{Index: i, Of: 4, Seed: 3})
		if r.Verdict != Verified || !r.Exhausted || r.Stats.Distinct != want.Stats.Distinct || r.Stats.Transitions != want.Stats.Transitions {
			t.Fatalf("member %d: %v, %d states %d transitions; BFS %d, %d", i, r.Verdict, r.Stats.Distinct, r.Stats.Transitions, want.Stats.Distinct, want.Stats.Transitions)
		}
	}
}

// TestSwarmLimits: a member stopped by a limit is incomplete.
func TestSwarmLimits(t *testing.T) {
	sys := raSystem(t, model.Values{"requests": "2"})
	r, _ := runMember(t, sys, Options{MaxStates: 500}, SwarmMember{Index: 1, Of: 2})
	if r.Verdict != Incomplete || r.Limit != "max-states" || r.Stats.Distinct != 500 {
		t.Fatalf("%v %q %d", r.Verdict, r.Limit, r.Stats.Distinct)
	}
	r, _ = runMember(t, sys, Options{MaxDepth: 5}, SwarmMember{Index: 1, Of: 2})
	if r.Verdict != Incomplete || r.Limit != "max-depth" {
		t.Fatalf("%v %q", r.Verdict, r.Limit)
	}
}

// TestBitstate: a bitstate member is never verified; a large array
// misses (almost) nothing, a tiny one misses states; a violation is found
// all the same.
func TestBitstate(t *testing.T) {
	b := newBitstate(13, 5)
	f := fingerprint{lo: 12345}
	if !b.insert(f) || b.insert(f) || !b.contains(f) || b.contains(fingerprint{lo: 999}) || b.set != BitstateHashes {
		t.Fatalf("bitstate set: %d bits set", b.set)
	}
	sys := raSystem(t, model.Values{"requests": "2"})
	exact, _ := runMember(t, sys, Options{}, SwarmMember{Index: 2, Of: 4})
	big, info := runMember(t, sys, Options{}, SwarmMember{Index: 2, Of: 4, Storage: Bitstate, BitstateBits: 27})
	if big.Verdict != Incomplete || big.Limit != "bitstate" || big.Exhausted || info.Bitstate == nil || big.Stats.Distinct > exact.Stats.Distinct || big.Stats.Distinct < exact.Stats.Distinct*99/100 {
		t.Fatalf("2^27 bits: %v %q, %d states of %d", big.Verdict, big.Limit, big.Stats.Distinct, exact.Stats.Distinct)
	}
	for _, p := range big.Properties {
		if p.Status == Holds && p.Kind != model.Sometimes {
			t.Fatalf("bitstate says %s holds", p.Name)
		}
	}
	small, info := runMember(t, sys, Options{}, SwarmMember{Index: 2, Of: 4, Storage: Bitstate, BitstateBits: 13})
	if small.Stats.Distinct >= exact.Stats.Distinct || info.Bitstate.Omission < 0.5 {
		t.Fatalf("2^13 bits: %d states of %d, omission %v", small.Stats.Distinct, exact.Stats.Distinct, info.Bitstate.Omission)
	}
	bug := raSystem(t, model.Values{"churn": "1"})
	r, _ := runMember(t, bug, Options{}, SwarmMember{Index: 1, Of: 4, Storage: Bitstate, BitstateBits: 20})
	if r.Verdict != Violated {
		t.Fatalf("bitstate on RA with churn: %v", r.Verdict)
	}
}

// TestSwarmMemberRefused: bad members and options are one-line errors.
func TestSwarmMemberRefused(t *testing.T) {
	sys := raSystem(t, nil)
	dfs, _ := New(sys, Options{Strategy: DFS})
	bfs, _ := New(sys, Options{})
	par, _ := New(sys, Options{Strategy: DFS, Workers: 2})
	for _, tc := range []struct {
		c *Checker
		m SwarmMember
	}{
		{dfs, SwarmMember{Of: 0}},
		{dfs, SwarmMember{Index: 4, Of: 4}},
		{dfs, SwarmMember{Index: -1, Of: 4}},
		{dfs, SwarmMember{Of: 1, Storage: Bitstate, BitstateBits: 5}},
		{dfs, SwarmMember{Of: 1, BitstateBits: 20}},
		{bfs, SwarmMember{Of: 1}},
		{par, SwarmMember{Of: 1}},
	} {
		if _, _, err := tc.c.CheckSwarm(tc.m); err == nil {
			t.Errorf("%+v accepted", tc.m)
		}
	}
}
