package model_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// TestAssume: Protocol.Assume drops exactly the adversary moves that lead to
// a state breaking it. Forbidding every removal gives the churn-free space;
// allowing every state gives the unrestricted one.
func TestAssume(t *testing.T) {
	count := func(assume func(w *model.World[ra.Node, ra.Msg]) bool, churn uint8) (int64, explore.Verdict) {
		p := ra.Protocol
		p.Assume = assume
		sys, err := model.Compile(&p, model.Config{Nodes: 3, Requests: 1, Budget: model.Budget{Removes: churn}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := explore.New(sys, explore.Options{Continue: true})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Run()
		return r.Stats.Distinct, r.Verdict
	}
	full := model.FullSet(3)
	noRemoval := func(w *model.World[ra.Node, ra.Msg]) bool {
		for _, m := range w.Meta {
			if m.Members != full {
				return false
			}
		}
		return true
	}
	static, _ := count(nil, 0)
	if got, v := count(noRemoval, 1); got != static || v != explore.Verified {
		t.Errorf("no removal allowed: %d states (%s), want the static %d", got, v, static)
	}
	free, _ := count(nil, 1)
	if got, _ := count(func(*model.World[ra.Node, ra.Msg]) bool { return true }, 1); got != free || free <= static {
		t.Errorf("everything allowed: %d states, want %d (> %d)", got, free, static)
	}
}
