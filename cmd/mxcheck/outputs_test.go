package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 18 item 1: an optional output that has nothing to hold (no graph
// for --dot-out) never hides the counterexample or the verdict.
func TestDotOutWithoutGraphKeepsVerdict(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "ra.dot")
	code, out, errs := call("check", "ra", "--missing", "1:0", "--dot-out", dot)
	if code != exitViolated {
		t.Errorf("exit %d, want 1; stderr %q", code, errs)
	}
	if !strings.Contains(out, "VIOLATION of invariant mutual-exclusion after 10 steps") || !strings.Contains(out, "verdict: VIOLATED") {
		t.Errorf("the counterexample is lost:\n%s", out)
	}
	if !strings.Contains(errs, "no violated property has a graph") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q", errs)
	}
	if _, err := os.Stat(dot); err == nil {
		t.Error("an empty DOT file was left behind")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dot), "*")); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// Issue 18 item 2: an output path that cannot be written is refused before
// the search, not after it.
func TestUnwritableOutputRefusedBeforeSearch(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "nonexistent", "t.json")
	for _, flag := range []string{"--trace-out", "--dot-out"} {
		start := time.Now()
		code, out, errs := call("check", "ra", "--nodes", "5", "--timeout", "4s", flag, bad)
		if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, flag) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errs)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%s: refused only after %v of searching", flag, el)
		}
	}
}

// Issue 18 item 2: a write that fails after the search (here: a full disk,
// /dev/full) is reported on stderr; the result is printed and the exit code
// is the verdict's.
func TestLateWriteErrorKeepsVerdict(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	code, out, errs := call("check", "ra", "--missing", "1:0", "--trace-out", "/dev/full")
	if code != exitViolated || !strings.Contains(out, "verdict: VIOLATED") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
	if !strings.Contains(errs, "--trace-out /dev/full: not written") || !strings.Contains(errs, "no space left") {
		t.Errorf("stderr %q", errs)
	}
}

// A regular file is replaced only when fully written: a trace over an
// existing file leaves the new trace, and no temporary file remains.
func TestTraceOutReplacesWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.json")
	os.WriteFile(path, []byte(strings.Repeat("old ", 10000)), 0o644)
	if code, _, errs := call("check", "ra", "--missing", "1:0", "--trace-out", path); code != exitViolated {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, out, _ := call("replay", path); code != 0 {
		t.Errorf("replay exit %d: %s", code, out)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 1 {
		t.Errorf("files in the directory: %v", left)
	}
}
