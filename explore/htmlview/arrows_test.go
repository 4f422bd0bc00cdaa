package htmlview

import (
	"reflect"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

func inflight(from, to model.NodeID, text string) model.InFlight {
	return model.InFlight{From: from, To: to, Text: text}
}

// TestArrows: copies of one message are matched first in, first out; a
// message gone at an adversary step is lost; one left at the end dangles;
// one in the initial state is sent at step 0.
func TestArrows(t *testing.T) {
	a, b, c := inflight(0, 1, "a"), inflight(1, 0, "b"), inflight(2, 2, "c")
	transit := [][]model.InFlight{
		{c},       // 0: c is there from the start
		{a, c},    // 1: a sent
		{a, a, c}, // 2: a sent again
		{a, c},    // 3: one a delivered (the first)
		{a, b},    // 4: c delivered, b sent
		{b},       // 5: the adversary drops a
	}
	steps := []Step{{}, {Kind: "node"}, {Kind: "node"}, {Kind: "node"}, {Kind: "node"}, {Kind: "adversary"}}
	want := []Arrow{
		{From: 2, To: 2, Sent: 0, End: 4, Text: "c"},
		{From: 0, To: 1, Sent: 1, End: 3, Text: "a"},
		{From: 0, To: 1, Sent: 2, End: 5, Lost: true, Text: "a"},
		{From: 1, To: 0, Sent: 4, End: -1, Text: "b"},
	}
	if got := Arrows(transit, steps); !reflect.DeepEqual(got, want) {
		t.Errorf("Arrows =\n%+v\nwant\n%+v", got, want)
	}
	if got := Arrows(nil, nil); got == nil || len(got) != 0 {
		t.Errorf("Arrows(nil) = %#v, want empty", got)
	}
}

// TestBars: maximal runs per node, open when they reach the end.
func TestBars(t *testing.T) {
	steps := []Step{{InCS: []int{1}}, {InCS: []int{1}}, {}, {InCS: []int{0}}, {InCS: []int{0, 1}}}
	want := []Bar{{Node: 0, From: 3, To: 4, Open: true}, {Node: 1, From: 0, To: 1}, {Node: 1, From: 4, To: 4, Open: true}}
	if got := Bars(steps, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("Bars = %+v, want %+v", got, want)
	}
	if got := Overlap(want, len(steps)); !reflect.DeepEqual(got, []int{4}) {
		t.Errorf("Overlap = %v, want [4]", got)
	}
}
