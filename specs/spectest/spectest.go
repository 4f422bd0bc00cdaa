// Package spectest is the shared test harness of the specs: golden files
// that pin state counts and verdicts, cross-checked across search
// strategies, mutants that must be caught, and stored counterexamples.
//
// Set UPDATE_GOLDEN=1 (make golden) to rewrite golden files and stored
// counterexamples; read the diff before committing it.
package spectest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
)

// Update reports whether golden files should be rewritten.
func Update() bool { return os.Getenv("UPDATE_GOLDEN") != "" }

// Case is one configuration of a spec.
type Case struct {
	// Name identifies the row in the golden file.
	Name string
	// Params are the non-default parameters.
	Params model.Values
	// Symmetry searches the quotient by the spec's declared symmetry (only
	// GoldenBFS honours it): distinct states are then orbits, and the row's
	// name ends in "@symmetry". Golden runs every reduction on every row
	// anyway.
	Symmetry bool
	// Strategy is the search order GoldenBFS uses (BFS unless the case
	// asks for DFS, whose stack needs far less memory than a BFS level:
	// the row's name then ends in "@dfs", its depth is the DFS stack's
	// and its trace lengths are those of the DFS traces; distinct states,
	// transitions and verdicts are the BFS ones, as Golden checks on
	// every smaller row).
	Strategy explore.Strategy
}

// Build compiles case c of spec, failing the test on error.
func Build(t testing.TB, spec *model.Spec, params model.Values) (model.System, model.Values) {
	t.Helper()
	sys, a, err := spec.Compile(params)
	if err != nil {
		t.Fatalf("build %s %v: %v", spec.Name, params, err)
	}
	return sys, a.Values()
}

