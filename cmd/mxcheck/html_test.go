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
