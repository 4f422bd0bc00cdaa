package reduce

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// CheckSymmetry verifies, on the states reachable in sys (at most maxStates
// of them; 0: no limit), that every renaming g the system declares (of
// nodes, and of ports when it declares port symmetry) is a symmetry: the
// successors of g(s) are exactly the renamed successors of s, and g(s)
// satisfies each invariant, and has pending work, exactly when s does.
// Symmetry reduction is only sound if this holds; specs that declare
// symmetry run it in their tests. All N!·(Δ!)^N renamings are tried, so it
// is for small configurations.
func CheckSymmetry(sys model.System, maxStates int) error {
	sp, ok := sys.(model.SymmetryProvider)
	if !ok || sp.Symmetric() == nil {
		return fmt.Errorf("system declares no symmetry")
	}
	sym := sp.Symmetric()
	worker, _ := sys.(model.WorkPending)
	desc, _ := sys.(model.Describer)
	succKeys := func(s model.State, g func(model.State) model.State) [][]byte {
		var out [][]byte
		sys.Successors(s, func(_ model.Transition, n model.State) bool {
			if g != nil {
				n = g(n)
			}
			out = append(out, sys.AppendKey(nil, n))
			return true
		})
		sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i], out[j]) < 0 })
		return out
	}
	return walk(sys, maxStates, func(s model.State) error {
		var err error
		forEachRenaming(sym, sym.NodeCount(s), func(perm []model.NodeID, ports [][model.MaxPorts]model.Port) bool {
			g := func(x model.State) model.State { return sym.Permute(x, perm, ports) }
			gs := g(s)
			for _, iv := range sys.Invariants() {
				if iv.Holds(s) != iv.Holds(gs) {
					err = fmt.Errorf("invariant %s is not symmetric under renaming %v %v", iv.Name, perm, ports)
					return false
				}
			}
			if worker != nil && worker.Pending(s) != worker.Pending(gs) {
				err = fmt.Errorf("pending work is not symmetric under renaming %v %v", perm, ports)
				return false
			}
			a, b := succKeys(s, g), succKeys(gs, nil)
			if len(a) != len(b) {
				err = fmt.Errorf("renaming %v %v changes the number of successors (%d vs %d)", perm, ports, len(a), len(b))
				return false
			}
			for i := range a {
				if !bytes.Equal(a[i], b[i]) {
					where := ""
					if desc != nil {
						where = fmt.Sprintf(" in state %v", desc.Dump(s))
					}
					err = fmt.Errorf("renaming %v %v does not commute with the steps%s", perm, ports, where)
					return false
				}
			}
			return true
		})
		return err
	})
}

// forEachRenaming calls f with every node permutation and, under port
// symmetry, every combination of port renamings, until f returns false.
func forEachRenaming(sym model.Symmetric, n int, f func([]model.NodeID, [][model.MaxPorts]model.Port) bool) {
	perm := make([]model.NodeID, n)
	for i := range perm {
		perm[i] = model.NodeID(i)
	}
	var all [][model.MaxPorts]model.Port
	if d := sym.PortSymmetry(); d > 0 && d <= maxPortSymmetry {
		all = portPerms(d)
	}
	ports := make([][model.MaxPorts]model.Port, n)
	stop := false
	var portRec func(i int)
	portRec = func(i int) {
		if stop {
			return
		}
		if all == nil || i == n {
			var pp [][model.MaxPorts]model.Port
			if all != nil {
				pp = ports
			}
			stop = !f(perm, pp)
			return
		}
		for _, p := range all {
			ports[i] = p
			portRec(i + 1)
		}
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			portRec(0)
			return
		}
		for i := k; i < n && !stop; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(0)
}

// walk calls visit on every state reachable in sys, breadth first, at most
// maxStates of them (0: no limit), and stops at the first error.
func walk(sys model.System, maxStates int, visit func(model.State) error) error {
	seen := map[string]bool{}
	queue := sys.Init()
	for len(queue) > 0 && (maxStates == 0 || len(seen) < maxStates) {
		s := queue[0]
		queue = queue[1:]
		k := string(sys.AppendKey(nil, s))
		if seen[k] {
			continue
		}
		seen[k] = true
		if err := visit(s); err != nil {
			return err
		}
		sys.Successors(s, func(_ model.Transition, n model.State) bool {
			queue = append(queue, sys.Clone(n))
			return true
		})
	}
	return nil
}