// Run checks one configuration with the given options, failing on error.
func Run(t testing.TB, sys model.System, opt explore.Options) *explore.Result {
	t.Helper()
	c, err := explore.New(sys, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c.Run()
}

// Row renders the pinned figures of a result: verdict, distinct states,
// transitions, BFS depth, and each property's status (with the shortest
// counterexample length when violated).
func Row(name string, spec *model.Spec, v model.Values, r *explore.Result) string {
	lens := map[string]int{}
	for _, x := range append(r.Violations[:len(r.Violations):len(r.Violations)], r.Witnesses...) {
		lens[x.Property] = x.Trace.Len()
	}
	var props []string
	for _, p := range r.Properties {
		s := p.Name + "=" + string(p.Status)
		if n, ok := lens[p.Name]; ok {
			s += fmt.Sprintf("(%d)", n)
		}
		props = append(props, s)
	}
	return fmt.Sprintf("%s\t%s\t%s\tdistinct=%d\ttransitions=%d\tdepth=%d\t%s",
		name, strings.Join(v.Flags(spec), " "), r.Verdict, r.Stats.Distinct, r.Stats.Transitions, r.Stats.Depth, strings.Join(props, " "))
}

// Golden checks every case with BFS, parallel BFS and DFS (continuing past
// violations, so every property gets a verdict) and asserts: parallel BFS
// gives exactly the BFS row; BFS and DFS agree on the
// verdict, every property's status, and (when the space was exhausted) on
// distinct states and transitions; no BFS trace is longer than the DFS trace
// of the same property; every trace replays to the same violation. The BFS
// rows must equal the golden file at path.
func Golden(t *testing.T, spec *model.Spec, path string, cases []Case) {
	t.Helper()
	var rows []string
	for _, c := range cases {
		sys, v := Build(t, spec, c.Params)
		bfs := Run(t, sys, explore.Options{Continue: true})
		dfs := Run(t, sys, explore.Options{Continue: true, Strategy: explore.DFS})
		CrossCheck(t, c.Name, bfs, dfs)
		pdfs := Parallel(t, c.Name, sys, bfs)
		DiskLevels(t, c.Name, sys, bfs)
		reduced := Reductions(t, c.Name, sys, bfs)
		for _, r := range append([]*explore.Result{bfs, dfs, pdfs}, reduced...) {
			for _, x := range append(r.Violations, r.Witnesses...) {
				MustReplay(t, sys, spec.Name, v, x)
			}
		}
		rows = append(rows, Row(c.Name, spec, v, bfs))
	}
	got := strings.Join(rows, "\n") + "\n"
	Compare(t, path, []byte(got))
}

// DiskLevels runs the BFS again with every level but its first state on
// disk and asserts it gives the in-memory result bfs exactly: the same row
// and the same traces, step by step. Every spec's states are encodable, so
// something must have gone to disk.
func DiskLevels(t testing.TB, name string, sys model.System, bfs *explore.Result) {
	t.Helper()
	if cd, ok := sys.(model.Codec); !ok || !cd.Encodable() {
		t.Errorf("%s: states cannot be written to disk", name)
		return
	}
	disk := Run(t, sys, explore.Options{Continue: true, LevelInMemory: 1})
	if disk.Verdict != bfs.Verdict || disk.Stats.Distinct != bfs.Stats.Distinct || disk.Stats.Transitions != bfs.Stats.Transitions ||
		disk.Stats.Depth != bfs.Stats.Depth || fmt.Sprint(disk.Properties) != fmt.Sprint(bfs.Properties) || len(disk.Violations) != len(bfs.Violations) {
		t.Errorf("%s: BFS with levels on disk differs: %v %+v %v, in memory %v %+v %v", name,
			disk.Verdict, disk.Stats, disk.Properties, bfs.Verdict, bfs.Stats, bfs.Properties)
		return
	}
	for i, x := range disk.Violations {
		if fmt.Sprint(x.Trace.Steps) != fmt.Sprint(bfs.Violations[i].Trace.Steps) {
			t.Errorf("%s: BFS with levels on disk finds another trace for %s", name, x.Property)
		}
	}
	if bfs.Stats.Depth > 1 && disk.Stats.QueueDisk == 0 {
		t.Errorf("%s: no level went to disk", name)
	}
}

// Reductions runs every reduction the system supports (partial-order,
// symmetry, both) with BFS and asserts each agrees with the full BFS result
// full: same status for every property and same shortest counterexample
// length, never more states. When the space is small it also verifies the
// spec's declared independence, and the declared symmetry and raw keys
// (Protocol.RawKey) on the first 5,000 states. It returns the reduced
// results.
func Reductions(t testing.TB, name string, sys model.System, full *explore.Result) []*explore.Result {
	t.Helper()
	var opts []explore.Options
	if _, ok := sys.(model.Independence); ok {
		opts = append(opts, explore.Options{Continue: true, POR: true})
	}
	if sp, ok := sys.(model.SymmetryProvider); ok && sp.Symmetric() != nil {
		opts = append(opts, explore.Options{Continue: true, Symmetry: true})
		if len(opts) == 2 {
			opts = append(opts, explore.Options{Continue: true, Symmetry: true, POR: true})
		}
	}
	var out []*explore.Result
	for _, o := range opts {
		r := Run(t, sys, o)
		what := fmt.Sprintf("%s (por=%v symmetry=%v)", name, o.POR, o.Symmetry)
		if fmt.Sprint(r.Properties) != fmt.Sprint(full.Properties) {
			t.Errorf("%s: verdicts %v, full search %v", what, r.Properties, full.Properties)
		}
		lens := map[string]int{}
		for _, v := range full.Violations {
			lens[v.Property] = v.Trace.Len()
		}
		for _, v := range r.Violations {
			if v.Trace.Len() != lens[v.Property] {
				t.Errorf("%s: shortest trace for %s has %d steps, full search %d", what, v.Property, v.Trace.Len(), lens[v.Property])
			}
		}
		if r.Stats.Distinct > full.Stats.Distinct && full.Exhausted {
			t.Errorf("%s: %d states, more than the full search's %d", what, r.Stats.Distinct, full.Stats.Distinct)
		}
		t.Logf("%s: %d -> %d states (%.2fx)", what, full.Stats.Distinct, r.Stats.Distinct, float64(full.Stats.Distinct)/float64(max(r.Stats.Distinct, 1)))
		out = append(out, r)
	}
	if full.Exhausted && full.Stats.Distinct <= 200_000 {
		if err := reduce.CheckIndependence(sys, 0); err != nil {
			t.Errorf("%s: declared independence does not hold: %v", name, err)
		}
	}
	if sp, ok := sys.(model.SymmetryProvider); ok && sp.Symmetric() != nil {
		// Every renaming is tried on every state: a bounded sample.
		if err := reduce.CheckSymmetry(sys, 5000); err != nil {
			t.Errorf("%s: declared symmetry does not hold: %v", name, err)
		}
	}
	if rk, ok := sys.(model.RawKeyed); ok && rk.RawKey() {
		if err := reduce.CheckRawKey(sys, 5000); err != nil {
			t.Errorf("%s: states keyed by their bytes: %v", name, err)
		}
	}
	return out
}

// CrossCheck asserts that two searches of the same system agree.
func CrossCheck(t testing.TB, name string, a, b *explore.Result) {
	t.Helper()
	if a.Verdict != b.Verdict {
		t.Errorf("%s: %s says %s, %s says %s", name, a.Strategy, a.Verdict, b.Strategy, b.Verdict)
	}
	if fmt.Sprint(a.Properties) != fmt.Sprint(b.Properties) {
		t.Errorf("%s: property statuses differ: %s %v, %s %v", name, a.Strategy, a.Properties, b.Strategy, b.Properties)
	}
	if a.Exhausted && b.Exhausted && (a.Stats.Distinct != b.Stats.Distinct || a.Stats.Transitions != b.Stats.Transitions) {
		t.Errorf("%s: %s found %d states / %d transitions, %s %d / %d", name,
			a.Strategy, a.Stats.Distinct, a.Stats.Transitions, b.Strategy, b.Stats.Distinct, b.Stats.Transitions)
	}
	lens := map[string]int{}
	for _, x := range append(b.Violations[:len(b.Violations):len(b.Violations)], b.Witnesses...) {
		lens[x.Property] = x.Trace.Len()
	}
	if a.Strategy == "bfs" {
		for _, x := range append(a.Violations[:len(a.Violations):len(a.Violations)], a.Witnesses...) {
			if n, ok := lens[x.Property]; ok && x.Trace.Len() > n {
				t.Errorf("%s: BFS trace for %s has %d steps, longer than DFS's %d", name, x.Property, x.Trace.Len(), n)
			}
		}
	}
}

// MustReplay asserts that violation x replays in sys to the same violation
// (a witness of a sometimes property: to a state that satisfies it).
func MustReplay(t testing.TB, sys model.System, spec string, v model.Values, x explore.Violation) {
	t.Helper()
	var buf bytes.Buffer
	if err := explore.NewITF(spec, v, x).Write(&buf); err != nil {
		t.Fatal(err)
	}
	tr, err := explore.ReadITF(&buf)
	if err != nil {
		t.Fatalf("own ITF trace does not parse: %v", err)
	}
	if res := explore.Replay(sys, tr); !res.Reproduced {
		t.Errorf("%s %v: trace for %s does not replay: %s", spec, v.Flags(nil), x.Property, res.Reason)
	}
}

// Compare asserts that got equals the file at path, or rewrites the file
// under UPDATE_GOLDEN.
func Compare(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run make golden to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the search (run make golden and read the diff):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lockFile creates path exclusively, waiting up to a minute for another
// process to remove it, and returns the function that removes it.
func lockFile(path string) (func(), error) {
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !os.IsExist(err) || time.Since(start) > time.Minute {
			return nil, fmt.Errorf("locking %s: %v (remove it if no test is running)", path, err)
		}
	}
}

func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "- %s\n+ %s\n", a, c)
		}
	}
	return b.String()
}

