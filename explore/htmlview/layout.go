package htmlview

import "math"

// Diagram geometry, in SVG user units (pixels at 100% zoom).
const (
	laneWidth  = 120.0 // between two lifelines
	rowHeight  = 28.0  // between two states
	marginLeft = 64.0  // step numbers and the loop bracket
	marginTop  = 44.0  // lane names
	marginFoot = 36.0  // where messages still in transit dangle to
	labelGap   = 36.0  // between the adversary lane and the step labels
	charWidth  = 6.6   // of the step labels' monospace font
	selfBulge  = 28.0  // how far a message to oneself bulges right
)

// Layout is the geometry of a space-time diagram: lanes left to right (one
// per node, then the adversary lane), rows top to bottom (one per state of
// the trace). All its methods are pure.
type Layout struct {
	// Nodes is the number of node lanes; the adversary lane comes after.
	Nodes int
	// Rows is the number of states (steps + 1).
	Rows int
	// LabelChars is the length of the longest step label.
	LabelChars int
}

// LaneX is the x of lane i's lifeline; lane Nodes is the adversary lane.
func (l Layout) LaneX(i int) float64 { return marginLeft + laneWidth/2 + float64(i)*laneWidth }

// AdversaryX is the x of the adversary lane.
func (l Layout) AdversaryX() float64 { return l.LaneX(l.Nodes) }

// RowY is the y of state row i (row 0 is the initial state).
func (l Layout) RowY(i int) float64 { return marginTop + rowHeight/2 + float64(i)*rowHeight }

// Bottom is the y where lifelines end and messages still in transit
// dangle to.
func (l Layout) Bottom() float64 { return l.RowY(l.Rows-1) + marginFoot }

// LabelX is the x where step labels start.
func (l Layout) LabelX() float64 { return l.AdversaryX() + labelGap }

// Width and Height are the size of the whole diagram.
func (l Layout) Width() float64 {
	return math.Ceil(l.LabelX() + float64(l.LabelChars)*charWidth + 16)
}

// Height is the height of the whole diagram.
func (l Layout) Height() float64 { return math.Ceil(l.Bottom() + 12) }

// Segment is a line from (X1, Y1) to (X2, Y2).
type Segment struct{ X1, Y1, X2, Y2 float64 }

// ArrowSegment is where arrow a is drawn: from its sender's lifeline at
// the row it was sent to its receiver's lifeline at the row it was
// delivered; a lost message stops halfway between the two lanes at the row
// that lost it; one still in transit ends at the receiver's lane at the
// bottom. A message to oneself (From = To) is drawn as a curve instead (see
// SelfPath) but has the same end points.
func (l Layout) ArrowSegment(a Arrow) Segment {
	s := Segment{X1: l.LaneX(a.From), Y1: l.RowY(a.Sent), X2: l.LaneX(a.To)}
	switch {
	case a.End < 0:
		s.Y2 = l.Bottom()
	case a.Lost:
		s.Y2 = l.RowY(a.End)
		if a.From == a.To {
			s.X2 = s.X1 + selfBulge
		} else {
			s.X2 = (s.X1 + s.X2) / 2
		}
	default:
		s.Y2 = l.RowY(a.End)
	}
	return s
}

// BarSpan is the vertical extent of a critical-section bar: from half a row
// above its first state to half a row below its last (to the bottom when it
// is still open), so that one-state bars are visible and bars of
// consecutive states touch.
func (l Layout) BarSpan(b Bar) (y1, y2 float64) {
	y1 = l.RowY(b.From) - rowHeight/2 + 3
	y2 = l.RowY(b.To) + rowHeight/2 - 3
	if b.Open {
		y2 = l.Bottom()
	}
	return y1, y2
}

// Overlap returns the rows in which two or more bars hold at once: the
// states that break mutual exclusion, at a glance.
func Overlap(bars []Bar, rows int) []int {
	count := make([]int, rows)
	for _, b := range bars {
		for i := b.From; i <= b.To && i < rows; i++ {
			count[i]++
		}
	}
	out := []int{}
	for i, c := range count {
		if c > 1 {
			out = append(out, i)
		}
	}
	return out
}
