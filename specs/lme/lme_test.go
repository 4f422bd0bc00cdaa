package lme

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

const cexDir = "../../counterexamples/lme"

func heavy(t *testing.T) {
	if os.Getenv("MXCHECK_HEAVY") == "" {
		t.Skip("set MXCHECK_HEAVY=1 to run")
	}
}

// TestFiles runs the pinned scenarios of testdata/ (make golden rewrites
// them): the small configurations of issue 3, published and repaired, and
// lockout freedom under both choice modes.
func TestFiles(t *testing.T) { spectest.Files(t, Spec, "testdata") }

// TestGoldenHeavy pins the N = 3 configurations of issue 3 that finish in
// minutes without reduction (BFS only, see spectest.GoldenBFS): a static
// path, the path with one disconnect, the triangle, and the path with two
// LOCKs per node.
func TestGoldenHeavy(t *testing.T) {
	heavy(t)
	spectest.GoldenBFS(t, Spec, "testdata/golden_heavy.txt", variants(false, []spectest.Case{
		{Name: "n3-path", Params: model.Values{"nodes": "3"}},
		{Name: "n3-path-disconnect", Params: model.Values{"nodes": "3", "disconnects": "1"}},
		{Name: "n3-ring", Params: model.Values{"nodes": "3", "topology": "ring"}},
		{Name: "n3-path-locks2", Params: model.Values{"nodes": "3", "locks": "2"}},
	}))
}

// TestGoldenHeavySymmetry pins N = 3 configurations of issue 3 that only
// finish in reasonable time with symmetry reduction (nodes and ports
// renamed; distinct states are orbits): one connect on the path, one
// disconnect on the triangle, one connect and one disconnect on the path.
// About 45 minutes on 2 cores (the last two rows: 135M and 152M orbits).
func TestGoldenHeavySymmetry(t *testing.T) {
	heavy(t)
	spectest.GoldenBFS(t, Spec, "testdata/golden_heavy_symmetry.txt", variants(true, []spectest.Case{
		{Name: "n3-path-connect", Params: model.Values{"nodes": "3", "connects": "1"}},
		{Name: "n3-ring-disconnect", Params: model.Values{"nodes": "3", "topology": "ring", "disconnects": "1"}},
		{Name: "n3-path-connect-disconnect", Params: model.Values{"nodes": "3", "connects": "1", "disconnects": "1"}},
	}))
}

// TestGoldenN4 pins N = 4 on a static path (issue 3), faithful and
// repaired: a complete depth-first search of the quotient by node and port
// renaming (a BFS level of this space outgrows the machine's memory; the
// DFS needs only the seen-set): 407,123,427 and 494,093,399 orbits, 1h43
// and 2h13 on one core each with the two side by side, ~9 GB each (seen-set
// 8.7 GB; 3-4 GB of parent links on disk). make check-lme-n4 runs the two
// rows in two processes (go test -run TestGoldenN4/rows/faithful checks
// one row).
func TestGoldenN4(t *testing.T) {
	if os.Getenv("MXCHECK_LME_N4") == "" {
		t.Skip("set MXCHECK_LME_N4=1 to run (make check-lme-n4)")
	}
	cases := variants(true, []spectest.Case{{Name: "n4-path", Params: model.Values{"nodes": "4"}}})
	for i := range cases {
		cases[i].Strategy = explore.DFS
	}
	spectest.GoldenBFS(t, Spec, "testdata/golden_n4.txt", cases)
}

// variants returns each case for the faithful algorithm and for the
// repaired variant.
func variants(symmetry bool, cases []spectest.Case) []spectest.Case {
	var out []spectest.Case
	for _, vr := range []string{"faithful", "repaired"} {
		for _, c := range cases {
			p := model.Values{"variant": vr}
			for k, v := range c.Params {
				p[k] = v
			}
			out = append(out, spectest.Case{Name: vr + "/" + c.Name, Params: p, Symmetry: symmetry})
		}
	}
	return out
}

// caught is a configuration that violates Property while Baseline (the same
// configuration without the bug) satisfies it.
type caught struct {
	name     string
	params   model.Values
	baseline model.Values
	property string
	steps    int
}