// Expect is a configuration that must violate a given property: a mutant, or
// a known counterexample of the faithful protocol.
type Expect struct {
	// Name names the stored counterexample file (Name.itf.json).
	Name string
	// Params are the non-default parameters.
	Params model.Values
	// Property is the property that must catch it.
	Property string
	// Steps, when non-zero, is the exact length of the shortest
	// counterexample.
	Steps int
}

// Violations asserts that each configuration violates its property under
// BFS, that the first violation found is that property, and that the
// shortest trace has the expected length; it stores each trace under dir
// (UPDATE_GOLDEN) or checks that the stored file is unchanged.
func Violations(t *testing.T, spec *model.Spec, dir string, cases []Expect) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			sys, v := Build(t, spec, c.Params)
			r := Run(t, sys, explore.Options{})
			if r.Verdict != explore.Violated {
				t.Fatalf("%s %v: verdict %s, want violated (%s)", spec.Name, c.Params, r.Verdict, c.Property)
			}
			x := r.Violations[0]
			if x.Property != c.Property {
				t.Fatalf("%s %v: caught by %s, want %s", spec.Name, c.Params, x.Property, c.Property)
			}
			if c.Steps != 0 && x.Trace.Len() != c.Steps {
				t.Errorf("%s %v: shortest trace has %d steps, want %d", spec.Name, c.Params, x.Trace.Len(), c.Steps)
			}
			MustReplay(t, sys, spec.Name, v, x)
			var buf bytes.Buffer
			if err := explore.NewITF(spec.Name, v, x).Write(&buf); err != nil {
				t.Fatal(err)
			}
			Compare(t, filepath.Join(dir, c.Name+".itf.json"), buf.Bytes())
		})
	}
}

