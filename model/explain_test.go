package model_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/akw2"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// TestExplainDeadlock: a deadlock's explanation names the live nodes that
// wait forever and, once a node has crashed, each one's distance to it, with
// the nodes the failure locality excuses listed apart.
func TestExplainDeadlock(t *testing.T) {
	for _, c := range []struct {
		spec   *model.Spec
		params model.Values
		want   string
	}{
		{ra.Spec, model.Values{"mutant": "defer-forever"}, "waiting forever: n1, n2"},
		{akw2.Spec, model.Values{"nodes": "3", "crashes": "1", "locality": "0"}, "waiting forever: n2 (crash 1 links away)"},
		{akw2.Spec, model.Values{"nodes": "4", "crashes": "1", "locality": "1", "exit-priority": "token", "notify-lowers": "all", "preemption": "higher-forks-first"},
			"waiting forever: n3 (crash 2 links away); excused by the failure locality: n2 (crash 1 links away)"},
	} {
		sys, _, err := c.spec.Compile(c.params)
		if err != nil {
			t.Fatal(err)
		}
		chk, err := explore.New(sys, explore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := chk.Run()
		if r.Verdict != explore.Violated || r.Violations[0].Property != explore.Deadlock {
			t.Fatalf("%s %v: %s %v, want a deadlock", c.spec.Name, c.params, r.Verdict, r.Properties)
		}
		if got := r.Violations[0].Explanation; got != c.want {
			t.Errorf("%s %v: explanation %q, want %q", c.spec.Name, c.params, got, c.want)
		}
	}
}
