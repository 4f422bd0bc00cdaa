package main

import (
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// bomb wraps a real system and panics, as its action "Enter" at n1, when
// it expands a state in which a node holds the critical section.
type bomb struct {
	model.System
	model.Describer
}

func (b bomb) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	for _, line := range b.Dump(s) {
		if strings.Contains(line, "State=HELD") {
			var xs []int
			defer func() {
				panic(&model.ActionPanic{Node: 1, Action: "Enter", Value: recover()})
			}()
			_ = xs[len(line)]
		}
	}
	b.System.Successors(s, yield)
}

// bombLookup finds ra with its system wrapped in a bomb, whatever the name.
func bombLookup(string) *model.Spec {
	ra := *specs.Lookup("ra")
	build := ra.Build
	ra.Build = func(v *model.Args) (model.System, error) {
		sys, err := build(v)
		if err != nil {
			return nil, err
		}
		return bomb{sys, sys.(model.Describer)}, nil
	}
	return &ra
}

// A panic in spec code during a search: exit 2, one line naming the spec
// and the action, then the trace; never a Go stack.
func TestSpecPanicReported(t *testing.T) {
	defer func(old func(string) *model.Spec) { lookupSpec = old }(lookupSpec)
	lookupSpec = bombLookup
	for _, extra := range [][]string{nil, {"--workers", "2"}, {"--strategy", "dfs"}} {
		code, out, errs := call(append([]string{"check", "ra"}, extra...)...)
		if code != exitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q", extra, code, out)
		}
		lines := strings.Split(errs, "\n")
		if !strings.HasPrefix(lines[0], "mxcheck: spec ra: panic in n1 Enter: runtime error: index out of range") {
			t.Errorf("%v: first line %q", extra, lines[0])
		}
		if !strings.Contains(errs, "trace to the state") || !strings.Contains(errs, "Enter") || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: stderr:\n%s", extra, errs)
		}
	}
}

// In a suite, a row whose spec panics is marked PANIC with the message, and
// the suite exits 1 (a row did not end as expected).
func TestSuiteRowPanic(t *testing.T) {
	defer func(old func(string) *model.Spec) { lookupSpec = old }(lookupSpec)
	lookupSpec = bombLookup
	code, out, errs := call("suite", writeSuite(t, "ra --nodes=3 => verified\n"))
	if code != exitViolated || !strings.Contains(out, "PANIC spec ra: panic in n1 Enter") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}
