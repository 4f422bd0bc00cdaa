package rcv

import (
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Protocol returns the algorithm for `nodes` nodes with the given variant
// and mutant applied, over bag channels unless fifo.
func Protocol(nodes, requesters int, variant, mutant option, fifo bool) *model.Protocol[Node, Msg] {
	actions := apply(apply(faithfulActions(nodes, requesters), variant, nodes), mutant, nodes)
	return &model.Protocol[Node, Msg]{
		Name:       "rcv",
		Init:       func(model.NodeID, *model.Config) Node { return Node{Next: NoNext} },
		Actions:    actions,
		Invariants: invariants(),
		// Unfinished work: a request not yet served (a node in the CS
		// waits for the environment's release, always enabled).
		Pending: func(n *Node) bool { return n.Phase != Idle },
		Hungry:  func(n *Node) bool { return n.Phase == Waiting },
		// next-chain-consistent reads the messages in transit.
		ObservesNetwork: true,
		FIFO:            fifo,
	}
}

// Spec is the registry entry for rcv.
var Spec = &model.Spec{
	Name:    "rcv",
	Summary: "Relative Consensus Voting: a roaming request message orders requesters (seed 004)",
	Params: []model.Param{
		{Name: "nodes", Kind: model.IntParam, Default: "3", Usage: "number of nodes N (2..4)"},
		{Name: "requests", Kind: model.IntParam, Default: "1", Usage: "CS requests per node"},
		{Name: "requesters", Kind: model.IntParam, Default: "0", Usage: "how many nodes (n0, n1, ...) request the CS (0: all)"},
		{Name: "fifo", Kind: model.BoolParam, Default: "false", Usage: "FIFO channels instead of bags (the paper claims it needs none)"},
		{Name: "variant", Kind: model.StringParam, Default: Faithful, Usage: "reading of the paper: " + strings.Join(names(Variants), ", ")},
		{Name: "mutant", Kind: model.StringParam, Default: Faithful, Usage: "deliberate bug: " + strings.Join(names(Mutants), ", ")},
	},
	Build: Build,
}

// Build compiles a configuration of rcv.
func Build(v model.Values) (model.System, error) {
	n, err := v.IntIn("nodes", 2, MaxN)
	if err != nil {
		return nil, err
	}
	// A timestamp becomes at most one more than the largest one anywhere
	// (lines 4, 18, 36), and each request causes at most N+1 such steps, so
	// every timestamp stays below N·r·(N+1) ≤ 60 with this budget.
	r, err := v.IntIn("requests", 0, 3)
	if err != nil {
		return nil, err
	}
	req, err := v.IntIn("requesters", 0, n)
	if err != nil {
		return nil, err
	}
	if req == 0 {
		req = n
	}
	fifo, err := v.Bool("fifo")
	if err != nil {
		return nil, err
	}
	vr, ok := lookup(Variants, v.String("variant"))
	if !ok {
		return nil, model.Choice("variant", v.String("variant"), names(Variants)...)
	}
	mut, ok := lookup(Mutants, v.String("mutant"))
	if !ok {
		return nil, model.Choice("mutant", v.String("mutant"), names(Mutants)...)
	}
	return model.Compile(Protocol(n, req, vr, mut, fifo), model.Config{Nodes: n, Requests: r})
}
