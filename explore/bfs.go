package explore

import (
	"fmt"

	"github.com/mxcheck/mxcheck/model"
)

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
// found at the least depth: its trace is shortest. Levels beyond
// Options.LevelInMemory states go to disk (level.go).
func (c *Checker) bfs() *Result {
	s := c.newSearch()
	max := c.opt.LevelInMemory
	switch {
	case max == 0:
		max = defaultLevelInMemory
	case max < 0:
		max = int(^uint(0) >> 1)
	}
	cur, next := &level{codec: c.codec, max: max}, &level{codec: c.codec, max: max}
	defer cur.close()
	defer next.close()
	done := 0
	s.queue = func() int { return cur.n - done + next.n }
	for i, st := range c.sys.Init() {
		if id, isNew := s.discover(link{noParent, uint32(i)}, st, 0); isNew {
			cur.push(c.sys, st, id)
		}
	}
	for depth := 0; cur.n > 0 && !s.stop; depth++ {
		done = 0
		err := cur.each(func(st model.State, id uint32) bool {
			s.expand(id, st, depth, func(st model.State, id uint32) {
				next.push(c.sys, st, id)
			})
			done++
			return !s.stop
		})
		if err == nil {
			err = next.err
		}
		if err != nil {
			s.halt("disk: " + err.Error())
		}
		// The expanded level's storage holds the level after next.
		cur.reset()
		cur, next = next, cur
	}
	s.queueDisk = cur.disk + next.disk
	for _, l := range []*level{cur, next} {
		if l.spillErr != nil {
			s.warn(fmt.Sprintf("BFS levels beyond %d states stayed in memory: cannot create a temporary file (TMPDIR): %v", max, l.spillErr))
			break
		}
	}
	return s.result()
}
