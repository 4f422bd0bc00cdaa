package lmutin

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// Spec is the registry entry for lmutin.
var Spec = &model.Spec{
	Name:    "lmutin",
	Summary: "generalized local l_i-mutual inclusion, l_i-LMUTIN (seed 002, Algorithms 1–2)",
	Params: []model.Param{
		{Name: "nodes", Kind: model.IntParam, Default: "3", Usage: "number of processes"},
		{Name: "topology", Kind: model.StringParam, Default: "path", Usage: "graph: path, ring, star, complete, or edges u.p-v.q,... (ports ignored)"},
		{Name: "l", Kind: model.IntParam, Default: "1", Usage: "l_i at every process (0..|N_i|+1)"},
		{Name: "l-at", Kind: model.StringParam, Default: "", Usage: "I:V[,I:V...]: l_I = V at process I"},
		{Name: "cs", Kind: model.StringParam, Default: "1", Usage: "processes in the CS in C_0, e.g. 0,2 (C_0 must be safe)"},
		{Name: "exits", Kind: model.IntParam, Default: "2", Usage: "exit sequences per process (entries are unbounded: they never wait)"},
		{Name: "fifo", Kind: model.BoolParam, Default: "false", Usage: "FIFO channels (default: bags, any order)"},
		{Name: "variant", Kind: model.StringParam, Default: Variants[0].Name, Usage: "reading or repair: " + joinNames(Variants)},
		{Name: "mutant", Kind: model.StringParam, Default: Mutants[0].Name, Usage: "deliberate bug: " + joinNames(Mutants)},
	},
	Build: Build,
}

// Build compiles a configuration of lmutin.
func Build(v model.Values) (model.System, error) {
	a, cfg, fifo, err := parse(v)
	if err != nil {
		return nil, err
	}
	vr, mut, err := changes(v)
	if err != nil {
		return nil, err
	}
	return model.Compile(protocol(a, fifo, vr, mut), cfg)
}

// changes looks up --variant and --mutant.
func changes(v model.Values) (vr, mut *Change, err error) {
	if err := model.Choice("variant", v.String("variant"), names(Variants)...); err != nil {
		return nil, nil, err
	}
	if err := model.Choice("mutant", v.String("mutant"), names(Mutants)...); err != nil {
		return nil, nil, err
	}
	return lookup(Variants, v.String("variant")), lookup(Mutants, v.String("mutant")), nil
}

// parse reads the configuration: graph, l_i, C_0, workload, channels.
func parse(v model.Values) (*algo, model.Config, bool, error) {
	var cfg model.Config
	n, err := v.IntIn("nodes", 1, MaxProcs)
	if err != nil {
		return nil, cfg, false, err
	}
	g, err := ParseGraph(v.String("topology"), n)
	if err != nil {
		return nil, cfg, false, err
	}
	lu, err := v.IntIn("l", 0, MaxProcs)
	if err != nil {
		return nil, cfg, false, err
	}
	l, err := PerProcess("l", func(int) int { return lu }, v.String("l-at"), n, func(int) int { return 0 }, func(i int) int { return g.Degree(model.NodeID(i)) + 1 })
	if err != nil {
		return nil, cfg, false, err
	}
	cs, err := ParseSet("cs", v.String("cs"), n)
	if err != nil {
		return nil, cfg, false, err
	}
	a := &algo{g: g, l: l, cs: cs}
	for i := range n {
		if got := (g.Closed(model.NodeID(i)) & cs).Len(); got < l[i] {
			return nil, cfg, false, fmt.Errorf("--cs: C_0 is not safe: |CS_%d(C_0)| = %d < l_%d = %d", i, got, i, l[i])
		}
	}
	ch, err := v.IntIn("exits", 0, MaxTS)
	if err != nil {
		return nil, cfg, false, err
	}
	fifo, err := v.Bool("fifo")
	if err != nil {
		return nil, cfg, false, err
	}
	return a, model.Config{Nodes: n, Requests: ch}, fifo, nil
}

// protocol returns l_i-LMUTIN on configuration a with the given variant
// and mutant.
func protocol(a *algo, fifo bool, vr, mut *Change) *model.Protocol[Node, Msg] {
	acts := a.actions()
	init := a.init
	for _, ch := range []*Change{vr, mut} {
		if ch.Replace != nil {
			acts = Replace(acts, ch.Replace(a))
		}
		if ch.Init != nil {
			f := ch.Init
			init = func(i model.NodeID) Node { return f(a, i) }
		}
	}
	return &model.Protocol[Node, Msg]{
		Name:       "lmutin",
		Init:       func(i model.NodeID, _ *model.Config) Node { return init(i) },
		Actions:    acts,
		Invariants: a.invariants(),
		// Unfinished work: a process in its exit sequence's wait. In the
		// CS or in the remainder section the application may stop.
		Pending:  func(n *Node) bool { return n.Seq != Idle },
		Hungry:   func(n *Node) bool { return n.Seq != Idle },
		Liveness: Liveness,
		FIFO:     fifo,
	}
}