// checkCaught searches each configuration to the end (every property gets
// a verdict), asserts that the property fails with the given shortest trace
// and holds on the baseline, replays the trace and stores it under cexDir.
func checkCaught(t *testing.T, cases []caught) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys, v := spectest.Build(t, Spec, c.params)
			r := spectest.Run(t, sys, explore.Options{Continue: true})
			var x *explore.Violation
			for i := range r.Violations {
				if r.Violations[i].Property == c.property {
					x = &r.Violations[i]
				}
			}
			if x == nil {
				t.Fatalf("%v: %s not violated (%v)", c.params, c.property, r.Properties)
			}
			if x.Trace.Len() != c.steps {
				t.Errorf("%v: shortest %s trace has %d steps, want %d", c.params, c.property, x.Trace.Len(), c.steps)
			}
			if c.baseline != nil {
				bsys, _ := spectest.Build(t, Spec, c.baseline)
				b := spectest.Run(t, bsys, explore.Options{Continue: true})
				for _, p := range b.Properties {
					if p.Name == c.property && p.Status != explore.Holds {
						t.Errorf("baseline %v: %s is %s, want holds", c.baseline, c.property, p.Status)
					}
				}
			}
			spectest.MustReplay(t, sys, Spec.Name, v, *x)
			var buf bytes.Buffer
			if err := explore.NewITF(Spec.Name, v, *x).Write(&buf); err != nil {
				t.Fatal(err)
			}
			spectest.Compare(t, filepath.Join(cexDir, c.name+".itf.json"), buf.Bytes())
		})
	}
}

// TestFindings: the deadlocks of the published algorithm, each absent from
// its repair.
func TestFindings(t *testing.T) {
	checkCaught(t, []caught{
		{
			// Two neighbours lock at once; each wins the trial at itself
			// before the other's request-lock() arrives; that late request
			// joins C and waits for the next trial, which waits for the
			// winner's next request-lock(), which waits for the late
			// joiner's win(): no static deadlock freedom.
			name:     "faithful-competition-deadlock",
			params:   model.Values{},
			baseline: model.Values{"variant": "late-joiners-lose"},
			property: explore.Deadlock, steps: 20,
		},
		{
			// A node in WIN with phase ⊥ never runs CLEANUP, so a lost
			// ack-lock() leaves it waiting forever (Lemma 3 fails for
			// CheckDone).
			name:     "faithful-checkdone-deadlock",
			params:   model.Values{"disconnects": "1", "variant": "late-joiners-lose"},
			baseline: model.Values{"disconnects": "1", "variant": "repaired"},
			property: explore.Deadlock, steps: 31,
		},
	})
}

// TestMutants: each mutant of issue 3 is caught by the property named, on
// top of the repaired variant (the published algorithm already deadlocks).
func TestMutants(t *testing.T) {
	rep := func(extra ...string) model.Values {
		v := model.Values{"variant": "repaired"}
		for i := 0; i+1 < len(extra); i += 2 {
			v[extra[i]] = extra[i+1]
		}
		return v
	}
	with := func(v model.Values, k, x string) model.Values {
		out := model.Values{}
		for a, b := range v {
			out[a] = b
		}
		out[k] = x
		return out
	}
	dyn := rep("disconnects", "1", "connects", "1")
	checkCaught(t, []caught{
		{"mutant-a-cleanup-no-ready", with(rep(), "mutant", "cleanup-no-ready"), rep(), explore.Deadlock, 27},
		{"mutant-b-win-while-locked", with(rep(), "mutant", "win-while-locked"), rep(), PropLockStability, 32},
		{"mutant-c-setlock-keeps-candidate", with(rep(), "mutant", "setlock-keeps-candidate"), rep(), explore.Deadlock, 27},
		{"mutant-d-reuse-ports", with(dyn, "mutant", "reuse-ports"), dyn, PropPersistentNeighbourhood, 19},
		{"mutant-d-reuse-ports-lock-validity", with(dyn, "mutant", "reuse-ports"), dyn, PropLockValidity, 23},
		// Mutants b and d break the published algorithm too.
		{"faithful-mutant-b-win-while-locked", model.Values{"mutant": "win-while-locked"}, model.Values{}, PropLockStability, 32},
		{"faithful-mutant-d-reuse-ports", model.Values{"disconnects": "1", "connects": "1", "mutant": "reuse-ports"},
			model.Values{"disconnects": "1", "connects": "1"}, PropPersistentNeighbourhood, 19},
	})
}

// TestMutantENotCaught documents that mutant (e) changes no verdict: it
// only widens a closed competition, which matters for lockout freedom, a
// liveness property these invariants do not express.
func TestMutantENotCaught(t *testing.T) {
	for _, p := range []model.Values{
		{"variant": "repaired"},
		{"variant": "repaired", "connects": "1", "disconnects": "1"},
	} {
		sys, _ := spectest.Build(t, Spec, p)
		base := spectest.Run(t, sys, explore.Options{Continue: true})
		p["mutant"] = "admit-while-competing"
		sys, _ = spectest.Build(t, Spec, p)
		mut := spectest.Run(t, sys, explore.Options{Continue: true})
		if got, want := mut.Properties, base.Properties; len(got) != len(want) || strings.Join(statuses(got), " ") != strings.Join(statuses(want), " ") {
			t.Errorf("%v: mutant e verdicts %v differ from baseline %v: update the note", p, got, want)
		}
	}
}

