package rcv_test

import (
	"fmt"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/rcv"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestMessagesPerEntry reports the ghost Node.Cost (the messages spent on
// the request a node is in the CS for: RMs, an IM, the EM) over every
// reachable state, and pins its minimum and maximum: Section 6.1.1 gives
// [N/2]+2 at light load and O(N) in the worst case (at most N−1 RMs, an
// IM and an EM).
func TestMessagesPerEntry(t *testing.T) {
	var rows []string
	for _, tc := range []struct {
		name   string
		params model.Values
	}{
		{"n2-r2", model.Values{"nodes": "2", "requests": "2"}},
		{"n3-r1", model.Values{"nodes": "3"}},
		{"n3-r1-fifo", model.Values{"nodes": "3", "fifo": "true"}},
		{"n3-one-requester", model.Values{"nodes": "3", "requesters": "1"}},
		{"n4-one-requester", model.Values{"nodes": "4", "requesters": "1"}},
		{"n4-two-requesters", model.Values{"nodes": "4", "requesters": "2"}},
	} {
		sys, _ := spectest.Build(t, rcv.Spec, tc.params)
		lo, hi, entries := costRange(sys)
		if entries == 0 {
			t.Fatalf("%s: no state with a node in the CS", tc.name)
		}
		rows = append(rows, fmt.Sprintf("%s\tmin=%d\tmax=%d", tc.name, lo, hi))
	}
	var out []byte
	for _, r := range rows {
		out = append(out, r+"\n"...)
	}
	spectest.Compare(t, "testdata/messages-per-entry.golden", out)
}

// costRange walks every reachable state of sys and returns the least and
// the largest Cost of a node in the CS, and how many such (state, node)
// pairs it saw.
func costRange(sys model.System) (lo, hi, n int) {
	lo = 1 << 30
	seen := map[string]bool{}
	queue := []model.State{sys.Clone(sys.Init()[0])}
	seen[string(sys.AppendKey(nil, queue[0]))] = true
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, node := range s.(*model.World[rcv.Node, rcv.Msg]).Nodes {
			if node.Phase == rcv.InCS {
				lo, hi, n = min(lo, int(node.Cost)), max(hi, int(node.Cost)), n+1
			}
		}
		sys.Successors(s, func(_ model.Transition, next model.State) bool {
			k := string(sys.AppendKey(nil, next))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, sys.Clone(next))
			}
			return true
		})
	}
	return lo, hi, n
}
