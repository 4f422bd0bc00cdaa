package model

import (
	"errors"
	"testing"
)

// A panic in an action's code comes out of Successors as an *ActionPanic
// naming the node and the action; a panic in the caller's yield is the
// caller's own and passes through unchanged.
func TestActionPanicNamesTheAction(t *testing.T) {
	p := toyProto(false, true)
	p.Actions[2].Do = func(c *Ctx[tNode, tMsg], n *tNode) {
		var xs []int
		_ = xs[c.Choose(2)+5] // index out of range
	}
	m := compile(t, p, Config{Nodes: 2})
	got := func() (v any) {
		defer func() { v = recover() }()
		m.Successors(m.Init()[0], func(Transition, State) bool { return true })
		return nil
	}()
	var ap *ActionPanic
	if e, ok := got.(error); !ok || !errors.As(e, &ap) || ap.Node != 1 || ap.Action != "Flip" {
		t.Fatalf("recovered %#v, want an ActionPanic at n1 Flip", got)
	}
	if ap.Error() != "n1 Flip: runtime error: index out of range [5] with length 0" {
		t.Errorf("message %q", ap.Error())
	}
	mine := errors.New("caller's own")
	got = func() (v any) {
		defer func() { v = recover() }()
		compile(t, toyProto(false, true), Config{Nodes: 2}).Successors(m.Init()[0], func(Transition, State) bool { panic(mine) })
		return nil
	}()
	if got != mine {
		t.Errorf("a panic in yield came out as %#v", got)
	}
}