func statuses(ps []explore.PropertyResult) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+"="+string(p.Status))
	}
	return out
}

// TestBuildErrors: bad values give one-line errors, never a panic.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		params model.Values
		want   string
	}{
		{model.Values{"nodes": "0"}, "--nodes"},
		{model.Values{"nodes": "x"}, "--nodes"},
		{model.Values{"delta": "8"}, "--delta"},
		{model.Values{"priorities": "0"}, "--priorities"},
		{model.Values{"priorities": "9"}, "--priorities"},
		{model.Values{"locks": "-1"}, "--locks"},
		{model.Values{"mutant": "nope"}, "--mutant"},
		{model.Values{"variant": "nope"}, "--variant"},
		{model.Values{"topology": "hexagon"}, "--topology"},
		{model.Values{"topology": "0.1-1"}, "--topology"},
		{model.Values{"nodes": "4", "delta": "2", "topology": "star"}, "--topology"},
		{model.Values{"topology": "0.1-1.1,0.1-1.2"}, "already used"},
		{model.Values{"reuse-ports": "maybe"}, "--reuse-ports"},
	} {
		_, _, err := Spec.Compile(c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line mentioning %q", c.params, err, c.want)
		}
	}
}

// link builds an engine link value by hand: Link is (node+1)<<3 | port.
func link(v model.NodeID, q model.Port) model.Link { return model.Link((uint8(v)+1)<<3 | uint8(q)) }

func connect(w *world, u model.NodeID, p model.Port, v model.NodeID, q model.Port) {
	w.Meta[u].Links[p] = link(v, q)
	w.Meta[v].Links[q] = link(u, p)
}

func emptyWorld(n int) *world {
	w := &world{Nodes: make([]Node, n), Meta: make([]model.Meta, n)}
	for i := range w.Nodes {
		w.Nodes[i].Lock = None
	}
	return w
}

func holds(w *world, name string) bool {
	for _, p := range invariants() {
		if p.Name == name {
			return p.Holds(w)
		}
	}
	panic("no property " + name)
}

