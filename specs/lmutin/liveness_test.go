package lmutin_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lmutin"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestSequenceCompletion pins Definition 1's liveness (every started exit
// sequence completes) under weak fairness: the faithful algorithm fails
// through its stale-Preempt deadlock, the repair holds.
func TestSequenceCompletion(t *testing.T) {
	spectest.Liveness(t, lmutin.Spec, "testdata/liveness.txt", []spectest.Case{
		{Name: "n2-fifo-e2", Params: model.Values{"nodes": "2", "cs": "0", "exits": "2", "fifo": "true"}},
		{Name: "n2-fifo-e2-repaired", Params: model.Values{"nodes": "2", "cs": "0", "exits": "2", "fifo": "true", "variant": "preempt-carries-ts"}},
		{Name: "path3-fifo-e1-repaired", Params: model.Values{"exits": "1", "fifo": "true", "variant": "preempt-carries-ts"}},
	})
}
