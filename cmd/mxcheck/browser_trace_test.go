package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// htmlOf writes the page of a stored trace with mxcheck replay --html.
func htmlOf(t *testing.T, trace string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), strings.ReplaceAll(filepath.Base(trace), ".itf.json", ".html"))
	if code, _, errs := call("replay", trace, "--html", out); code != 0 {
		t.Fatalf("replay --html: exit %d: %s", code, errs)
	}
	return out
}

// TestBrowserTracePage loads the page of RA's churn counterexample in
// headless chromium: three lifelines, six message arrows, two critical
// section bars; the keys move through the steps and the panel shows each
// step's diff (the text renderer's lines); #step=N selects a step; a click
// on a row selects it; nothing is logged to the console.
func TestBrowserTracePage(t *testing.T) {
	b := newBrowser(t)
	t.Chdir("../..") // the page's command names the trace as from the repository's root
	trace := "counterexamples/ra/churn-1.itf.json"
	page, err := tracePage(trace)
	if err != nil {
		t.Fatal(err)
	}
	url := "file://" + htmlOf(t, trace)
	b.do(t, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#step-title")))

	if n := count(t, b, "#diagram .lifeline[data-node]"); n != 3 {
		t.Errorf("%d lifelines, want 3", n)
	}
	if n := count(t, b, "#diagram .lifeline.adversary"); n != 1 {
		t.Errorf("%d adversary lanes, want 1", n)
	}
	if n := count(t, b, "#diagram g.arrow"); n != 6 || n != len(page.Arrows) {
		t.Errorf("%d arrows, want 6 (page data: %d)", n, len(page.Arrows))
	}
	if n := count(t, b, "#diagram g.arrow.transit, #diagram g.arrow.lost"); n != 0 {
		t.Errorf("%d arrows lost or in transit, want 0", n)
	}
	if n := count(t, b, "#diagram .cs-bar"); n != 2 {
		t.Errorf("%d critical-section bars, want 2", n)
	}
	// n0 waits from its request (1) to its entry (6), n1 from 8 to 11.
	if n := count(t, b, "#diagram .wait-bar"); n != 2 {
		t.Errorf("%d waiting bars, want 2", n)
	}
	if n := count(t, b, "#diagram .mark"); n != 1 {
		t.Errorf("%d adversary marks, want 1", n)
	}
	if n := count(t, b, "#diagram .row.violating"); n != 1 || text(t, b, "#diagram .row.violating title") != "11. n1 Enter" {
		t.Errorf("violating rows: %d", n)
	}

	// The violating step is selected first; keys move through the steps.
	waitText(t, b, "#step-title", "Step 11: n1 Enter")
	if got := text(t, b, "#step-cs"); got != "in the critical section: n0, n1 · waiting: none" {
		t.Errorf("step 11: %q", got)
	}
	panel := func(step int) {
		t.Helper()
		want := strings.Join(page.Steps[step].Changes, "\n")
		got := eval[string](t, b, `Array.from(document.querySelectorAll("#changes li")).map(li => li.textContent).join("\n")`)
		if got != want {
			t.Errorf("step %d: panel shows\n%s\nwant the diff\n%s", step, got, want)
		}
	}
	b.do(t, chromedp.KeyEvent(kb.ArrowUp))
	waitText(t, b, "#step-title", "Step 10: n1 ReceiveOK n2->n1 ok")
	panel(10)
	b.do(t, chromedp.KeyEvent("k"))
	waitText(t, b, "#step-title", "Step 9: n2 ReceiveRequest n1->n2 request(ts=2)")
	panel(9)
	if got := text(t, b, "#changes"); !strings.Contains(got, "n2.HSN: 1 -> 2") || !strings.Contains(got, "+ n2->n1 ok") || !strings.Contains(got, "- n1->n2 request(ts=2)") {
		t.Errorf("step 9's diff: %q", got)
	}
	if n := count(t, b, "#changes li.add"); n != 1 {
		t.Errorf("%d sent-message lines, want 1", n)
	}
	b.do(t, chromedp.KeyEvent("j"), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	waitText(t, b, "#step-title", "Step 11:")
	if loc := eval[string](t, b, "location.hash"); loc != "#step=11" {
		t.Errorf("address says %q after the keys, want #step=11", loc)
	}

	// #step=N in the address.
	b.do(t, chromedp.Navigate(url+"#step=4"), chromedp.WaitVisible(chromedp.CSS("#step-title")))
	waitText(t, b, "#step-title", "Step 4: n2 ReceiveRequest n0->n2 request(ts=1)")
	panel(4)
	if got := text(t, b, "#step-cs"); got != "in the critical section: none · waiting: n0" {
		t.Errorf("step 4: %q", got)
	}
	if sel := eval[string](t, b, `document.querySelector("#diagram .row.selected").getAttribute("data-step")`); sel != "4" {
		t.Errorf("row %s highlighted, want 4", sel)
	}
	// A click on a row.
	b.do(t, chromedp.Click(chromedp.CSS(`#diagram .row[data-step="7"]`)))
	waitText(t, b, "#step-title", "Step 7: adversary remove n1 forgets n0")
	panel(7)
	b.do(t, chromedp.KeyEvent(kb.Home))
	waitText(t, b, "#step-title", "Step 0: initial state")
	b.checkConsole(t)

	// A fresh load for the screenshot, the adversary's move selected.
	b.do(t, chromedp.EmulateViewport(1280, 600), chromedp.Navigate(url+"?screenshot#step=7"), chromedp.WaitVisible(chromedp.CSS("#step-title")))
	waitText(t, b, "#changes", "n1.members")
	b.do(t, chromedp.Sleep(300*time.Millisecond))
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	artifact(t, "trace-ra-churn-1.png", png)
	if os.Getenv("UPDATE_SCREENSHOT") == "1" {
		if err := os.WriteFile("docs/trace-explorer.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserLargestTrace: the page of the largest stored trace stays under
// 1 MB and opens (load event, script included) in under a second.
func TestBrowserLargestTrace(t *testing.T) {
	var largest string
	var size int64
	filepath.Walk("../../counterexamples", func(path string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".itf.json") && fi.Size() > size {
			largest, size = path, fi.Size()
		}
		return nil
	})
	out := htmlOf(t, largest)
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= 1<<20 {
		t.Errorf("%s: page of %d bytes, want under 1 MB", largest, fi.Size())
	}
	b := newBrowser(t)
	// The best of three loads: the machine may be busy with other tests.
	load, wall := -1.0, time.Duration(0)
	for i := 0; i < 3; i++ {
		start := time.Now()
		b.do(t, chromedp.Navigate("file://"+out+"?load="+strconv.Itoa(i)), chromedp.WaitVisible(chromedp.CSS("#step-title")))
		w := time.Since(start)
		l := eval[float64](t, b, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
		if load < 0 || l < load {
			load, wall = l, w
		}
	}
	steps := count(t, b, "#diagram .row")
	t.Logf("%s: %d steps, page %d bytes, load event at %.0f ms, navigate+visible %v (best of 3, headless chromium)", largest, steps-1, fi.Size(), load, wall.Round(time.Millisecond))
	if load <= 0 || load > 1000 {
		t.Errorf("page opened in %.0f ms, want under 1000", load)
	}
	if !strings.HasPrefix(text(t, b, "#step-title"), "Step ") {
		t.Error("step panel empty")
	}
	b.checkConsole(t)
}
