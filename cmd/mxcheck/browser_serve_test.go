package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserServe clicks through serve in headless chromium: the index
// lists the traces and opens one; the explorer starts at the initial state,
// follows a step, goes back, finds the shortest counterexample and steps
// along it to the violation, and steps along a stored trace.
func TestBrowserServe(t *testing.T) {
	ts, _ := testServer(t, "--spec", "ra", "--churn", "1")
	b := newBrowser(t)

	b.do(t, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#traces")))
	if n := count(t, b, "#traces a.trace"); n != 2 {
		t.Errorf("index lists %d traces, want 2", n)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`a.trace[href="/trace/ra/churn-1.itf.json"]`)), chromedp.WaitVisible(chromedp.CSS("#step-title")))
	if n := count(t, b, "#diagram .lifeline[data-node]"); n != 3 {
		t.Errorf("trace page: %d lifelines, want 3", n)
	}
	waitText(t, b, "#step-title", "Step 11: n1 Enter")
	b.checkConsole(t)

	// The explorer, from the index.
	b.do(t, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#explore-link")),
		chromedp.Click(chromedp.CSS("#explore-link")), chromedp.WaitVisible(chromedp.CSS("#steps")))
	waitText(t, b, "#count", "9")
	if got := text(t, b, "#violations"); got != "every invariant holds" {
		t.Errorf("initial state: %q", got)
	}
	b.do(t, chromedp.Click(chromedp.CSS(`#steps button.step[data-index="0"]`)))
	waitText(t, b, "#depth", "1")
	if got := text(t, b, "#trail"); got != "n0 RequestCS" {
		t.Errorf("trail %q", got)
	}
	if got := text(t, b, "#changes"); !strings.Contains(got, "n0.State: RELEASED -> WANTED") {
		t.Errorf("changes %q", got)
	}
	if loc := eval[string](t, b, "location.hash"); loc != "#path=0" {
		t.Errorf("address %q, want #path=0", loc)
	}
	b.do(t, chromedp.Click(chromedp.CSS("#back")))
	waitText(t, b, "#depth", "0")
	waitText(t, b, "#count", "9")

	// A fresh counterexample, stepped along with the button and the key.
	b.do(t, chromedp.Click(chromedp.CSS("#find")))
	waitText(t, b, "#message", "mutual-exclusion violated after 11 steps")
	for i := 1; i <= 11; i++ {
		// The button is enabled once the page has loaded the state it
		// steps from; a click before that is ignored.
		waitTrue(t, b, `!document.getElementById("along-next").disabled`)
		if i%2 == 0 {
			b.do(t, chromedp.KeyEvent(kb.ArrowRight))
		} else {
			b.do(t, chromedp.Click(chromedp.CSS("#along-next")))
		}
		waitText(t, b, "#depth", itoa(i))
	}
	waitText(t, b, "#violations", "violates mutual-exclusion")
	if !eval[bool](t, b, `document.getElementById("along-next").disabled`) {
		t.Error("next-along still enabled at the end of the counterexample")
	}
	// The path as a trace page: the violation highlighted, both nodes in
	// the CS at the end.
	hash := eval[string](t, b, "location.hash")
	b.do(t, chromedp.Click(chromedp.CSS("#diagram-link")), chromedp.WaitVisible(chromedp.CSS("#step-title")))
	waitText(t, b, "#step-title", "Step 11: n1 Enter")
	if n, v := count(t, b, "#diagram .row"), count(t, b, "#diagram .row.violating"); n != 12 || v != 1 {
		t.Errorf("path page: %d rows, %d violating; want 12 and 1", n, v)
	}
	if n := count(t, b, "#diagram .cs-bar"); n != 2 {
		t.Errorf("path page: %d CS bars, want 2", n)
	}
	b.do(t, chromedp.Navigate(ts.URL+"/explore"+hash), chromedp.WaitVisible(chromedp.CSS("#steps")))
	waitText(t, b, "#depth", "11")

	// Back along the trail: a click on its third step.
	b.do(t, chromedp.Click(chromedp.CSS("#trail li:nth-child(3)")))
	waitText(t, b, "#depth", "3")

	// A stored trace of this configuration, from the index's link.
	b.do(t, chromedp.Navigate(ts.URL+"/explore#trace=ra/churn-1.itf.json"), chromedp.Reload())
	waitText(t, b, "#message", "ra/churn-1.itf.json: mutual-exclusion violated after 11 steps")
	for i := 1; i <= 11; i++ {
		waitTrue(t, b, `!document.getElementById("along-next").disabled`)
		b.do(t, chromedp.Click(chromedp.CSS("#along-next")))
		waitText(t, b, "#depth", itoa(i))
	}
	waitText(t, b, "#trail", "adversary remove n1 forgets n0")
	waitText(t, b, "#violations", "violates mutual-exclusion")
	waitText(t, b, "#config", "ra --churn=1")
	b.checkConsole(t)
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	artifact(t, "serve-explorer.png", png)

	// A bad path in the address shows the server's message, not a crash.
	b.do(t, chromedp.Navigate(ts.URL+"/explore#path=0.99"), chromedp.Reload())
	waitText(t, b, "#error", "successor 99")
}

func itoa(i int) string { return strconv.Itoa(i) }
