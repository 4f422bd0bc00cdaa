package htmlview

import "github.com/mxcheck/mxcheck/model"

// Arrows derives the messages of a trace from the messages in transit of
// consecutive states (transit[i] after step i, transit[0] initially): a
// message that appears at step i is sent there; one that disappears at step
// j is delivered there, or lost when step j is an adversary move (a
// disconnect or a crash drops it). Copies of one message are matched first
// in, first out. Messages left at the end have End = -1. The result is in
// order of sending, then of the in-transit list.
func Arrows(transit [][]model.InFlight, steps []Step) []Arrow {
	var out []Arrow
	pending := map[model.InFlight][]int{} // message → indexes into out, oldest first
	send := func(m model.InFlight, at int) {
		pending[m] = append(pending[m], len(out))
		out = append(out, Arrow{From: int(m.From), To: int(m.To), Sent: at, End: -1, Text: m.Text})
	}
	if len(transit) == 0 {
		return []Arrow{}
	}
	for _, m := range transit[0] {
		send(m, 0)
	}
	for i := 1; i < len(transit); i++ {
		gone, sent := diff(transit[i-1], transit[i])
		lost := i < len(steps) && steps[i].Kind == model.AdversaryStep.String()
		for _, m := range gone {
			q := pending[m]
			if len(q) == 0 {
				continue // cannot happen: every message was sent or initial
			}
			out[q[0]].End, out[q[0]].Lost = i, lost
			pending[m] = q[1:]
		}
		for _, m := range sent {
			send(m, i)
		}
	}
	if out == nil {
		return []Arrow{}
	}
	return out
}

// diff returns the multiset differences a∖b and b∖a, each in its list's
// order.
func diff(a, b []model.InFlight) (gone, sent []model.InFlight) {
	minus := func(x, y []model.InFlight) []model.InFlight {
		count := map[model.InFlight]int{}
		for _, m := range y {
			count[m]++
		}
		var out []model.InFlight
		for _, m := range x {
			if count[m] > 0 {
				count[m]--
				continue
			}
			out = append(out, m)
		}
		return out
	}
	return minus(a, b), minus(b, a)
}

// Bars derives the critical-section intervals of n nodes from each state's
// InCS: one bar per maximal run of consecutive states in which a node holds
// the critical section, Open when the run reaches the last state. Bars are
// sorted by node, then by start.
func Bars(steps []Step, n int) []Bar {
	return Intervals(steps, n, func(s *Step) []int { return s.InCS })
}

// Intervals is Bars for any per-state set of nodes: one bar per maximal run
// of consecutive states whose set holds the node.
func Intervals(steps []Step, n int, set func(*Step) []int) []Bar {
	out := []Bar{}
	for u := 0; u < n; u++ {
		start := -1
		for i := 0; i <= len(steps); i++ {
			in := i < len(steps) && contains(set(&steps[i]), u)
			switch {
			case in && start < 0:
				start = i
			case !in && start >= 0:
				out = append(out, Bar{Node: u, From: start, To: i - 1, Open: i == len(steps)})
				start = -1
			}
		}
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