// Liveness checks every case with --liveness under both choice modes
// (probabilistic: must hold with probability 1; adversarial: the scheduler
// also picks random outcomes) and pins one row per case and mode: the
// liveness property's status, and for a lasso its stem and loop lengths and
// the starving node. Every lasso must replay. Safety violations do not stop
// the search (Continue), so the liveness pass always runs.
func Liveness(t *testing.T, spec *model.Spec, path string, cases []Case) {
	t.Helper()
	var rows []string
	for _, c := range cases {
		sys, v := Build(t, spec, c.Params)
		for _, mode := range []explore.Choices{explore.Probabilistic, explore.Adversarial} {
			r := Run(t, sys, explore.Options{Liveness: true, Choices: mode, Continue: true})
			if r.Liveness == nil {
				t.Fatalf("%s: the liveness pass did not run (verdict %s, limit %q)", c.Name, r.Verdict, r.Limit)
			}
			name := ""
			status := explore.Unknown
			if n, ok := sys.(interface{ LivenessProperty() string }); ok {
				name = n.LivenessProperty()
			}
			for _, p := range r.Properties {
				if p.Name == name {
					status = p.Status
				}
			}
			row := fmt.Sprintf("%s\t%s\t%s\t%s=%s\tgraph=%d", c.Name, strings.Join(v.Flags(spec), " "), mode, name, status, r.Liveness.States)
			for _, x := range r.Violations {
				if x.Kind == model.Eventually {
					row += fmt.Sprintf("\tstarves=%s stem=%d loop=%d", x.Lasso.Node, x.Lasso.Loop, x.Trace.Len()-x.Lasso.Loop)
					MustReplay(t, sys, spec.Name, v, x)
				}
			}
			rows = append(rows, row)
		}
	}
	Compare(t, path, []byte(strings.Join(rows, "\n")+"\n"))
}

