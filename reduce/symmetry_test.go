package reduce_test

import (
	"fmt"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// bit is an anonymous node: a bit it may set once, a count of pings
// received, and the ports they came from.
type bit struct {
	On, Pings uint8
	Heard     model.Ports
}

func (b bit) AppendKey(dst []byte) []byte { return append(dst, b.On, b.Pings, byte(b.Heard)) }

type ping struct{}

func (ping) AppendKey(dst []byte) []byte { return dst }
func (ping) String() string              { return "ping" }

// flicker: each node may set its bit once, pinging every neighbour; a ping
// is counted. Anonymous: nothing mentions a node id.
func flicker() *model.Protocol[bit, ping] {
	return &model.Protocol[bit, ping]{
		Name:      "flicker",
		Anonymous: true,
		Init:      func(model.NodeID, *model.Config) bit { return bit{} },
		Actions: []model.Action[bit, ping]{
			{Name: "Set", Guard: func(_ *model.Ctx[bit, ping], n *bit) bool { return n.On == 0 },
				Do: func(c *model.Ctx[bit, ping], n *bit) {
					n.On = 1
					for _, p := range c.Neighbors().All() {
						c.SendPort(p, ping{})
					}
				}},
			{Name: "Ping", Kind: model.Receive, Do: func(c *model.Ctx[bit, ping], n *bit) { n.Pings++; n.Heard = n.Heard.Add(c.Port()) }},
		},
		Invariants: []model.Property[bit, ping]{
			{Name: "not-all-pinged-twice", Holds: func(w *model.World[bit, ping]) bool {
				return w.Count(func(n *bit) bool { return n.Pings >= 2 }) < len(w.Nodes)
			}},
		},
	}
}

func machine(t *testing.T, n int, topo string, b model.Budget) *model.Machine[bit, ping] {
	return machineP(t, n, topo, b, false)
}

// machineP compiles flicker, declaring port symmetry when ports is true.
func machineP(t *testing.T, n int, topo string, b model.Budget, ports bool) *model.Machine[bit, ping] {
	t.Helper()
	edges, err := model.Topology(topo, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := flicker()
	if ports {
		p.RenamePorts = func(x bit, perm *[model.MaxPorts]model.Port) bit {
			var h model.Ports
			for _, q := range x.Heard.All() {
				h = h.Add(perm[q])
			}
			x.Heard = h
			return x
		}
	}
	m, err := model.Compile(p, model.Config{Nodes: n, Delta: 2, Edges: edges, Budget: b})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// reachable enumerates every reachable state of sys.
func reachable(sys model.System) []model.State {
	seen := map[string]bool{}
	var out []model.State
	queue := sys.Init()
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		k := string(sys.AppendKey(nil, s))
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
		sys.Successors(s, func(_ model.Transition, n model.State) bool {
			queue = append(queue, sys.Clone(n))
			return true
		})
	}
	return out
}

// Three isolated nodes that each set a bit: 8 states, 4 orbits (how many
// bits are set).
func TestKnownOrbitCount(t *testing.T) {
	m := machine(t, 3, "none", model.Budget{})
	for _, tc := range []struct {
		sym  bool
		want int64
	}{{false, 8}, {true, 4}} {
		c, err := explore.New(m, explore.Options{Symmetry: tc.sym})
		if err != nil {
			t.Fatal(err)
		}
		if r := c.Run(); r.Stats.Distinct != tc.want || r.Verdict != explore.Verified {
			t.Errorf("symmetry=%v: %d states (%s), want %d", tc.sym, r.Stats.Distinct, r.Verdict, tc.want)
		}
	}
}

// Canonical induces the same partition of the reachable states as the
// brute-force least key over all N! permutations, and the symmetric search
// finds exactly one state per orbit with the same verdict and shortest
// counterexample length as the full search.
func TestCanonicalAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		n     int
		topo  string
		b     model.Budget
		ports bool
	}{
		{3, "path", model.Budget{}, false},
		{3, "ring", model.Budget{Disconnects: 1}, false},
		{4, "path", model.Budget{Disconnects: 1, Connects: 1}, false},
		{4, "ring", model.Budget{}, false},
		{3, "none", model.Budget{Connects: 2}, false},
		{3, "path", model.Budget{}, true},
		{3, "ring", model.Budget{Disconnects: 1}, true},
		{3, "path", model.Budget{Disconnects: 1, Connects: 1}, true},
		{4, "ring", model.Budget{}, true},
		{3, "none", model.Budget{Connects: 2}, true},
	} {
		t.Run(fmt.Sprintf("%d-%s-%v-ports=%v", tc.n, tc.topo, tc.b, tc.ports), func(t *testing.T) {
			m := machineP(t, tc.n, tc.topo, tc.b, tc.ports)
			sym := m.Symmetric()
			canon := reduce.NewCanonical(sym)
			classOf := map[string]string{} // canonical key -> brute key
			brute := map[string]bool{}
			states := reachable(m)
			for _, s := range states {
				ck := string(canon.AppendKey(nil, s))
				bk := string(reduce.BruteForce(nil, sym, s))
				brute[bk] = true
				if prev, ok := classOf[ck]; ok && prev != bk {
					t.Fatal("two states of different orbits share a canonical key")
				}
				classOf[ck] = bk
			}
			if len(classOf) != len(brute) {
				t.Fatalf("canonical keys: %d classes, brute force: %d orbits", len(classOf), len(brute))
			}
			full := run(t, m, explore.Options{Continue: true})
			red := run(t, m, explore.Options{Continue: true, Symmetry: true})
			if full.Stats.Distinct != int64(len(states)) || red.Stats.Distinct != int64(len(brute)) {
				t.Errorf("full %d (want %d), symmetric %d (want %d orbits)", full.Stats.Distinct, len(states), red.Stats.Distinct, len(brute))
			}
			if fmt.Sprint(full.Properties) != fmt.Sprint(red.Properties) {
				t.Errorf("verdicts differ: %v vs %v", full.Properties, red.Properties)
			}
			for i := range full.Violations {
				if full.Violations[i].Trace.Len() != red.Violations[i].Trace.Len() {
					t.Errorf("shortest trace %d vs %d", full.Violations[i].Trace.Len(), red.Violations[i].Trace.Len())
				}
			}
			t.Logf("%d states, %d orbits (%.2fx)", len(states), len(brute), float64(len(states))/float64(len(brute)))
		})
	}
}

