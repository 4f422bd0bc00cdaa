package htmlview

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

func toyPage(t *testing.T, prop string) *Page {
	t.Helper()
	p, err := FromViolation(toySystem(), "toy", map[string]string{"nodes": "2", "empty": ""}, toyViolation(prop), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPageMutualExclusion: the toy's race draws two nodes, four delivered
// messages and two CS bars that overlap in the last state; each step's
// changes are the text renderer's.
func TestPageMutualExclusion(t *testing.T) {
	v := toyViolation("mutual-exclusion")
	p := toyPage(t, "mutual-exclusion")
	if len(p.Nodes) != 2 || len(p.Steps) != 7 || p.Steps[0].Label != "initial state" {
		t.Fatalf("nodes %v, %d states", p.Nodes, len(p.Steps))
	}
	for i := 1; i < len(p.Steps); i++ {
		if !reflect.DeepEqual(p.Steps[i].Changes, v.Trace.Steps[i].Changes) || p.Steps[i].Label != v.Trace.Steps[i].Label {
			t.Errorf("step %d: %q %q, the text renderer has %q %q", i, p.Steps[i].Label, p.Steps[i].Changes, v.Trace.Steps[i].Label, v.Trace.Steps[i].Changes)
		}
	}
	if len(p.Arrows) != 4 {
		t.Fatalf("arrows %+v, want 4", p.Arrows)
	}
	for _, a := range p.Arrows {
		if a.End <= a.Sent || a.Lost || a.From == a.To {
			t.Errorf("arrow %+v is not a delivered message between the two nodes", a)
		}
	}
	want := []Bar{{Node: 0, From: 5, To: 6, Open: true}, {Node: 1, From: 6, To: 6, Open: true}}
	if p.Steps[5].Label != "n0 Pong n1.1->n0.1 pong" {
		want[0], want[1] = Bar{Node: 0, From: 6, To: 6, Open: true}, Bar{Node: 1, From: 5, To: 6, Open: true}
	}
	if !reflect.DeepEqual(p.Bars, want) {
		t.Errorf("bars %+v, want %+v", p.Bars, want)
	}
	// Each node waits from its request to its pong.
	for _, w := range p.Waits {
		if !strings.HasSuffix(p.Steps[w.From].Label, "Request") || !strings.Contains(p.Steps[w.To+1].Label, "Pong") || w.Open {
			t.Errorf("wait %+v: from %q to before %q", w, p.Steps[w.From].Label, p.Steps[w.To+1].Label)
		}
	}
	if len(p.Waits) != 2 || p.Waits[0].Node != 0 || p.Waits[1].Node != 1 {
		t.Errorf("waits %+v", p.Waits)
	}
	if got := Overlap(p.Bars, len(p.Steps)); !reflect.DeepEqual(got, []int{6}) {
		t.Errorf("overlap rows %v, want [6]", got)
	}
	if p.Steps[1].Kind != "env" || p.Steps[1].Actor < 0 || p.Command != "mxcheck check toy --nodes=2" {
		t.Errorf("step 1 %+v, command %q", p.Steps[1], p.Command)
	}
}

// TestPageLostMessage: a disconnect loses the ping in transit; the move is
// a mark in the adversary lane touching both nodes.
func TestPageLostMessage(t *testing.T) {
	p := toyPage(t, "waits-connected")
	if len(p.Steps) != 3 || len(p.Arrows) != 1 {
		t.Fatalf("%d states, arrows %+v", len(p.Steps), p.Arrows)
	}
	if a := p.Arrows[0]; !a.Lost || a.End != 2 || a.Sent != 1 || a.Text != "n0.1->n1.1 ping" {
		t.Errorf("arrow %+v, want the ping lost at step 2", a)
	}
	if len(p.Marks) != 1 || p.Marks[0].Step != 2 || !reflect.DeepEqual(p.Marks[0].Nodes, []int{0, 1}) {
		t.Errorf("marks %+v", p.Marks)
	}
	if p.Steps[2].Actor != -1 || p.Steps[2].Kind != "adversary" {
		t.Errorf("step 2 %+v", p.Steps[2])
	}
	if len(p.Steps[1].Adjacency) != 2 || !strings.Contains(p.Steps[1].Adjacency[0], "1→n1.1") || strings.Contains(p.Steps[2].Adjacency[0], "n1.1") {
		t.Errorf("adjacency %q then %q", p.Steps[1].Adjacency, p.Steps[2].Adjacency)
	}
}

// TestWrite: the page is one file with its data in a JSON block that
// parses back to the page, even when a label tries to close the script.
func TestWrite(t *testing.T) {
	p := toyPage(t, "mutual-exclusion")
	p.Steps[1].Label = "</script><script>alert(1)</script>"
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="trace-data">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no data block")
	}
	var back Page
	if err := json.Unmarshal([]byte(m[1]), &back); err != nil {
		t.Fatalf("data block: %v", err)
	}
	if !reflect.DeepEqual(&back, p) {
		t.Errorf("data block does not give the page back")
	}
	if strings.Count(html, "<script") != 2 || strings.Contains(html, "<script>alert") {
		t.Errorf("a label closed the script block")
	}
	if strings.Count(html, `class="lifeline" data-node=`) != 2 || strings.Count(html, `class="cs-bar`) != 2 || strings.Count(html, `<g class="arrow"`) != 4 {
		t.Errorf("diagram lacks lifelines, bars or arrows")
	}
}

// TestFromResultOthers: a result with several violations draws the first
// and names the others.
func TestFromResultOthers(t *testing.T) {
	r := &explore.Result{Verdict: explore.Violated, Violations: toyViolations()}
	p, err := FromResult(toySystem(), "toy", nil, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Property != "waits-connected" || len(p.Others) != 1 || p.Others[0] != "mutual-exclusion (invariant) after 6 steps" {
		t.Errorf("property %q, others %q", p.Property, p.Others)
	}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil || !strings.Contains(b.String(), "mutual-exclusion (invariant) after 6 steps") {
		t.Errorf("the page does not name the other violation (%v)", err)
	}
}

// TestFromResultVerified: a verified result has a header and no trace.
func TestFromResultVerified(t *testing.T) {
	r := &explore.Result{Verdict: explore.Verified}
	p, err := FromResult(toySystem(), "toy", nil, r, Options{Command: "mxcheck check toy"})
	if err != nil || p.Verdict != "verified" || len(p.Steps) != 0 || p.Command != "mxcheck check toy" {
		t.Fatalf("%+v %v", p, err)
	}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil || strings.Contains(b.String(), `id="diagram"`) {
		t.Errorf("a verified page draws a diagram (%v)", err)
	}
}

// TestFromITFDiverged: a trace the model cannot execute has no page.
func TestFromITFDiverged(t *testing.T) {
	itf := explore.NewITF("toy", nil, toyViolation("mutual-exclusion"))
	itf.States[3]["#meta"].(map[string]any)["step"] = "n5 Nothing"
	if _, err := FromITF(toySystem(), itf, Options{}); err == nil || !strings.Contains(err.Error(), "step 3") {
		t.Errorf("err = %v, want divergence at step 3", err)
	}
	var sys model.System = toySystem()
	if _, ok := sys.(model.Picturer); !ok {
		t.Fatal("a compiled protocol is not a Picturer")
	}
}
