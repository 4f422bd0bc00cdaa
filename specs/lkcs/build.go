package lkcs

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
)

// Spec is the registry entry for lkcs.
var Spec = &model.Spec{
	Name:    "lkcs",
	Summary: "generalized local (l_i, k_i)-critical section, LKCS (seed 002, Algorithms 3–7)",
	Params: []model.Param{
		model.IntParam("nodes", 3, 1, lmutin.MaxProcs, "number of processes"),
		model.TextParam("topology", "path", "graph: path, ring, star, complete, or edges u.p-v.q,... (ports ignored)"),
		model.IntParam("l", 1, 0, lmutin.MaxProcs, "l_i at every process (at most |N_i|+1)"),
		model.TextParam("l-at", "", "I:V[,I:V...]: l_I = V at process I"),
		model.IntParam("k", 2, 0, lmutin.MaxProcs, "k_i at every process (above |N_i|+1 it is capped there)"),
		model.TextParam("k-at", "", "I:V[,I:V...]: k_I = V at process I"),
		model.TextParam("cs", "1", "processes in the CS in C_0, e.g. 0,2 (C_0 must be safe)"),
		model.IntParam("leader", 0, 0, lmutin.MaxProcs-1, "the leader P_LDR"),
		model.IntParam("changes", 2, 0, lmutin.MaxTS-1, "CS changes (exit or entry sequences) per process"),
		model.BoolParam("fifo", false, "FIFO channels (default: bags, any order)"),
		model.EnumParam("deadlock", "what a deadlock is",
			model.Option{Name: "all", Usage: "every process waits in a sequence and nothing moves"},
			model.Option{Name: "any", Usage: "some process waits and nothing moves (counts processes stopped by --changes)"}),
		model.BoolParam("count-messages", false, "add the ghost message count and the property message-bound"),
		model.BoolParam("grant-consistency", false, "add the property grant-consistency: a process a waiting P_i counts in nGrants_i holds P_i's grant"),
		model.BoolParam("report-trigger", false, "add the property trigger-never-fires (its violation is a witness that the leader's trigger fires)"),
		variantsOf(nil).Param("variant", "reading or repair"),
		mutantsOf(nil).Param("mutant", "deliberate bug"),
	},
	Build: Build,
}

// Build compiles a configuration of lkcs.
func Build(args *model.Args) (model.System, error) {
	a, err := parse(args)
	if err != nil {
		return nil, err
	}
	waits := func(n *Node) bool { return n.Seq != Idle }
	p := &model.Protocol[Node, Msg]{
		Name:       "lkcs",
		RawKey:     true,
		Init:       func(i model.NodeID, _ *model.Config) Node { return a.init(i) },
		Actions:    a.actions(),
		Invariants: a.invariants(args.Bool("report-trigger")),
		Pending:    waits,
		Hungry:     waits,
		Liveness:   Liveness,
		FIFO:       args.Bool("fifo"),
		Notes:      a.notes,
	}
	if args.String("deadlock") == "all" {
		// A process that has spent its --changes stops between
		// sequences; in §2.2's endless loop it would go on. Only a state
		// where every process waits is a deadlock of the algorithm.
		p.PendingWorld = func(w *world) bool { return w.Count(waits) == len(w.Nodes) }
		// The same reading for liveness: Changes only grows, so on a
		// weakly fair cycle every process either has stopped or waits;
		// a cycle counts as starvation only when none has stopped.
		p.HungryWorld = p.PendingWorld
	}
	p = model.Apply(p, variantsOf(a).Get(args.String("variant")), mutantsOf(a).Get(args.String("mutant")))
	if args.Bool("grant-consistency") {
		p = model.Apply(p, consistency())
	}
	if args.Bool("count-messages") {
		p = model.Apply(p, a.countMessages())
	}
	return model.Compile(p, model.Config{Nodes: len(a.l)})
}

// parse reads the algorithm's parameters: graph, (l_i, k_i), C_0 (which
// must be safe), leader, workload.
func parse(args *model.Args) (*algo, error) {
	n := args.Int("nodes")
	g, err := lmutin.ParseGraph(args.String("topology"), n)
	if err != nil {
		return nil, err
	}
	closed := func(i int) int { return g.Degree(model.NodeID(i)) + 1 }
	zero := func(int) int { return 0 }
	lu, ku := args.Int("l"), args.Int("k")
	l, err := lmutin.PerProcess("l", func(int) int { return lu }, args.String("l-at"), n, zero, closed)
	if err != nil {
		return nil, err
	}
	k, err := lmutin.PerProcess("k", func(i int) int { return min(ku, closed(i)) }, args.String("k-at"), n, zero, closed)
	if err != nil {
		return nil, err
	}
	for i := range k {
		if l[i] > k[i] {
			return nil, args.Errorf("k", "l_%d = %d > k_%d = %d (want l_i ≤ k_i)", i, l[i], i, k[i])
		}
	}
	cs, err := lmutin.ParseSet("cs", args.String("cs"), n)
	if err != nil {
		return nil, err
	}
	ldr := args.Int("leader")
	if ldr >= n {
		return nil, args.Errorf("leader", "n%d is not a process (0..%d)", ldr, n-1)
	}
	for i := range n {
		if got := (g.Closed(model.NodeID(i)) & cs).Len(); got < l[i] || got > k[i] {
			return nil, args.Errorf("cs", "C_0 is not safe: |CS_%d(C_0)| = %d is outside l_%d..k_%d = %d..%d", i, got, i, i, l[i], k[i])
		}
	}
	return &algo{g: g, l: l, k: k, leader: model.NodeID(ldr), cs: cs, changes: uint8(args.Int("changes"))}, nil
}

// notes prints L_i and K_i (they depend on the distance to the leader).
func (a *algo) notes(*model.Config) []string {
	s := fmt.Sprintf("leader n%d;", a.leader)
	for i := range a.l {
		id := model.NodeID(i)
		s += fmt.Sprintf(" n%d: l=%d k=%d L=%d K=%d |N|+1=%d;", i, a.l[i], a.k[i], a.L(id), a.K(id), a.closedSize(id))
	}
	return []string{s[:len(s)-1]}
}
