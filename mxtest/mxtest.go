// Package mxtest is the Go test API for protocol authors, in the manner of
// net/http/httptest: check a configuration of a spec from a test and get a
// readable failure.
//
//	func TestSafe(t *testing.T) {
//		mxtest.Check(t, myproto.Spec, model.Values{"nodes": "3"})
//	}
//
//	func TestMutantCaught(t *testing.T) {
//		mxtest.Violates(t, myproto.Spec, model.Values{"mutant": "never-defer"}, "mutual-exclusion", 12)
//	}
//
// Check fails the test on a violation (printing the counterexample as text),
// on an incomplete search, or on a sometimes property that no reachable
// state satisfies (verdict Unreached); the counterexample is also written as an ITF
// trace to the test's artifact directory (go test -artifacts keeps it) and
// the failure message gives the `mxcheck replay` command that re-runs it.
// Violates pins a known counterexample: the property must be the first one
// violated, by a shortest trace of at most maxLen steps, and the trace must
// replay. Both search breadth-first, so traces are shortest.
//
// For pinned state counts across many configurations, write test files
// (specs/spectest.Files) rather than Go literals.
package mxtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// Check builds configuration params of spec (unset parameters take their
// defaults) and searches it with opts (at most one; the zero Options by
// default: BFS, every invariant and deadlock freedom). It fails the test on
// a bad configuration, an incomplete search, any violation, or an
// unreached sometimes property, and returns the result.
func Check(t testing.TB, spec *model.Spec, params model.Values, opts ...explore.Options) *explore.Result {
	t.Helper()
	sys, v := build(t, spec, params)
	r := search(t, sys, opts)
	switch r.Verdict {
	case explore.Incomplete:
		t.Fatalf("%s %v: INCOMPLETE (%s) after %d states: nothing is proven", spec.Name, v.Flags(spec), r.Limit, r.Stats.Distinct)
	case explore.Unreached:
		var names []string
		for _, p := range r.Properties {
			if p.Status == explore.NeverReached {
				names = append(names, p.Name)
			}
		}
		t.Fatalf("%s %v: UNREACHED: no reachable state (of %d) satisfies the sometimes property %v: the configuration never does what it should", spec.Name, v.Flags(spec), r.Stats.Distinct, names)
	case explore.Violated:
		var b bytes.Buffer
		explore.WriteText(&b, r)
		path := store(t, spec, v, r.Violations[0])
		t.Fatalf("%s %v: VIOLATED\n%s\nreplay it: mxcheck replay %s", spec.Name, v.Flags(spec), b.String(), path)
	}
	return r
}

// Violates asserts that configuration params of spec violates property
// first (under a BFS, so with a shortest trace), in at most maxLen steps
// (0: any length), and that the trace replays. It returns the violation.
func Violates(t testing.TB, spec *model.Spec, params model.Values, property string, maxLen int, opts ...explore.Options) explore.Violation {
	t.Helper()
	sys, v := build(t, spec, params)
	r := search(t, sys, opts)
	if r.Verdict != explore.Violated {
		t.Fatalf("%s %v: %s, want %s violated", spec.Name, v.Flags(spec), r.Verdict, property)
	}
	x := r.Violations[0]
	if x.Property != property {
		path := store(t, spec, v, x)
		t.Fatalf("%s %v: first violated %s, want %s (trace: %s)", spec.Name, v.Flags(spec), x.Property, property, path)
	}
	if maxLen > 0 && x.Trace.Len() > maxLen {
		path := store(t, spec, v, x)
		t.Errorf("%s %v: shortest trace to %s has %d steps, want at most %d (trace: %s)", spec.Name, v.Flags(spec), property, x.Trace.Len(), maxLen, path)
	}
	var b bytes.Buffer
	if err := explore.NewITF(spec.Name, v, x).Write(&b); err != nil {
		t.Fatal(err)
	}
	tr, err := explore.ReadITF(&b)
	if err != nil {
		t.Fatalf("own trace does not parse: %v", err)
	}
	if res := explore.Replay(sys, tr); !res.Reproduced {
		t.Errorf("%s %v: the trace to %s does not replay: %s", spec.Name, v.Flags(spec), property, res.Reason)
	}
	return x
}

func build(t testing.TB, spec *model.Spec, params model.Values) (model.System, model.Values) {
	t.Helper()
	sys, a, err := spec.Compile(params)
	if err != nil {
		t.Fatalf("%s: %v", spec.Name, err)
	}
	return sys, a.Values()
}

func search(t testing.TB, sys model.System, opts []explore.Options) *explore.Result {
	t.Helper()
	var o explore.Options
	switch len(opts) {
	case 0:
	case 1:
		o = opts[0]
	default:
		t.Fatalf("mxtest: at most one explore.Options, got %d", len(opts))
	}
	c, err := explore.New(sys, o)
	if err != nil {
		t.Fatalf("mxtest: %v", err)
	}
	return c.Run()
}

// store writes x as an ITF trace into the test's artifact directory (or a
// temporary directory) and returns its path.
func store(t testing.TB, spec *model.Spec, v model.Values, x explore.Violation) string {
	t.Helper()
	path := filepath.Join(t.ArtifactDir(), fmt.Sprintf("%s-%s.itf.json", spec.Name, x.Property))
	var b bytes.Buffer
	if err := explore.NewITF(spec.Name, v, x).Write(&b); err != nil {
		t.Errorf("writing the trace: %v", err)
		return "(not written)"
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Errorf("writing the trace: %v", err)
		return "(not written)"
	}
	return path
}
