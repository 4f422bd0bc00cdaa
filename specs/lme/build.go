package lme

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Protocol returns the algorithm with K priorities, the given mutant and
// variant.
func Protocol(k int, mut Mutant, vr Variant) *model.Protocol[Node, Msg] {
	a := &algo{k: k, mut: mut, vr: vr}
	return &model.Protocol[Node, Msg]{
		Name:       "lme",
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
		{Name: "nodes", Kind: model.IntParam, Default: "2", Usage: "number of nodes"},
		{Name: "delta", Kind: model.IntParam, Default: "2", Usage: "Δ, ports per node besides the self-port"},
		{Name: "topology", Kind: model.StringParam, Default: "path", Usage: "initial topology: path, ring, star, complete, none, or edges u.p-v.q,..."},
		{Name: "connects", Kind: model.IntParam, Default: "0", Usage: "edges the adversary may connect (any two nodes with free ports)"},
		{Name: "disconnects", Kind: model.IntParam, Default: "0", Usage: "edges the adversary may disconnect"},
		{Name: "reuse-ports", Kind: model.BoolParam, Default: "false", Usage: "let a connect re-use a port its owner has not yet seen disconnected (drops footnote 1)"},
		{Name: "locks", Kind: model.IntParam, Default: "1", Usage: "LOCK calls per node"},
		{Name: "priorities", Kind: model.IntParam, Default: "2", Usage: "K, the number of priorities"},
		{Name: "mutant", Kind: model.StringParam, Default: string(Faithful), Usage: "deliberate bug: " + joinNames(Mutants)},
		{Name: "variant", Kind: model.StringParam, Default: string(Published), Usage: "algorithm version: " + joinNames(Variants)},
	},
	Build: Build,
}

func joinNames[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// Build compiles a configuration of lme.
func Build(v model.Values) (model.System, error) {
	n, err := v.IntIn("nodes", 1, model.MaxNodes)
	if err != nil {
		return nil, err
	}
	delta, err := v.IntIn("delta", 1, model.MaxPorts-1)
	if err != nil {
		return nil, err
	}
	connects, err := v.IntIn("connects", 0, 255)
	if err != nil {
		return nil, err
	}
	disconnects, err := v.IntIn("disconnects", 0, 255)
	if err != nil {
		return nil, err
	}
	reuse, err := v.Bool("reuse-ports")
	if err != nil {
		return nil, err
	}
	locks, err := v.IntIn("locks", 0, 255)
	if err != nil {
		return nil, err
	}
	k, err := v.IntIn("priorities", 1, MaxPriorities)
	if err != nil {
		return nil, err
	}
	mut := Mutant(v.String("mutant"))
	if err := model.Choice("mutant", string(mut), strings.Split(joinNames(Mutants), ", ")...); err != nil {
		return nil, err
	}
	vr := Variant(v.String("variant"))
	if err := model.Choice("variant", string(vr), strings.Split(joinNames(Variants), ", ")...); err != nil {
		return nil, err
	}
	topo := strings.TrimSpace(v.String("topology"))
	var edges []model.Edge
	if strings.Contains(topo, ".") {
		edges, err = model.ParseEdges("topology", topo)
	} else {
		edges, err = model.Topology(topo, n, delta)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "--topology") {
			err = fmt.Errorf("--topology: %v", err)
		}
		return nil, err
	}
	cfg := model.Config{
		Nodes:      n,
		Delta:      delta,
		Requests:   locks,
		Edges:      edges,
		Budget:     model.Budget{Connects: uint8(connects), Disconnects: uint8(disconnects)},
		ReusePorts: reuse || mut == ReusePorts,
	}
	return model.Compile(Protocol(k, mut, vr), cfg)
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
