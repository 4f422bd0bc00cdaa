package explore

import "github.com/mxcheck/mxcheck/model"

// entry is a state waiting to be expanded.
type entry struct {
	st    model.State
	id    uint32
	depth int
}

// Run searches the state space and returns the result.
func (c *Checker) Run() *Result {
	if c.opt.Strategy == DFS {
		return c.dfs()
	}
	var r *Result
	if c.opt.Workers > 1 {
		r = c.parallelBFS()
	} else {
		r = c.bfs()
	}
	if c.opt.POR && r.Verdict == Violated {
		c.shorten(r)
	}
	return r
}

// bfs explores level by level, so the first violation of each invariant is
// found at the least depth: its trace is shortest.
func (c *Checker) bfs() *Result {
	s := c.newSearch()
	var cur, next []entry
	s.queue = func() int { return len(cur) + len(next) }
	for i, st := range c.sys.Init() {
		if id, isNew := s.discover(link{noParent, uint32(i)}, st, 0); isNew {
			cur = append(cur, entry{st: c.sys.Clone(st), id: id})
		}
	}
	for depth := 0; len(cur) > 0 && !s.stop; depth++ {
		for i := range cur {
			s.expand(cur[i].id, cur[i].st, depth, func(st model.State, id uint32) {
				next = append(next, entry{st: c.sys.Clone(st), id: id})
			})
			cur[i] = entry{}
			if s.stop {
				break
			}
		}
		// The expanded level's storage (cleared entry by entry above)
		// holds the level after next.
		cur, next = next, cur[:0]
	}
	return s.result()
}
