package model

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Edge is an undirected edge between port P of node U and port Q of node V.
type Edge struct {
	U NodeID
	P Port
	V NodeID
	Q Port
}

// String renders the edge as "n0.1-n1.2".
func (e Edge) String() string { return fmt.Sprintf("%v.%d-%v.%d", e.U, e.P, e.V, e.Q) }

// Config is one configuration of a protocol: its size, initial topology and
// membership, workload and adversary budgets. Zero values mean "none".
type Config struct {
	// Nodes is the number of nodes, 1..MaxNodes.
	Nodes int
	// Delta is Δ, the number of ports per node besides the self-port
	// (0..MaxPorts-1); 0 for id-addressed protocols.
	Delta int
	// Requests is how many times the application may call Request at each
	// node.
	Requests int
	// Members is each node's initial membership list; nil means every node
	// knows every node (itself included).
	Members []NodeSet
	// Edges is the initial topology.
	Edges []Edge
	// Budget bounds the adversary.
	Budget Budget
	// ReusePorts lets a connect re-use a port still in its owner's
	// disconnection set (it drops footnote 1 of seed 000).
	ReusePorts bool
}

// validate checks c for impossible configurations; the error is one line.
func (c *Config) validate() error {
	if c.Nodes < 1 || c.Nodes > MaxNodes {
		return fmt.Errorf("nodes must be between 1 and %d, got %d", MaxNodes, c.Nodes)
	}
	if c.Delta < 0 || c.Delta > MaxPorts-1 {
		return fmt.Errorf("delta must be between 0 and %d, got %d", MaxPorts-1, c.Delta)
	}
	if c.Requests < 0 || c.Requests > 255 {
		return fmt.Errorf("requests must be between 0 and 255, got %d", c.Requests)
	}
	if c.Members != nil && len(c.Members) != c.Nodes {
		return fmt.Errorf("membership lists for %d nodes, want %d", len(c.Members), c.Nodes)
	}
	for i, m := range c.Members {
		if m&^FullSet(c.Nodes) != 0 {
			return fmt.Errorf("membership list of n%d names a node out of range", i)
		}
	}
	used := map[[2]int]bool{}
	pairs := map[[2]NodeID]bool{}
	for _, e := range c.Edges {
		if int(e.U) >= c.Nodes || int(e.V) >= c.Nodes {
			return fmt.Errorf("edge %v: node out of range 0..%d", e, c.Nodes-1)
		}
		if e.U == e.V {
			return fmt.Errorf("edge %v: a node cannot be its own neighbour", e)
		}
		if e.P < 1 || int(e.P) > c.Delta || e.Q < 1 || int(e.Q) > c.Delta {
			return fmt.Errorf("edge %v: ports must be between 1 and Δ=%d", e, c.Delta)
		}
		for _, end := range [][2]int{{int(e.U), int(e.P)}, {int(e.V), int(e.Q)}} {
			if used[end] {
				return fmt.Errorf("edge %v: port n%d.%d is already used (more edges than Δ allows?)", e, end[0], end[1])
			}
			used[end] = true
		}
		k := [2]NodeID{min(e.U, e.V), max(e.U, e.V)}
		if pairs[k] {
			return fmt.Errorf("edge %v: n%d and n%d are already neighbours", e, k[0], k[1])
		}
		pairs[k] = true
	}
	return nil
}

// initialWorld builds the initial global state of p under c.
func initialWorld[N Value, M Message](p *Protocol[N, M], c *Config) *World[N, M] {
	w := &World[N, M]{
		Nodes:  make([]N, c.Nodes),
		Meta:   make([]Meta, c.Nodes),
		Budget: c.Budget,
	}
	for i := range w.Nodes {
		w.Nodes[i] = p.Init(NodeID(i), c)
		if c.Members == nil {
			w.Meta[i].Members = FullSet(c.Nodes)
		} else {
			w.Meta[i].Members = c.Members[i]
		}
	}
	for _, e := range c.Edges {
		w.Meta[e.U].Links[e.P] = makeLink(e.V, e.Q)
		w.Meta[e.V].Links[e.Q] = makeLink(e.U, e.P)
	}
	return w
}

// Topology builds the edges of a named topology on n nodes with Δ ports:
// "path", "ring", "star", "complete" or "none". Port numbers are assigned in
// order of the node's edges, from 1.
func Topology(name string, n, delta int) ([]Edge, error) {
	var pairs [][2]int
	switch name {
	case "none":
	case "path":
		for i := 0; i+1 < n; i++ {
			pairs = append(pairs, [2]int{i, i + 1})
		}
	case "ring":
		for i := 0; i+1 < n; i++ {
			pairs = append(pairs, [2]int{i, i + 1})
		}
		if n > 2 {
			pairs = append(pairs, [2]int{n - 1, 0})
		}
	case "star":
		for i := 1; i < n; i++ {
			pairs = append(pairs, [2]int{0, i})
		}
	case "complete":
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	default:
		return nil, fmt.Errorf("unknown topology %q (want path, ring, star, complete, none or edges like 0.1-1.1)", name)
	}
	next := make([]int, n)
	var edges []Edge
	for _, pr := range pairs {
		u, v := pr[0], pr[1]
		next[u]++
		next[v]++
		if next[u] > delta || next[v] > delta {
			return nil, fmt.Errorf("topology %s on %d nodes needs more than Δ=%d ports at a node", name, n, delta)
		}
		edges = append(edges, Edge{U: NodeID(u), P: Port(next[u]), V: NodeID(v), Q: Port(next[v])})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].U != edges[j].U {
			return edges[i].U < edges[j].U
		}
		return edges[i].P < edges[j].P
	})
	return edges, nil
}

// ParseEdges parses "u.p-v.q[,u.p-v.q...]" (e.g. "0.1-1.1,1.2-2.1") into
// edges. Range checks happen when the Config is compiled.
func ParseEdges(text string) ([]Edge, error) {
	var out []Edge
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		m := edgeSyntax.FindStringSubmatch(item)
		var f [4]int
		ok := m != nil
		for k := 0; ok && k < 4; k++ {
			f[k], _ = strconv.Atoi(m[k+1])
			ok = f[k] <= 255
		}
		if !ok {
			return nil, fmt.Errorf("%q is not an edge of the form u.p-v.q (node.port-node.port)", item)
		}
		out = append(out, Edge{U: NodeID(f[0]), P: Port(f[1]), V: NodeID(f[2]), Q: Port(f[3])})
	}
	return out, nil
}

// edgeSyntax is one edge u.p-v.q: decimal numbers, no signs or spaces.
var edgeSyntax = regexp.MustCompile(`^([0-9]{1,3})\.([0-9]{1,3})-([0-9]{1,3})\.([0-9]{1,3})$`)