// GoldenBFS pins rows like Golden, but runs only the BFS (continuing past
// violations; with the spec's symmetry, or depth-first, when the case asks
// for it) and checks
// that its traces replay: for configurations of millions of states, kept
// behind MXCHECK_HEAVY, where repeating every search and reduction would
// take hours. Their cross-checks are the ones Golden runs on the smaller
// rows of the same spec. Cases run as parallel subtests (go test -parallel
// bounds how many at once; one core each).
func GoldenBFS(t *testing.T, spec *model.Spec, path string, cases []Case) {
	t.Helper()
	// Two multi-GB searches share this process: a soft limit at 3/4 of the
	// machine's memory makes the collector work harder rather than let
	// them outgrow it.
	// GOMEMLIMIT in the environment wins (two test processes side by side
	// each need their own share).
	if total := explore.PhysicalMemory(); total > 0 && os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(total / 4 * 3))
	}
	rows := make([]string, len(cases))
	t.Run("rows", func(t *testing.T) {
		for i, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				sys, v := Build(t, spec, c.Params)
				name := c.Name
				if c.Symmetry {
					name += "@symmetry"
				}
				if c.Strategy == explore.DFS {
					name += "@dfs"
				}
				r := Run(t, sys, explore.Options{Continue: true, Symmetry: c.Symmetry, Strategy: c.Strategy})
				for _, x := range r.Violations {
					MustReplay(t, sys, spec.Name, v, x)
				}
				rows[i] = Row(name, spec, v, r)
				t.Logf("%s (%.0fs)", rows[i], r.Stats.Elapsed.Seconds())
			})
		}
	})
	if t.Failed() {
		return
	}
	if slices.Contains(rows, "") {
		// go test -run selected some rows: compare those alone.
		CompareRows(t, path, rows)
		return
	}
	Compare(t, path, []byte(strings.Join(rows, "\n")+"\n"))
}

// CompareRows asserts that each non-empty row equals the line of the golden
// file at path that has the same name (its first field), or writes it there
// under UPDATE_GOLDEN. It lets go test -run check some rows of a file whose
// rows take hours each, in separate processes.
func CompareRows(t testing.TB, path string, rows []string) {
	t.Helper()
	if Update() {
		// Processes updating rows of one file side by side take turns.
		unlock, err := lockFile(path + ".lock")
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	b, err := os.ReadFile(path)
	if err != nil && !(Update() && os.IsNotExist(err)) {
		t.Fatalf("%v (run make golden to create it)", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) == 0 {
		lines = nil
	}
	name := func(row string) string { n, _, _ := strings.Cut(row, "\t"); return n }
	for _, row := range rows {
		if row == "" {
			continue
		}
		i := slices.IndexFunc(lines, func(l string) bool { return name(l) == name(row) })
		switch {
		case Update() && i < 0:
			lines = append(lines, row)
		case Update():
			lines[i] = row
		case i < 0:
			t.Errorf("%s has no row %s (run make golden to add it):\n+ %s", path, name(row), row)
		case lines[i] != row:
			t.Errorf("%s differs from the search (run make golden and read the diff):\n- %s\n+ %s", path, lines[i], row)
		}
	}
	if Update() {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchReductions benchmarks one configuration with no reduction, with
// partial-order reduction, with symmetry and with both (those the system
// supports), reporting distinct states, states/s and seen-set bytes per
// state. Run with -benchtime 1x: one iteration is a whole search.
func BenchReductions(b *testing.B, spec *model.Spec, params model.Values) {
	sys, _ := Build(b, spec, params)
	modes := []struct {
		name string
		opt  explore.Options
	}{{"none", explore.Options{Continue: true}}, {"por", explore.Options{Continue: true, POR: true}}}
	if sp, ok := sys.(model.SymmetryProvider); ok && sp.Symmetric() != nil {
		modes = append(modes,
			struct {
				name string
				opt  explore.Options
			}{"symmetry", explore.Options{Continue: true, Symmetry: true}},
			struct {
				name string
				opt  explore.Options
			}{"both", explore.Options{Continue: true, Symmetry: true, POR: true}})
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			var r *explore.Result
			for i := 0; i < b.N; i++ {
				r = Run(b, sys, m.opt)
			}
			b.ReportMetric(float64(r.Stats.Distinct), "states")
			b.ReportMetric(r.Stats.Rate, "states/s")
			b.ReportMetric(r.Stats.BytesPerState, "B/state")
		})
	}
}
