package lme

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

// Protocol returns the algorithm with K priorities as published
// (Algorithms 1–3): variant faithful, mutant none.
func Protocol(k int) *model.Protocol[Node, Msg] { return newAlgo(k).protocol() }

// protocol is the published algorithm with a's parameter and helper.
func (a *algo) protocol() *model.Protocol[Node, Msg] {
	return &model.Protocol[Node, Msg]{
		Name:       "lme",
		RawKey:     true,
		Init:       func(model.NodeID, *model.Config) Node { return Node{Lock: None} },
		Actions:    a.actions(),
		Invariants: invariants(),
		// Unfinished work: an initiator in the middle of LOCK or UNLOCK, or
		// a participant in a competition (phase ≠ ⊥). A LOCKED node waits
		// for the environment's UNLOCK, which is always enabled.
		Pending: func(n *Node) bool { return n.State != Idle || n.Phase != NoPhase },
		Notes:   notes,
		// Nodes are anonymous (§2): states and messages name ports, never
		// node ids, and every property is invariant under renaming nodes.
		Anonymous:   true,
		RenamePorts: renamePorts,
		// Lockout: a node that called LOCK and has not locked yet.
		Hungry:   func(n *Node) bool { return n.State != Idle && n.State != Locked && n.State != Unlock },
		Liveness: "lockout-freedom",
		// Each node is a resource held by the nodes whose lock sets hold it.
		LockHolders: lockHolders,
	}
}

// notes reports the size of one node's state next to Δ (Lemma 11 claims
// O(Δ) memory).
func notes(c *model.Config) []string {
	min := len(Node{}.AppendKey(nil))
	full := Node{}
	for p := 0; p <= c.Delta; p++ {
		full.P[p] = 1
	}
	max := len(full.AppendKey(nil))
	bitsNeeded := 0
	for x := c.Delta + 1; x > 0; x >>= 1 {
		bitsNeeded++ // lock: ⊥, 0..Δ
	}
	// state (6 values: 3 bits), phase (3 values: 2 bits), L R H A C (Δ+1
	// bits each), W (2(Δ+1) bits), P ((Δ+1)·K bits).
	return []string{fmt.Sprintf("node state: %d..%d bytes encoded at Δ=%d (Table 1 needs %d bits + K·%d bits for P: O(Δ))",
		min, max, c.Delta, bitsNeeded+3+2+7*(c.Delta+1), c.Delta+1)}
}

// Spec is the registry entry for lme.
var Spec = &model.Spec{
	Name:    "lme",
	Summary: "local mutual exclusion over a time-varying graph (seed 000, Algorithms 1–3)",
	Params: []model.Param{
		model.NodesParam(2),
		model.IntParam("delta", 2, 1, model.MaxPorts-1, "Δ, ports per node besides the self-port"),
		model.TopologyParam("topology", "path", "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."),
		model.IntParam("connects", 0, 0, 255, "edges the adversary may connect (any two nodes with free ports)"),
		model.IntParam("disconnects", 0, 0, 255, "edges the adversary may disconnect"),
		model.BoolParam("reuse-ports", false, "let a connect re-use a port its owner has not yet seen disconnected (drops footnote 1)"),
		model.IntParam("locks", 1, 0, 255, "LOCK calls per node"),
		model.IntParam("priorities", 2, 1, MaxPriorities, "K, the number of priorities"),
		new(algo).mutants().Param("mutant", "deliberate bug"),
		new(algo).variants().Param("variant", "algorithm version"),
	},
	Build: Build,
}

// Build compiles a configuration of lme: the published algorithm changed by
// the mutant, then by the variant (variants.go).
func Build(a *model.Args) (model.System, error) {
	alg := newAlgo(a.Int("priorities"))
	p := model.Apply(alg.protocol(), alg.mutants().Get(a.String("mutant")), alg.variants().Get(a.String("variant")))
	cfg := model.Config{
		Nodes:      a.Int("nodes"),
		Delta:      a.Int("delta"),
		Requests:   a.Int("locks"),
		Edges:      a.Edges("topology"),
		Budget:     model.Budget{Connects: uint8(a.Int("connects")), Disconnects: uint8(a.Int("disconnects"))},
		ReusePorts: a.Bool("reuse-ports") || alg.reusePorts,
	}
	return model.Compile(p, cfg)
}

// renamePorts renames every port a node state mentions: its lock, the port
// sets of Table 1, the pairs of W and P, and the ghost Persist. The
// algorithm never breaks a tie by port number, so ports are interchangeable
// (reduce.CheckSymmetry verifies it in the tests).
func renamePorts(n Node, perm *[model.MaxPorts]model.Port) Node {
	rp := func(s model.Ports) model.Ports { return s.Rename(perm) }
	if n.Lock != None {
		n.Lock = Lock(perm[n.Lock])
	}
	n.L, n.R, n.H, n.A, n.C, n.Persist = rp(n.L), rp(n.R), rp(n.H), rp(n.A), rp(n.C), rp(n.Persist)
	n.W = WSet{T: rp(n.W.T), F: rp(n.W.F)}
	var p PSet
	for q, b := range n.P {
		p[perm[q]] = b
	}
	n.P = p
	return n
}
