package lmutin

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Graph is the static undirected communication graph: N_i for each
// process, without P_i itself.
type Graph []model.NodeSet

// Closed is N_i ∪ {P_i}.
func (g Graph) Closed(i model.NodeID) model.NodeSet { return g[i].Add(i) }

// n is the number of processes.
func (g Graph) n() int { return len(g) }

// Degree is |N_i|.
func (g Graph) Degree(i model.NodeID) int { return g[i].Len() }

// Dist returns the hop distance between i and j (-1 when disconnected).
func (g Graph) Dist(i, j model.NodeID) int {
	seen := model.NodeSet(0).Add(i)
	front := seen
	for d := 0; ; d++ {
		if front.Has(j) {
			return d
		}
		var next model.NodeSet
		for _, u := range front.All() {
			next |= g[u] &^ seen
		}
		if next.Empty() {
			return -1
		}
		seen |= next
		front = next
	}
}

// ParseGraph builds the graph of --topology on n processes: a named
// topology (path, ring, star, complete, none, as lme's) or an edge list
// u.p-v.q,... (the ports are ignored: processes address each other by id).
func ParseGraph(text string, n int) (Graph, error) {
	text = strings.TrimSpace(text)
	var edges []model.Edge
	var err error
	if strings.Contains(text, ".") {
		edges, err = model.ParseEdges(text)
		if err != nil {
			err = fmt.Errorf("--topology: %v", err)
		}
	} else {
		edges, err = model.Topology(text, n, min(n, model.MaxPorts)-1)
		if err != nil {
			err = fmt.Errorf("--topology: %v", err)
		}
	}
	if err != nil {
		return nil, err
	}
	g := make(Graph, n)
	for _, e := range edges {
		if int(e.U) >= n || int(e.V) >= n {
			return nil, fmt.Errorf("--topology: edge %v names a process outside 0..%d", e, n-1)
		}
		if e.U == e.V {
			return nil, fmt.Errorf("--topology: edge %v: a process cannot be its own neighbour", e)
		}
		g[e.U] = g[e.U].Add(e.V)
		g[e.V] = g[e.V].Add(e.U)
	}
	return g, nil
}

// ParseSet parses "0,2" into a set of processes below n; param names the
// flag for the error message. "" is the empty set.
func ParseSet(param, text string, n int) (model.NodeSet, error) {
	var s model.NodeSet
	if strings.TrimSpace(text) == "" {
		return s, nil
	}
	for _, item := range strings.Split(text, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || i < 0 || i >= n {
			return 0, fmt.Errorf("--%s: %q is not a process in 0..%d", param, item, n-1)
		}
		s = s.Add(model.NodeID(i))
	}
	return s, nil
}

// PerProcess returns a value per process: uniform(i), then the overrides
// "I:V[,I:V...]" of param (e.g. --l-at 0:2). Each value must lie in
// lo(i)..hi(i).
func PerProcess(param string, uniform func(i int) int, overrides string, n int, lo, hi func(i int) int) ([]int, error) {
	out := make([]int, n)
	for i := range out {
		out[i] = uniform(i)
	}
	if strings.TrimSpace(overrides) != "" {
		for _, item := range strings.Split(overrides, ",") {
			a, b, ok := strings.Cut(strings.TrimSpace(item), ":")
			i, err1 := strconv.Atoi(a)
			v, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil {
				return nil, fmt.Errorf("--%s-at: %q is not of the form I:V with integers", param, item)
			}
			if i < 0 || i >= n {
				return nil, fmt.Errorf("--%s-at: %q names a process outside 0..%d", param, item, n-1)
			}
			out[i] = v
		}
	}
	for i, v := range out {
		if v < lo(i) || v > hi(i) {
			return nil, fmt.Errorf("--%s: %s_%d must be between %d and %d at process %d, got %d", param, param, i, lo(i), hi(i), i, v)
		}
	}
	return out, nil
}
