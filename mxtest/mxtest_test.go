package mxtest_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/mxtest"
	"github.com/mxcheck/mxcheck/specs/tokenlock"
)

// fakeT records failures instead of failing the real test.
type fakeT struct {
	testing.TB
	dir    string
	failed bool
	log    strings.Builder
}

func (f *fakeT) Helper()             {}
func (f *fakeT) ArtifactDir() string { return f.dir }
func (f *fakeT) Errorf(format string, a ...any) {
	f.failed = true
	fmt.Fprintf(&f.log, format+"\n", a...)
}
func (f *fakeT) Fatalf(format string, a ...any) { f.Errorf(format, a...); runtime.Goexit() }

// run calls body with a fake T on its own goroutine (Fatalf ends it).
func run(t *testing.T, body func(tb testing.TB)) *fakeT {
	f := &fakeT{dir: t.TempDir()}
	done := make(chan struct{})
	go func() { defer close(done); body(f) }()
	<-done
	return f
}

// TestCheckFailsWithTrace: Check fails on a violation, prints the trace and
// the replay command, and writes the trace file it names.
func TestCheckFailsWithTrace(t *testing.T) {
	f := run(t, func(tb testing.TB) { mxtest.Check(tb, tokenlock.Spec, model.Values{"mutant": "eager-enter"}) })
	out := f.log.String()
	if !f.failed || !strings.Contains(out, "VIOLATED") || !strings.Contains(out, "4. n1 Enter") || !strings.Contains(out, "mxcheck replay ") {
		t.Fatalf("failed=%v, log:\n%s", f.failed, out)
	}
	path := strings.TrimSpace(out[strings.LastIndex(out, "mxcheck replay ")+len("mxcheck replay "):])
	if _, err := os.Stat(path); err != nil {
		t.Errorf("trace file: %v", err)
	}
	if f := run(t, func(tb testing.TB) { mxtest.Check(tb, tokenlock.Spec, nil) }); f.failed {
		t.Errorf("Check failed on a verified configuration:\n%s", f.log.String())
	}
}

// TestViolatesPins: Violates fails on the wrong property, a longer trace, a
// verified configuration, or a bad parameter.
func TestViolatesPins(t *testing.T) {
	mutant := model.Values{"mutant": "eager-enter"}
	for name, c := range map[string]struct {
		params model.Values
		prop   string
		max    int
		fail   bool
	}{
		"pinned":         {mutant, "mutual-exclusion", 4, false},
		"any-length":     {mutant, "mutual-exclusion", 0, false},
		"too-short":      {mutant, "mutual-exclusion", 3, true},
		"wrong-property": {mutant, "no-deadlock", 0, true},
		"verified":       {nil, "mutual-exclusion", 0, true},
		"bad-parameter":  {model.Values{"mutant": "nope"}, "mutual-exclusion", 0, true},
	} {
		f := run(t, func(tb testing.TB) { mxtest.Violates(tb, tokenlock.Spec, c.params, c.prop, c.max) })
		if f.failed != c.fail {
			t.Errorf("%s: failed=%v, want %v:\n%s", name, f.failed, c.fail, f.log.String())
		}
	}
}

// TestCheckFailsOnUnreached: a configuration in which nothing happens
// (no request) violates nothing, but reaches no sometimes property: Check
// fails and names it.
func TestCheckFailsOnUnreached(t *testing.T) {
	f := run(t, func(tb testing.TB) { mxtest.Check(tb, tokenlock.Spec, model.Values{"requests": "0"}) })
	if out := f.log.String(); !f.failed || !strings.Contains(out, "UNREACHED") || !strings.Contains(out, "cs-entered") {
		t.Fatalf("failed=%v, log:\n%s", f.failed, out)
	}
}
