package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 15 item 2: a configuration in which nothing ever happens (no
// request, no exit, no CS change) reaches none of its spec's sometimes
// properties: check says UNREACHED with exit 4, never VERIFIED.
func TestUnreachedExitCode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		prop string
	}{
		{[]string{"ra", "--nodes", "3", "--requests", "0"}, "cs-entered"},
		{[]string{"camera", "--requests", "0"}, "cs-entered"},
		{[]string{"maekawa", "--requests", "0"}, "cs-entered"},
		{[]string{"tokenlock", "--requests", "0"}, "cs-entered"},
		{[]string{"rcv", "--requests", "0"}, "cs-entered"},
		{[]string{"akw", "--requests", "0"}, "some-node-eats"},
		{[]string{"akw2", "--requests", "0"}, "some-node-eats"},
		{[]string{"lmutin", "--exits", "0"}, "exit-completed"},
		{[]string{"lkcs", "--changes", "0"}, "change-completed"},
	} {
		code, out, errs := call(append([]string{"check"}, tc.args...)...)
		if code != exitUnreached || !strings.Contains(out, "verdict: UNREACHED") || !strings.Contains(out, "sometimes "+tc.prop+": UNREACHED") {
			t.Errorf("check %v: exit %d, want %d; stderr %q\n%s", tc.args, code, exitUnreached, errs, out)
		}
	}
	// The same specs with their default workload reach them.
	code, out, _ := call("check", "ra", "--nodes", "3")
	if code != exitOK || !strings.Contains(out, "sometimes cs-entered: reached in 6 steps\n") {
		t.Errorf("check ra: exit %d\n%s", code, out)
	}
	// JSON: the verdict, the status and the kind of each property.
	code, out, _ = call("check", "ra", "--requests", "0", "--json")
	var r struct {
		Verdict    string
		Properties []struct{ Name, Status, Kind string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitUnreached || r.Verdict != "unreached" {
		t.Fatalf("--json: exit %d, %v, %q", code, err, r.Verdict)
	}
	if got := r.Properties[len(r.Properties)-1]; got.Name != "cs-entered" || got.Status != "unreached" || got.Kind != "sometimes" || r.Properties[0].Kind != "invariant" {
		t.Errorf("--json properties: %+v", r.Properties)
	}
	// A search stopped by a limit before a witness says incomplete, the
	// property unknown.
	if code, out, _ := call("check", "ra", "--max-depth", "2"); code != exitIncomplete || !strings.Contains(out, "cs-entered        unknown") {
		t.Errorf("--max-depth 2: exit %d\n%s", code, out)
	}
}

// The help, the suite table and the HTML page know the verdict.
func TestUnreachedConsumers(t *testing.T) {
	if _, out, _ := call("--help"); !strings.Contains(out, "4 unreached") {
		t.Errorf("--help does not document exit code 4:\n%s", out)
	}
	code, out, errs := call("suite", writeSuite(t, "ra --requests=0 => unreached\nra --nodes=2 => verified\n"))
	if code != exitOK || !strings.Contains(out, "unreached: cs-entered") || !strings.Contains(out, "2 as expected") {
		t.Errorf("suite: exit %d, stderr %q\n%s", code, errs, out)
	}
	if code, out, _ := call("suite", writeSuite(t, "ra --requests=0 => verified\n")); code != exitViolated || !strings.Contains(out, "MISMATCH") {
		t.Errorf("suite expecting verified: exit %d\n%s", code, out)
	}
	page := filepath.Join(t.TempDir(), "p.html")
	if code, _, errs := call("check", "ra", "--requests", "0", "--html", page); code != exitUnreached {
		t.Fatalf("--html: exit %d, %s", code, errs)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "verdict-unreached") || !strings.Contains(string(b), "cs-entered") {
		t.Errorf("page: %v", err)
	}
	// Witnesses go to --trace-out-all and replay.
	dir := t.TempDir()
	if code, _, errs := call("check", "ra", "--nodes", "3", "--trace-out-all", dir); code != exitOK || !strings.Contains(errs, "no violation") {
		t.Fatalf("--trace-out-all: exit %d, %s", code, errs)
	}
	code, out, errs = call("replay", filepath.Join(dir, "cs-entered.itf.json"))
	if code != exitOK || !strings.Contains(out, "6 steps, still reaches cs-entered") {
		t.Errorf("replay of a witness: exit %d, %s%s", code, out, errs)
	}
}
