package model_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/ra"
)

// TestPendingWorld: Protocol.PendingWorld replaces Pending for deadlock
// detection: RA's defer-forever mutant deadlocks, "some node pending" finds
// it as Pending does, and "never pending" hides it.
func TestPendingWorld(t *testing.T) {
	deferForever := ra.Mutants.Get("defer-forever")
	verdict := func(pw func(w *model.World[ra.Node, ra.Msg]) bool) explore.Verdict {
		p := model.Apply(&ra.Protocol, deferForever)
		p.PendingWorld = pw
		sys, err := model.Compile(p, model.Config{Nodes: 3, Requests: 1})
		if err != nil {
			t.Fatal(err)
		}
		c, err := explore.New(sys, explore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return c.Run().Verdict
	}
	pending := func(n *ra.Node) bool { return n.State != ra.Released }
	if v := verdict(nil); v != explore.Violated {
		t.Fatalf("defer-forever with Pending: %s, want violated", v)
	}
	if v := verdict(func(w *model.World[ra.Node, ra.Msg]) bool { return w.Count(pending) > 0 }); v != explore.Violated {
		t.Errorf("some node pending: %s, want violated", v)
	}
	if v := verdict(func(*model.World[ra.Node, ra.Msg]) bool { return false }); v != explore.Verified {
		t.Errorf("never pending: %s, want verified", v)
	}
}
