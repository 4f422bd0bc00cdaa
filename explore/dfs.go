package explore

import "github.com/mxcheck/mxcheck/model"

// dfs explores depth-first with an explicit stack. Each state is expanded
// once, when popped; its new successors are pushed so that the first
// successor is expanded first. It visits the same states as bfs, but its
// traces need not be shortest.
func (c *Checker) dfs() *Result {
	s := c.newSearch()
	var stack, kids []entry
	s.queue = func() int { return len(stack) }
	inits := c.sys.Init()
	for i, st := range inits {
		if id, isNew := s.discover(link{noParent, uint32(i)}, st, 0); isNew {
			kids = append(kids, entry{st: c.sys.Clone(st), id: id})
		}
	}
	for i := len(kids) - 1; i >= 0; i-- {
		stack = append(stack, kids[i])
	}
	for len(stack) > 0 && !s.stop {
		e := stack[len(stack)-1]
		stack[len(stack)-1] = entry{}
		stack = stack[:len(stack)-1]
		kids = kids[:0]
		s.expand(e.id, e.st, e.depth, func(st model.State, id uint32) {
			kids = append(kids, entry{st: s.x.h.Clone(st), id: id, depth: e.depth + 1})
		})
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return s.result()
}

// entry is a state waiting to be expanded.
type entry struct {
	st    model.State
	id    uint32
	depth int
}
