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
		model.IntParam("nodes", 3, 1, MaxProcs, "number of processes"),
		model.TextParam("topology", "path", "graph: path, ring, star, complete, or edges u.p-v.q,... (ports ignored)"),
		model.IntParam("l", 1, 0, MaxProcs, "l_i at every process (at most |N_i|+1)"),
		model.TextParam("l-at", "", "I:V[,I:V...]: l_I = V at process I"),
		model.TextParam("cs", "1", "processes in the CS in C_0, e.g. 0,2 (C_0 must be safe)"),
		model.IntParam("exits", 2, 0, MaxTS, "exit sequences per process (entries are unbounded: they never wait)"),
		model.BoolParam("fifo", false, "FIFO channels (default: bags, any order)"),
		model.BoolParam("count-messages", false, "add the ghost message count and the property message-bound"),
		variantsOf(nil).Param("variant", "reading or repair"),
		mutantsOf(nil).Param("mutant", "deliberate bug"),
	},
	Build: Build,
}

// Build compiles a configuration of lmutin.
func Build(args *model.Args) (model.System, error) {
	a, err := parse(args)
	if err != nil {
		return nil, err
	}
	p := &model.Protocol[Node, Msg]{
		Name:       "lmutin",
		RawKey:     true,
		Init:       func(i model.NodeID, _ *model.Config) Node { return a.init(i) },
		Actions:    a.actions(),
		Invariants: a.invariants(),
		// Unfinished work: a process in its exit sequence's wait. In the
		// CS or in the remainder section the application may stop.
		Pending:  func(n *Node) bool { return n.Seq != Idle },
		Hungry:   func(n *Node) bool { return n.Seq != Idle },
		Liveness: Liveness,
		FIFO:     args.Bool("fifo"),
	}
	p = model.Apply(p, variantsOf(a).Get(args.String("variant")), mutantsOf(a).Get(args.String("mutant")))
	if args.Bool("count-messages") {
		p = model.Apply(p, a.countMessages())
	}
	return model.Compile(p, model.Config{Nodes: a.g.n(), Requests: args.Int("exits")})
}

// parse reads the configuration: graph, l_i and C_0 (which must be safe).
func parse(args *model.Args) (*algo, error) {
	n := args.Int("nodes")
	g, err := ParseGraph(args.String("topology"), n)
	if err != nil {
		return nil, err
	}
	lu := args.Int("l")
	l, err := PerProcess("l", func(int) int { return lu }, args.String("l-at"), n, func(int) int { return 0 }, func(i int) int { return g.Degree(model.NodeID(i)) + 1 })
	if err != nil {
		return nil, err
	}
	cs, err := ParseSet("cs", args.String("cs"), n)
	if err != nil {
		return nil, err
	}
	for i := range n {
		if got := (g.Closed(model.NodeID(i)) & cs).Len(); got < l[i] {
			return nil, fmt.Errorf("--cs: C_0 is not safe: |CS_%d(C_0)| = %d < l_%d = %d", i, got, i, l[i])
		}
	}
	return &algo{g: g, l: l, cs: cs}, nil
}
