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
		{Name: "nodes", Kind: model.IntParam, Default: "3", Usage: "number of processes"},
		{Name: "topology", Kind: model.StringParam, Default: "path", Usage: "graph: path, ring, star, complete, or edges u.p-v.q,... (ports ignored)"},
		{Name: "l", Kind: model.IntParam, Default: "1", Usage: "l_i at every process"},
		{Name: "l-at", Kind: model.StringParam, Default: "", Usage: "I:V[,I:V...]: l_I = V at process I"},
		{Name: "k", Kind: model.IntParam, Default: "2", Usage: "k_i at every process (at most |N_i|+1; larger values are capped)"},
		{Name: "k-at", Kind: model.StringParam, Default: "", Usage: "I:V[,I:V...]: k_I = V at process I"},
		{Name: "cs", Kind: model.StringParam, Default: "1", Usage: "processes in the CS in C_0, e.g. 0,2 (C_0 must be safe)"},
		{Name: "leader", Kind: model.IntParam, Default: "0", Usage: "the leader P_LDR"},
		{Name: "changes", Kind: model.IntParam, Default: "2", Usage: "CS changes (exit or entry sequences) per process"},
		{Name: "fifo", Kind: model.BoolParam, Default: "false", Usage: "FIFO channels (default: bags, any order)"},
		{Name: "deadlock", Kind: model.StringParam, Default: "all", Usage: "deadlock means: all (every process waits in a sequence) or any (some process does)"},
		{Name: "report-trigger", Kind: model.BoolParam, Default: "false", Usage: "add the property trigger-never-fires (its violation is a witness that the leader's trigger fires)"},
		{Name: "variant", Kind: model.StringParam, Default: Variants[0].Name, Usage: "reading or repair: " + joinNames(Variants)},
		{Name: "mutant", Kind: model.StringParam, Default: Mutants[0].Name, Usage: "deliberate bug: " + joinNames(Mutants)},
	},
	Build: Build,
}

// options are the configuration's switches besides the algorithm's
// parameters.
type options struct {
	fifo, reportTrigger, deadlockAny bool
	vr, mut                          *Change
}

// Build compiles a configuration of lkcs.
func Build(v model.Values) (model.System, error) {
	a, cfg, err := parse(v)
	if err != nil {
		return nil, err
	}
	o, err := parseOptions(v)
	if err != nil {
		return nil, err
	}
	return model.Compile(protocol(a, o), cfg)
}

// parse reads the algorithm's parameters: graph, (l_i, k_i), C_0, leader,
// workload.
func parse(v model.Values) (*algo, model.Config, error) {
	var cfg model.Config
	n, err := v.IntIn("nodes", 1, lmutin.MaxProcs)
	if err != nil {
		return nil, cfg, err
	}
	g, err := lmutin.ParseGraph(v.String("topology"), n)
	if err != nil {
		return nil, cfg, err
	}
	closed := func(i int) int { return g.Degree(model.NodeID(i)) + 1 }
	lu, err := v.IntIn("l", 0, lmutin.MaxProcs)
	if err != nil {
		return nil, cfg, err
	}
	l, err := lmutin.PerProcess("l", func(int) int { return lu }, v.String("l-at"), n, func(int) int { return 0 }, closed)
	if err != nil {
		return nil, cfg, err
	}
	ku, err := v.IntIn("k", 0, lmutin.MaxProcs)
	if err != nil {
		return nil, cfg, err
	}
	// A uniform k above |N_i|+1 is capped at |N_i|+1 (no upper bound); an
	// override must be in range.
	k, err := lmutin.PerProcess("k", func(i int) int { return min(ku, closed(i)) }, v.String("k-at"), n, func(int) int { return 0 }, closed)
	if err != nil {
		return nil, cfg, err
	}
	for i := range k {
		if l[i] > k[i] {
			return nil, cfg, fmt.Errorf("--k: l_%d = %d > k_%d = %d (want l_i ≤ k_i)", i, l[i], i, k[i])
		}
	}
	cs, err := lmutin.ParseSet("cs", v.String("cs"), n)
	if err != nil {
		return nil, cfg, err
	}
	ldr, err := v.IntIn("leader", 0, n-1)
	if err != nil {
		return nil, cfg, err
	}
	a := &algo{g: g, l: l, k: k, leader: model.NodeID(ldr), cs: cs}
	for i := range n {
		if got := (g.Closed(model.NodeID(i)) & cs).Len(); got < l[i] || got > k[i] {
			return nil, cfg, fmt.Errorf("--cs: C_0 is not safe: |CS_%d(C_0)| = %d is outside l_%d..k_%d = %d..%d", i, got, i, i, l[i], k[i])
		}
	}
	ch, err := v.IntIn("changes", 0, lmutin.MaxTS-1)
	if err != nil {
		return nil, cfg, err
	}
	a.changes = uint8(ch)
	return a, model.Config{Nodes: n}, nil
}

// parseOptions reads channels, the deadlock notion, the trigger witness,
// the variant and the mutant.
func parseOptions(v model.Values) (options, error) {
	var o options
	var err error
	if o.fifo, err = v.Bool("fifo"); err != nil {
		return o, err
	}
	if o.reportTrigger, err = v.Bool("report-trigger"); err != nil {
		return o, err
	}
	if err := model.Choice("deadlock", v.String("deadlock"), "all", "any"); err != nil {
		return o, err
	}
	o.deadlockAny = v.String("deadlock") == "any"
	if err := model.Choice("variant", v.String("variant"), names(Variants)...); err != nil {
		return o, err
	}
	if err := model.Choice("mutant", v.String("mutant"), names(Mutants)...); err != nil {
		return o, err
	}
	o.vr, o.mut = lookup(Variants, v.String("variant")), lookup(Mutants, v.String("mutant"))
	return o, nil
}

// protocol returns LKCS on configuration a with options o.
func protocol(a *algo, o options) *model.Protocol[Node, Msg] {
	acts := a.actions()
	init := a.init
	for _, ch := range []*Change{o.vr, o.mut} {
		if ch.Replace != nil {
			acts = lmutin.Replace(acts, ch.Replace(a))
		}
		if ch.Init != nil {
			f := ch.Init
			init = func(i model.NodeID) Node { return f(a, i) }
		}
	}
	waits := func(n *Node) bool { return n.Seq != Idle }
	p := &model.Protocol[Node, Msg]{
		Name:       "lkcs",
		Init:       func(i model.NodeID, _ *model.Config) Node { return init(i) },
		Actions:    acts,
		Invariants: a.invariants(o.reportTrigger),
		Pending:    waits,
		Hungry:     waits,
		Liveness:   Liveness,
		FIFO:       o.fifo,
		Notes:      a.notes,
	}
	if !o.deadlockAny {
		// A process that has spent its --changes stops between
		// sequences; in §2.2's endless loop it would go on. Only a state
		// where every process waits is a deadlock of the algorithm.
		p.PendingWorld = func(w *world) bool { return w.Count(waits) == len(w.Nodes) }
	}
	return p
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