func run(t *testing.T, sys model.System, opt explore.Options) *explore.Result {
	t.Helper()
	c, err := explore.New(sys, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run()
}

// Ricart–Agrawala breaks ties by node id: symmetry must be refused.
func TestSymmetryRefusedWithIDs(t *testing.T) {
	sys, _, err := ra.Spec.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := explore.New(sys, explore.Options{Symmetry: true}); err == nil {
		t.Error("symmetry accepted for a spec whose ids break ties")
	}
}

// CheckSymmetry accepts flicker's declared symmetries and rejects a protocol
// whose steps treat port 1 specially while declaring ports interchangeable,
// and one whose guard reads a node id while declaring nodes anonymous.
func TestCheckSymmetry(t *testing.T) {
	for _, ports := range []bool{false, true} {
		m := machineP(t, 3, "path", model.Budget{Disconnects: 1}, ports)
		if err := reduce.CheckSymmetry(m, 0); err != nil {
			t.Errorf("ports=%v: honest symmetry rejected: %v", ports, err)
		}
	}
	portBiased := flicker()
	portBiased.RenamePorts = func(x bit, perm *[model.MaxPorts]model.Port) bit {
		var h model.Ports
		for _, q := range x.Heard.All() {
			h = h.Add(perm[q])
		}
		x.Heard = h
		return x
	}
	portBiased.Actions[0].Do = func(c *model.Ctx[bit, ping], n *bit) {
		n.On = 1
		if c.Neighbors().Has(1) {
			c.SendPort(1, ping{}) // only port 1: not port-symmetric
		}
	}
	idBiased := flicker()
	idBiased.Actions[0].Guard = func(c *model.Ctx[bit, ping], n *bit) bool { return n.On == 0 && c.Self() != 2 }
	for name, p := range map[string]*model.Protocol[bit, ping]{"port-biased": portBiased, "id-biased": idBiased} {
		edges, _ := model.Topology("path", 3, 2)
		m, err := model.Compile(p, model.Config{Nodes: 3, Delta: 2, Edges: edges})
		if err != nil {
			t.Fatal(err)
		}
		if err := reduce.CheckSymmetry(m, 0); err == nil {
			t.Errorf("%s: a false symmetry declaration was accepted", name)
		}
	}
}

// AppendPermutedKey writes the key of the renamed state without building
// it: it must equal the key of Permute's state for every renaming of nodes
// and ports, on every reachable state.
func TestPermutedKeyMatchesPermute(t *testing.T) {
	m := machineP(t, 3, "path", model.Budget{Disconnects: 1, Connects: 1}, true)
	sym := m.Symmetric()
	perms := [][]model.NodeID{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	id := [model.MaxPorts]model.Port{0, 1, 2, 3, 4, 5, 6, 7}
	swap := [model.MaxPorts]model.Port{0, 2, 1, 3, 4, 5, 6, 7}
	checked := 0
	for _, s := range reachable(m) {
		for _, perm := range perms {
			for mask := 0; mask < 8; mask++ {
				ports := make([][model.MaxPorts]model.Port, 3)
				for i := range ports {
					ports[i] = id
					if mask&(1<<i) != 0 {
						ports[i] = swap
					}
				}
				for _, ps := range [][][model.MaxPorts]model.Port{ports, nil} {
					got := sym.AppendPermutedKey(nil, s, perm, ps)
					want := m.AppendKey(nil, sym.Permute(s, perm, ps))
					if string(got) != string(want) {
						t.Fatalf("perm %v ports %v: AppendPermutedKey %x, key of Permute %x", perm, ps, got, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d renamings checked", checked)
	}
}
