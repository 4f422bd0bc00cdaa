package counterexamples

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/history"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// stored is one stored counterexample, rebuilt and re-executed.
type stored struct {
	path   string
	trace  *explore.ITFTrace
	sys    model.System
	states []model.State
	steps  []model.Transition
}

// eachStored runs f on every stored trace (liveness lassos included).
func eachStored(t *testing.T, f func(t *testing.T, s stored)) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".itf.json") {
			return err
		}
		n++
		t.Run(path, func(t *testing.T) {
			file, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer file.Close()
			tr, err := explore.ReadITF(file)
			if err != nil {
				t.Fatal(err)
			}
			spec := specs.Lookup(tr.Meta.Spec)
			sys, _, err := spec.Compile(tr.Meta.Params)
			if err != nil {
				t.Fatal(err)
			}
			states, steps, err := explore.ExecuteITF(sys, tr)
			if err != nil {
				t.Fatal(err)
			}
			f(t, stored{path, tr, sys, states, steps})
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no stored counterexamples found")
	}
}

// TestMinimizeKeepsStoredLength: the stored traces are BFS-shortest, so
// minimising one must neither lengthen it nor (being shortest) shorten it,
// and what it returns must still end in the same violation.
func TestMinimizeKeepsStoredLength(t *testing.T) {
	eachStored(t, func(t *testing.T, s stored) {
		if s.trace.Meta.Kind == model.Eventually {
			t.Skip("lassos are not minimised")
		}
		m, err := explore.Minimize(s.sys, 0, s.steps, s.trace.Meta.Property, s.trace.Meta.Kind, explore.MinimizeOptions{States: -1})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Violation.Trace.Len(), len(s.steps); got > want {
			t.Errorf("minimised a shortest trace of %d steps to %d", want, got)
		}
		if m.Original != len(s.steps) || m.Greedy > m.Original {
			t.Errorf("lengths: original %d, greedy %d, given %d", m.Original, m.Greedy, len(s.steps))
		}
		tr := explore.NewITF(s.trace.Meta.Spec, s.trace.Meta.Params, m.Violation)
		if r := explore.Replay(s.sys, tr); !r.Reproduced {
			t.Errorf("the minimised trace does not reproduce: %s", r.Reason)
		}
	})
}

// TestPorcupineAgreesOnStored: on every stored trace of a spec that says
// which nodes are in the CS, porcupine finds the trace's CS history not
// linearizable against a mutex exactly when some state of the trace
// violates mutual-exclusion.
func TestPorcupineAgreesOnStored(t *testing.T) {
	checked := map[bool]int{}
	eachStored(t, func(t *testing.T, s stored) {
		cs, ok := s.sys.(model.CriticalSection)
		if !ok || !cs.DeclaresCS() {
			t.Skip("no critical section declared")
		}
		violated := false
		for _, iv := range s.sys.Invariants() {
			if iv.Name != "mutual-exclusion" {
				continue
			}
			for _, st := range s.states {
				violated = violated || !iv.Holds(st)
			}
		}
		res, err := history.CheckTrace(s.sys, s.states, s.steps, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == history.Unknown {
			t.Fatal("porcupine timed out")
		}
		if (res.Verdict == history.NotLinearizable) != violated {
			t.Errorf("mutual-exclusion violated: %v, porcupine: %v", violated, res.Verdict)
		}
		checked[violated]++
	})
	if checked[true] == 0 || checked[false] == 0 {
		t.Errorf("want stored traces both violating mutual exclusion and not, got %v", checked)
	}
}
