package htmlview

import (
	"fmt"
	"html"
	"strings"
)

// LayoutOf returns the layout of p's diagram.
func LayoutOf(p *Page) Layout {
	l := Layout{Nodes: len(p.Nodes), Rows: max(len(p.Steps), 1)}
	for i, s := range p.Steps {
		l.LabelChars = max(l.LabelChars, len(fmt.Sprintf("%d. %s", i, s.Label)))
	}
	return l
}

// Diagram renders p's space-time diagram as SVG markup. Elements carry
// classes the page's script and tests rely on: "lifeline" (one per node,
// with data-node, and one "lifeline adversary"), "row" (one per state, with
// data-step), "arrow" (one per message, with "lost" or "transit"), "cs-bar",
// "wait-bar" (waiting for the critical section), "mark" (adversary moves),
// "overlap", "violating" and "loop".
func Diagram(p *Page) string {
	l := LayoutOf(p)
	var b strings.Builder
	f := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	f(`<svg xmlns="http://www.w3.org/2000/svg" id="diagram" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="space-time diagram">`,
		l.Width(), l.Height(), l.Width(), l.Height())
	b.WriteString(`<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head"/></marker></defs>`)
	last := len(p.Steps) - 1
	// Rows: clickable bands, the violating one and overlaps highlighted.
	overlap := map[int]bool{}
	for _, i := range Overlap(p.Bars, len(p.Steps)) {
		overlap[i] = true
	}
	for i, s := range p.Steps {
		cls := "row"
		if i == last && p.Verdict == "violated" {
			cls += " violating"
		}
		if overlap[i] {
			cls += " overlap"
		}
		y := l.RowY(i) - rowHeight/2
		f(`<rect class="%s" data-step="%d" x="0" y="%g" width="%g" height="%g"><title>%s</title></rect>`,
			cls, i, y, l.Width(), rowHeight, esc(fmt.Sprintf("%d. %s", i, s.Label)))
		f(`<text class="stepno" x="%g" y="%g">%d</text>`, marginLeft-10, l.RowY(i)+4, i)
		f(`<text class="label kind-%s" x="%g" y="%g">%s</text>`, kindClass(s.Kind), l.LabelX(), l.RowY(i)+4, esc(s.Label))
	}
	// Lanes.
	for i, name := range p.Nodes {
		x := l.LaneX(i)
		f(`<text class="lane-name" x="%g" y="%g">%s</text>`, x, marginTop-18, esc(name))
		f(`<line class="lifeline" data-node="%d" x1="%g" y1="%g" x2="%g" y2="%g"/>`, i, x, marginTop-8, x, l.Bottom())
	}
	ax := l.AdversaryX()
	f(`<text class="lane-name adversary" x="%g" y="%g">env / adversary</text>`, ax, marginTop-18)
	f(`<line class="lifeline adversary" x1="%g" y1="%g" x2="%g" y2="%g"/>`, ax, marginTop-8, ax, l.Bottom())
	// Lasso loop bracket: the states from the one the loop returns to
	// through the last (which equals it).
	if p.Loop >= 0 && p.Loop <= last {
		y1, y2 := l.RowY(p.Loop)-rowHeight/3, l.RowY(last)+rowHeight/3
		f(`<path class="loop" d="M26,%g h-8 V%g h8"/><text class="loop-label" x="12" y="%g" transform="rotate(-90 12 %g)">loop</text>`,
			y1, y2, (y1+y2)/2, (y1+y2)/2)
	}
	// Waiting intervals, then critical-section bars over them.
	for _, bar := range p.Waits {
		y1, y2 := l.BarSpan(bar)
		f(`<rect class="wait-bar" data-node="%d" x="%g" y="%g" width="6" height="%g" rx="3"><title>%s waiting for the critical section, states %d..%d</title></rect>`,
			bar.Node, l.LaneX(bar.Node)-3, y1, y2-y1, esc(p.Nodes[bar.Node]), bar.From, bar.To)
	}
	// Critical-section bars.
	for _, bar := range p.Bars {
		y1, y2 := l.BarSpan(bar)
		open := ""
		if bar.Open {
			open = " open"
		}
		f(`<rect class="cs-bar%s" data-node="%d" x="%g" y="%g" width="10" height="%g" rx="3"><title>%s in the critical section, states %d..%d</title></rect>`,
			open, bar.Node, l.LaneX(bar.Node)-5, y1, y2-y1, esc(p.Nodes[bar.Node]), bar.From, bar.To)
	}
	// Steps: a dot on the actor's lane; adversary moves as marks.
	for i, s := range p.Steps {
		if i == 0 || s.Actor < 0 {
			continue
		}
		f(`<circle class="dot kind-%s" cx="%g" cy="%g" r="4"/>`, kindClass(s.Kind), l.LaneX(s.Actor), l.RowY(i))
	}
	for _, m := range p.Marks {
		y := l.RowY(m.Step)
		f(`<g class="mark" data-step="%d"><title>%s</title>`, m.Step, esc(m.Text))
		for _, u := range m.Nodes {
			f(`<line class="mark-link" x1="%g" y1="%g" x2="%g" y2="%g"/>`, ax, y, l.LaneX(u), y)
		}
		f(`<path class="mark-diamond" d="M%g,%g l6,6 l-6,6 l-6,-6 z"/></g>`, ax, y-6)
	}
	// Messages.
	for _, a := range p.Arrows {
		s := l.ArrowSegment(a)
		cls, state := "arrow", "delivered at step "+fmt.Sprint(a.End)
		switch {
		case a.End < 0:
			cls, state = "arrow transit", "still in transit"
		case a.Lost:
			cls, state = "arrow lost", "lost at step "+fmt.Sprint(a.End)
		}
		f(`<g class="%s" data-sent="%d" data-end="%d"><title>%s: sent at step %d, %s</title>`, cls, a.Sent, a.End, esc(a.Text), a.Sent, state)
		head := ` marker-end="url(#head)"`
		if a.Lost {
			head = ""
		}
		if a.From == a.To {
			f(`<path d="M%g,%g C%g,%g %g,%g %g,%g"%s/>`, s.X1, s.Y1, s.X1+selfBulge, s.Y1, s.X1+selfBulge, s.Y2, s.X2, s.Y2, head)
		} else {
			f(`<line x1="%g" y1="%g" x2="%g" y2="%g"%s/>`, s.X1, s.Y1, s.X2, s.Y2, head)
		}
		if a.Lost {
			f(`<path class="cross" d="M%g,%g l10,10 M%g,%g l-10,10"/>`, s.X2-5, s.Y2-5, s.X2+5, s.Y2-5)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func kindClass(kind string) string {
	if kind == "" {
		return "init"
	}
	return kind
}

func esc(s string) string { return html.EscapeString(s) }
