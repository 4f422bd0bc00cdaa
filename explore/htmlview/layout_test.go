package htmlview

import (
	"fmt"
	"strings"
	"testing"
)

// TestLayout: lanes and rows are evenly spaced, the adversary lane comes
// after the nodes, and the labels start right of it.
func TestLayout(t *testing.T) {
	l := Layout{Nodes: 3, Rows: 5, LabelChars: 10}
	if d := l.LaneX(1) - l.LaneX(0); d != laneWidth || l.LaneX(2)-l.LaneX(1) != d {
		t.Errorf("lanes %v %v %v are not %v apart", l.LaneX(0), l.LaneX(1), l.LaneX(2), laneWidth)
	}
	if l.AdversaryX() != l.LaneX(3) || l.LabelX() <= l.AdversaryX() {
		t.Errorf("adversary lane at %v, labels at %v", l.AdversaryX(), l.LabelX())
	}
	if l.RowY(1)-l.RowY(0) != rowHeight || l.Bottom() <= l.RowY(4) || l.Height() < l.Bottom() {
		t.Errorf("rows %v %v, bottom %v, height %v", l.RowY(0), l.RowY(1), l.Bottom(), l.Height())
	}
	wide := l
	wide.LabelChars = 100
	if wide.Width()-l.Width() < 90*charWidth-1 {
		t.Errorf("width does not grow with the labels: %v vs %v", wide.Width(), l.Width())
	}
}

// TestArrowSegment: delivered, lost, in transit and self messages.
func TestArrowSegment(t *testing.T) {
	l := Layout{Nodes: 3, Rows: 6}
	cases := []struct {
		name string
		a    Arrow
		want Segment
	}{
		{"delivered", Arrow{From: 0, To: 2, Sent: 1, End: 3}, Segment{l.LaneX(0), l.RowY(1), l.LaneX(2), l.RowY(3)}},
		{"lost halfway", Arrow{From: 0, To: 2, Sent: 1, End: 4, Lost: true}, Segment{l.LaneX(0), l.RowY(1), l.LaneX(1), l.RowY(4)}},
		{"in transit", Arrow{From: 2, To: 1, Sent: 2, End: -1}, Segment{l.LaneX(2), l.RowY(2), l.LaneX(1), l.Bottom()}},
		{"self", Arrow{From: 1, To: 1, Sent: 2, End: 5}, Segment{l.LaneX(1), l.RowY(2), l.LaneX(1), l.RowY(5)}},
		{"self lost", Arrow{From: 1, To: 1, Sent: 2, End: 5, Lost: true}, Segment{l.LaneX(1), l.RowY(2), l.LaneX(1) + selfBulge, l.RowY(5)}},
	}
	for _, c := range cases {
		if got := l.ArrowSegment(c.a); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestBarSpan: a bar covers its rows, half a row either side, and an open
// bar runs to the bottom.
func TestBarSpan(t *testing.T) {
	l := Layout{Nodes: 2, Rows: 6}
	y1, y2 := l.BarSpan(Bar{Node: 0, From: 2, To: 2})
	if !(y1 < l.RowY(2) && y2 > l.RowY(2) && y1 > l.RowY(1) && y2 < l.RowY(3)) {
		t.Errorf("one-state bar spans %v..%v around row %v", y1, y2, l.RowY(2))
	}
	if _, y2 := l.BarSpan(Bar{Node: 0, From: 2, To: 5, Open: true}); y2 != l.Bottom() {
		t.Errorf("open bar ends at %v, want the bottom %v", y2, l.Bottom())
	}
}

// TestLoopBracket: a lasso's loop is bracketed from the state it returns
// to through the last, also when the loop is empty; a plain trace has none.
func TestLoopBracket(t *testing.T) {
	p := &Page{Verdict: "violated", Nodes: []string{"n0"}, Loop: 2, Steps: make([]Step, 5), Arrows: []Arrow{}, Bars: []Bar{}}
	for i := range p.Steps {
		p.Steps[i].Actor = -1
	}
	l := LayoutOf(p)
	if svg := Diagram(p); !strings.Contains(svg, fmt.Sprintf(`<path class="loop" d="M26,%g h-8 V%g h8"/>`, l.RowY(2)-rowHeight/3, l.RowY(4)+rowHeight/3)) {
		t.Errorf("no bracket over rows 2..4:\n%s", svg)
	}
	p.Loop = 4
	if svg := Diagram(p); strings.Count(svg, `class="loop"`) != 1 {
		t.Error("no bracket for an empty loop")
	}
	p.Loop = -1
	if svg := Diagram(p); strings.Contains(svg, `class="loop"`) {
		t.Error("a bracket on a plain trace")
	}
	if got := loopText("n1", 2, 4); got != "n1 starves: steps 3..4 (bracketed on the left) repeat forever, back to the state after step 2" {
		t.Errorf("loopText = %q", got)
	}
}
