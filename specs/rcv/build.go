package rcv

import "github.com/mxcheck/mxcheck/model"

// Protocol is Relative Consensus Voting as published (with the
// reconstructions doc.go lists), over bag channels.
var Protocol = model.Protocol[Node, Msg]{
	Name:       "rcv",
	RawKey:     true,
	Init:       func(model.NodeID, *model.Config) Node { return Node{Next: NoNext} },
	Actions:    faithfulActions(),
	Invariants: invariants(),
	// Unfinished work: a request not yet served (a node in the CS waits
	// for the environment's release, always enabled).
	Pending: func(n *Node) bool { return n.Phase != Idle },
	Hungry:  func(n *Node) bool { return n.Phase == Waiting },
	InCS:    func(n *Node) bool { return n.Phase == InCS },
	// next-chain-consistent reads the messages in transit.
	ObservesNetwork: true,
}

// Spec is the registry entry for rcv.
var Spec = &model.Spec{
	Name:    "rcv",
	Summary: "Relative Consensus Voting: a roaming request message orders requesters (seed 004)",
	Params: []model.Param{
		model.IntParam("nodes", 3, 2, MaxN, "number of nodes N"),
		// A timestamp becomes at most one more than the largest one
		// anywhere (lines 4, 18, 36), and each request causes at most N+1
		// such steps, so every timestamp stays below N·r·(N+1) ≤ 60.
		model.IntParam("requests", 1, 0, 3, "CS requests per requesting node"),
		requestersParam(),
		model.BoolParam("fifo", false, "FIFO channels instead of bags (the paper claims it needs none)"),
		Variants.Param("variant", "reading of the paper"),
		Mutants.Param("mutant", "deliberate bug"),
	},
	Build: Build,
}

// requestersParam is --requesters: how many nodes, n0 first, request the
// CS (0: every node); at most --nodes.
func requestersParam() model.Param {
	p := model.IntParam("requesters", 0, 0, MaxN, "how many nodes (n0, n1, ...) request the CS (0: every node)")
	p.Limit = func(a *model.Args) (int, string) { return a.Int("nodes"), "the number of nodes" }
	return p
}

// Build compiles a configuration of rcv.
func Build(a *model.Args) (model.System, error) {
	n := a.Int("nodes")
	vs := []variant{Variants.Get(a.String("variant")), Mutants.Get(a.String("mutant"))}
	if k := a.Int("requesters"); k > 0 {
		vs = append(vs, onlyRequesters(k))
	}
	if a.Bool("fifo") {
		vs = append(vs, fifo)
	}
	return model.Compile(model.Apply(&Protocol, vs...), model.Config{Nodes: n, Requests: a.Int("requests")})
}