// TestPropertiesAreLive: each invariant returns false on a hand-built bad
// world and true on its repaired twin.
func TestPropertiesAreLive(t *testing.T) {
	if l := link(3, 2); l.Node() != 3 || l.Port() != 2 {
		t.Fatalf("link encoding changed: %v", l)
	}
	t.Run(PropMutualExclusion, func(t *testing.T) {
		// Lock sets are disjoint by construction on a consistent topology
		// (lock is a single port); only an inconsistent link table, two
		// nodes both believing they own port 1 of n2, can break it.
		w := emptyWorld(3)
		w.Nodes[2].Lock = 1
		w.Meta[0].Links[1] = link(2, 1)
		w.Meta[1].Links[1] = link(2, 1)
		w.Meta[2].Links[1] = link(0, 1)
		if holds(w, PropMutualExclusion) {
			t.Error("n2 in two lock sets, property holds")
		}
		w.Meta[1].Links[1] = 0
		if !holds(w, PropMutualExclusion) {
			t.Error("consistent world, property fails")
		}
	})
	t.Run(PropLockValidity, func(t *testing.T) {
		w := emptyWorld(2)
		connect(w, 0, 1, 1, 1)
		w.Nodes[1].Lock = 1 // locked by n0
		if holds(w, PropLockValidity) {
			t.Error("n0 idle with a lock set, property holds")
		}
		w.Nodes[0].State = Locked
		if !holds(w, PropLockValidity) {
			t.Error("n0 LOCKED, property fails")
		}
	})
	t.Run(PropLockStability, func(t *testing.T) {
		w := emptyWorld(2)
		connect(w, 0, 1, 1, 1)
		w.Nodes[0] = Node{Lock: 0, State: Locked, L: 0b11, Persist: 0b11}
		w.Nodes[1].Lock = None
		if holds(w, PropLockStability) {
			t.Error("n1 connected and in L(n0) but unlocked, property holds")
		}
		w.Nodes[1].Lock = 1
		if !holds(w, PropLockStability) {
			t.Error("n1 locked by n0, property fails")
		}
		w.Nodes[1].Lock = None
		w.Meta[0].D = 0b10 // n0 has not yet seen the disconnection of port 1
		w.Meta[0].Links[1], w.Meta[1].Links[1] = 0, 0
		if !holds(w, PropLockStability) {
			t.Error("n1 disconnected, property fails")
		}
	})
	t.Run(PropPersistentNeighbourhood, func(t *testing.T) {
		w := emptyWorld(3)
		connect(w, 0, 1, 1, 1)
		connect(w, 0, 2, 2, 1)
		w.Nodes[0] = Node{Lock: 0, State: Locked, L: 0b011, Persist: 0b111}
		w.Nodes[1].Lock = 1
		if holds(w, PropPersistentNeighbourhood) {
			t.Error("n2 persistent but not locked, property holds")
		}
		w.Nodes[2].Lock = 1
		if !holds(w, PropPersistentNeighbourhood) {
			t.Error("all persistent neighbours locked, property fails")
		}
		w.Nodes[0].Persist = 0b011
		if holds(w, PropPersistentNeighbourhood) {
			t.Error("n2 connected after InitLock but locked, property holds")
		}
	})
	t.Run(PropTwoMessages, func(t *testing.T) {
		w := emptyWorld(2)
		connect(w, 0, 1, 1, 1)
		for i := 0; i < 2; i++ {
			w.Msgs = append(w.Msgs, model.Envelope[Msg]{From: 0, FromPort: 1, To: 1, ToPort: 1, Msg: Msg{Kind: MsgPrepare}})
		}
		if !holds(w, PropTwoMessages) {
			t.Error("two messages, property fails")
		}
		w.Msgs = append(w.Msgs, model.Envelope[Msg]{From: 1, FromPort: 1, To: 0, ToPort: 1, Msg: Msg{Kind: MsgReady}})
		if holds(w, PropTwoMessages) {
			t.Error("three messages on one edge, property holds")
		}
	})
	t.Run(PropAcyclic, func(t *testing.T) {
		// The deadlocked state of faithful-competition-deadlock.
		w := emptyWorld(2)
		connect(w, 0, 1, 1, 1)
		for i := range w.Nodes {
			w.Nodes[i] = Node{Lock: None, State: Compete, Phase: PhaseCompete, L: 0b11, Persist: 0b11,
				W: WSet{T: 0b01}, C: 0b11}
			w.Nodes[i].P[1] = 1
		}
		if holds(w, PropAcyclic) {
			t.Error("cycle n0/I -> n0/P -> n1/I -> n1/P, property holds")
		}
		if got := explainCycle(w); !strings.Contains(got, "n0/I -> n0/P -> n1/I -> n1/P -> n0/I") {
			t.Errorf("explanation %q", got)
		}
		if dot := depsDOT(w); !strings.Contains(dot, `"n1/P" -> "n0/I"`) {
			t.Errorf("DOT misses an edge:\n%s", dot)
		}
		w.Nodes[1].W = WSet{}
		if !holds(w, PropAcyclic) {
			t.Error("n1 owes n1 nothing: acyclic, property fails")
		}
	})
}

// TestDepsAgainstLibrary cross-checks the bitset cycle check against
// dominikbraun/graph on random worlds.
func TestDepsAgainstLibrary(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cyclic := 0
	for i := 0; i < 20000; i++ {
		n := 2 + rng.Intn(3)
		w := emptyWorld(n)
		// a ring of n nodes on ports 1 and 2
		for u := 0; u < n && n > 2 || u < 1; u++ {
			connect(w, model.NodeID(u), 1, model.NodeID((u+1)%n), 2)
		}
		for u := range w.Nodes {
			nd := &w.Nodes[u]
			if rng.Intn(3) > 0 {
				nd.State = Compete
			}
			nd.L = model.Ports(rng.Intn(8)) | 1
			nd.W = WSet{T: model.Ports(rng.Intn(8)), F: model.Ports(rng.Intn(8))}
			for p := 0; p < 3; p++ {
				if rng.Intn(3) == 0 {
					nd.P[p] = 1
				}
			}
		}
		d := BuildDeps(w)
		lib := GraphAcyclic(Graph(w))
		if d.Acyclic() != lib {
			t.Fatalf("world %d: bitset says acyclic=%v, library %v", i, d.Acyclic(), lib)
		}
		if c := d.Cycle(); (c == nil) != lib {
			t.Fatalf("world %d: Cycle()=%v but library acyclic=%v", i, c, lib)
		}
		if !lib {
			cyclic++
		}
	}
	if cyclic == 0 || cyclic == 20000 {
		t.Fatalf("random worlds not varied: %d cyclic", cyclic)
	}
}

// TestNodeKey: the encoding is injective on fields that matter.
func TestNodeKey(t *testing.T) {
	a := Node{Lock: None}
	b := a
	b.P[2] = 1
	c := a
	c.P[1] = 1
	d := a
	d.Decided = true
	keys := map[string]bool{}
	for _, n := range []Node{a, b, c, d} {
		keys[string(n.AppendKey(nil))] = true
	}
	if len(keys) != 4 {
		t.Errorf("distinct nodes share keys")
	}
}
