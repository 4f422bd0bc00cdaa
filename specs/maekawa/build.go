package maekawa

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Grid returns the voting sets of n = k×k nodes: node r·k+c votes with its
// row r and its column c, itself included. It fails when n is not a square.
func Grid(n int) ([]model.NodeSet, error) {
	k := int(math.Round(math.Sqrt(float64(n))))
	if k*k != n {
		return nil, fmt.Errorf("--nodes: maekawa's voting sets need a k×k grid (1, 4, 9 or 16 nodes), got %d", n)
	}
	sets := make([]model.NodeSet, n)
	for i := range sets {
		r, c := i/k, i%k
		for x := 0; x < k; x++ {
			sets[i] = sets[i].Add(model.NodeID(r*k + x)).Add(model.NodeID(x*k + c))
		}
	}
	return sets, nil
}

// Replace applies "I:J=K[,I:J=K...]" to the voting sets, in order: in node
// I's voting set, member J is replaced by K.
func Replace(sets []model.NodeSet, text string) (int, error) {
	if strings.TrimSpace(text) == "" {
		return 0, nil
	}
	n := len(sets)
	items := strings.Split(text, ",")
	for _, item := range items {
		item = strings.TrimSpace(item)
		var i, j, k int
		var rest string
		if c, _ := fmt.Sscanf(item, "%d:%d=%d%s", &i, &j, &k, &rest); c != 3 || !strings.Contains(item, "=") {
			return 0, fmt.Errorf("--replace: %q is not of the form I:J=K", item)
		}
		if i < 0 || i >= n || j < 0 || j >= n || k < 0 || k >= n {
			return 0, fmt.Errorf("--replace: %q names a node outside 0..%d", item, n-1)
		}
		vi := sets[i]
		switch {
		case i == j:
			return 0, fmt.Errorf("--replace: %q: a node's voting set always contains itself", item)
		case !vi.Has(model.NodeID(j)):
			return 0, fmt.Errorf("--replace: %q: n%d is not in n%d's voting set %v", item, j, i, vi)
		case vi.Has(model.NodeID(k)):
			return 0, fmt.Errorf("--replace: %q: n%d is already in n%d's voting set %v", item, k, i, vi)
		}
		sets[i] = vi.Remove(model.NodeID(j)).Add(model.NodeID(k))
	}
	return len(items), nil
}

// parseNodes parses "I[,I...]" into a set of node ids below n; empty means
// every node.
func parseNodes(param, text string, n int) (model.NodeSet, error) {
	if strings.TrimSpace(text) == "" {
		return model.FullSet(n), nil
	}
	var s model.NodeSet
	for _, item := range strings.Split(text, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || i < 0 || i >= n {
			return 0, fmt.Errorf("--%s: %q is not a node in 0..%d", param, item, n-1)
		}
		s = s.Add(model.NodeID(i))
	}
	return s, nil
}

// Spec is the registry entry for maekawa.
var Spec = &model.Spec{
	Name:    "maekawa",
	Summary: "Maekawa's √N voting algorithm over churning voting sets (seed 003 §III-B)",
	Params: []model.Param{
		model.IntParam("nodes", 4, 1, model.MaxNodes, "number of nodes, a square (1, 4, 9, 16): the voting sets come from a √N×√N grid"),
		model.IntParam("requests", 1, 0, 15, "CS requests per requesting node"),
		model.TextParam("requesters", "", "I[,I...]: the nodes that request the CS (default: every node)"),
		model.TextParam("replace", "", "I:J=K[,I:J=K...]: in node I's voting set, member J is replaced by K (applied in order)"),
		model.IntParam("churn", 0, 0, 255, "voting-set entries the adversary may remove while the protocol runs"),
		Variants.Param("variant", "deadlock handling"),
		Mutants.Param("mutant", "deliberate bug"),
	},
	Build: Build,
}

// Build compiles a configuration of maekawa.
func Build(a *model.Args) (model.System, error) {
	n := a.Int("nodes")
	sets, err := Grid(n)
	if err != nil {
		return nil, a.Errorf("nodes", "%v", err)
	}
	requesters, err := parseNodes("requesters", a.String("requesters"), n)
	if err != nil {
		return nil, err
	}
	if _, err := Replace(sets, a.String("replace")); err != nil {
		return nil, err
	}
	variant, mut := Variants.Get(a.String("variant")), Mutants.Get(a.String("mutant"))
	p := model.Apply(&Protocol, variant)
	for _, x := range mut.Actions {
		// Only the yield variants add actions (ReceiveInquire, ...).
		if p.Action(x.Name) == nil {
			return nil, a.Errorf("mutant", "%s needs --variant=yield", mut.Name)
		}
	}
	cfg := model.Config{Nodes: n, Requests: a.Int("requests"), Members: sets, Budget: model.Budget{Removes: uint8(a.Int("churn"))}}
	return model.Compile(model.Apply(p, mut, onlyRequesters(requesters)), cfg)
}

// onlyRequesters lets only the nodes in rs call request-CS (--requesters)
// and checks the voting sets of those nodes in the notes.
func onlyRequesters(rs model.NodeSet) model.Variant[Node, Msg] {
	return model.Variant[Node, Msg]{Name: "requesters", Edit: func(p *model.Protocol[Node, Msg]) {
		rq := p.Action("RequestCS")
		guard := rq.Guard
		rq.Guard = func(c *ctx, n *Node) bool { return guard(c, n) && rs.Has(c.Self()) }
		p.Notes = func(c *model.Config) []string { return notes(c, rs) }
	}}
}
