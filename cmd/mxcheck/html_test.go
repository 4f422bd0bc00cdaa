package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLFlag: --html on check writes the counterexample's page with the
// exact command; a verified check writes a page with the verdict only;
// replay --html writes the stored trace's page; a file that cannot be
// written is one line and exit 2.
func TestHTMLFlag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ra.html")
	if code, _, errs := call("check", "ra", "--churn", "1", "--html", out); code != 1 {
		t.Fatalf("check: exit %d: %s", code, errs)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mxcheck check ra --churn 1</code>", `class="verdict verdict-violated"`, "adversary remove n1 forgets n0", `id="trace-data"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("check --html page lacks %q", want)
		}
	}
	if code, _, _ := call("check", "ra", "--html="+out); code != 0 {
		t.Fatalf("verified check: exit %d", code)
	}
	page, _ = os.ReadFile(out)
	if !strings.Contains(string(page), `verdict-verified`) || strings.Contains(string(page), `id="diagram"`) {
		t.Errorf("verified page: %s", page)
	}
	if code, stdout, errs := call("replay", "../../counterexamples/maekawa/churn-2.itf.json", "--html", out); code != 0 || !strings.Contains(stdout, "reproduced") {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	page, _ = os.ReadFile(out)
	if strings.Count(string(page), `class="lifeline" data-node=`) != 4 || !strings.Contains(string(page), "mxcheck replay ../../counterexamples/maekawa/churn-2.itf.json") {
		t.Errorf("replay --html page")
	}
	for _, args := range [][]string{
		{"check", "ra", "--churn", "1", "--html", filepath.Join(dir, "no", "such", "dir.html")},
		{"replay", "../../counterexamples/ra/churn-1.itf.json", "--html", filepath.Join(dir, "no", "x.html")},
	} {
		code, _, errs := call(args...)
		if code != 2 || !strings.Contains(errs, "--html") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func TestCommandLine(t *testing.T) {
	if got := commandLine([]string{"mxcheck", "check", "ra", "--missing", "1:0,2:1", "a b", "it's"}); got != `mxcheck check ra --missing 1:0,2:1 'a b' 'it'\''s'` {
		t.Errorf("commandLine = %s", got)
	}
	if got := withoutFlag([]string{"--html", "x", "--nodes", "3", "--html=y", "--quiet"}, "html"); strings.Join(got, " ") != "--nodes 3 --quiet" {
		t.Errorf("withoutFlag = %q", got)
	}
}

// TestHTMLLinksHistory: with --history-html beside --html, the trace page
// links porcupine's history view by its path relative to the page, on
// check, replay and simulate; without a written history, no link.
func TestHTMLLinksHistory(t *testing.T) {
	dir := t.TempDir()
	page, hist := filepath.Join(dir, "t.html"), filepath.Join(dir, "pics", "h.html")
	if err := os.Mkdir(filepath.Join(dir, "pics"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := `href="pics/h.html"`
	for _, args := range [][]string{
		{"check", "ra", "--churn", "1", "--html", page, "--history-html", hist},
		{"replay", "../../counterexamples/ra/churn-1.itf.json", "--html", page, "--history-html", hist},
		{"simulate", "ra", "--churn", "1", "--runs", "200", "--seed", "1", "--html", page, "--history-html", hist},
	} {
		os.Remove(page)
		os.Remove(hist)
		if code, _, errs := call(args...); code > 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if _, err := os.Stat(hist); err != nil || !strings.Contains(string(b), link) {
			t.Errorf("%v: history %v, page links it: %v", args, err, strings.Contains(string(b), link))
		}
	}
	// A verified check writes no history, so its page links none.
	os.Remove(hist)
	if code, _, _ := call("check", "ra", "--html", page, "--history-html", hist); code != 0 {
		t.Fatalf("verified check: exit %d", code)
	}
	if b, _ := os.ReadFile(page); strings.Contains(string(b), "porcupine history view") {
		t.Error("a page links a history that was not written")
	}
}
