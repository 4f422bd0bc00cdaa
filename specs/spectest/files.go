package spectest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/testfile"
)

// Files runs every test file under dir (*.txt with a ---- separator) for
// spec, one subtest per file and block, and asserts each block's output;
// UPDATE_GOLDEN=1 rewrites the outputs in place instead (read the diff).
func Files(t *testing.T, spec *model.Spec, dir string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	ran := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !testfile.IsTestFile(data) {
			continue
		}
		ran++
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			blocks, err := testfile.ParseFile(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			got := make([][]string, len(blocks))
			// Gated (heavy) blocks run in parallel (go test -parallel bounds
			// how many at once); the group returns when all are done.
			t.Run("blocks", func(t *testing.T) {
				for i := range blocks {
					b := &blocks[i]
					t.Run(fmt.Sprintf("line%d", b.Line), func(t *testing.T) {
						if b.Gate != "" && os.Getenv(b.Gate) != "" {
							t.Parallel()
						}
						if b.Spec != spec.Name {
							t.Fatalf("%s:%d: spec %q in the files of %s", path, b.Line, b.Spec, spec.Name)
						}
						got[i] = RunBlock(t, spec, b)
						if !Update() && strings.Join(got[i], "\n") != strings.Join(b.Want, "\n") {
							t.Errorf("%s:%d: %s\n%s", path, b.Line, b.Command(), lineDiff(strings.Join(b.Want, "\n"), strings.Join(got[i], "\n")))
						}
					})
				}
			})
			if Update() && !t.Failed() {
				for i := range blocks {
					if got[i] != nil {
						blocks[i].Want = got[i]
					}
				}
				if err := os.WriteFile(path, testfile.FormatFile(blocks), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if ran == 0 {
		t.Fatalf("no test files under %s", dir)
	}
}

// RunBlock runs one block with every cross-check and returns its output.
func RunBlock(t *testing.T, spec *model.Spec, b *testfile.Block) []string {
	t.Helper()
	if b.Gate != "" {
		return gatedBlock(t, spec, b)
	}
	sys, v := Build(t, spec, b.Params)
	switch b.Cmd {
	case "liveness":
		return livenessLines(t, sys, spec, v)
	case "trace":
		r := Run(t, sys, explore.Options{})
		if r.Verdict != explore.Violated {
			t.Fatalf("%s: %s, want a violation", b.Command(), r.Verdict)
		}
		MustReplay(t, sys, spec.Name, v, r.Violations[0])
		return []string{storeFirst(t, spec, v, b.Store, r.Violations[0])}
	}
	bfs := Run(t, sys, explore.Options{Continue: true})
	dfs := Run(t, sys, explore.Options{Continue: true, Strategy: explore.DFS})
	CrossCheck(t, b.Command(), bfs, dfs)
	pdfs := Parallel(t, b.Command(), sys, bfs)
	DiskLevels(t, b.Command(), sys, bfs)
	reduced := Reductions(t, b.Command(), sys, bfs)
	for _, r := range append([]*explore.Result{bfs, dfs, pdfs}, reduced...) {
		for _, x := range append(r.Violations, r.Witnesses...) {
			MustReplay(t, sys, spec.Name, v, x)
		}
	}
	out := ResultLines(bfs)
	if b.Store != "" {
		if len(bfs.Violations) == 0 {
			t.Errorf("%s: store=%s but nothing is violated", b.Command(), b.Store)
			return out
		}
		// The first violation a BFS meets is the one `mxcheck check` stops
		// at and writes with --trace-out.
		out = append(out, storeFirst(t, spec, v, b.Store, bfs.Violations[0]))
	}
	return out
}

// storeFirst compares (or writes) the trace of x as
// counterexamples/SPEC/NAME.itf.json and returns the line that pins it.
func storeFirst(t testing.TB, spec *model.Spec, v model.Values, name string, x explore.Violation) string {
	t.Helper()
	var buf bytes.Buffer
	if err := explore.NewITF(spec.Name, v, x).Write(&buf); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join("counterexamples", spec.Name, name+".itf.json")
	Compare(t, filepath.Join(RepoRoot(t), rel), buf.Bytes())
	return fmt.Sprintf("first %s %d steps: %s", x.Property, x.Trace.Len(), filepath.ToSlash(rel))
}

// ResultLines renders what a check block pins of a result: the verdict and
// figures, then every property's status, the violated ones with the length
// of their shortest counterexample, then each sometimes property as
// "sometimes NAME reached K steps" (the shortest witness), "sometimes NAME
// unreached" or "sometimes NAME unknown".
func ResultLines(r *explore.Result) []string {
	out := []string{fmt.Sprintf("%s distinct=%d transitions=%d depth=%d", r.Verdict, r.Stats.Distinct, r.Stats.Transitions, r.Stats.Depth)}
	lens := map[string]int{}
	for _, x := range r.Violations {
		if _, ok := lens[x.Property]; !ok {
			lens[x.Property] = x.Trace.Len()
		}
	}
	for _, w := range r.Witnesses {
		lens[w.Property] = w.Trace.Len()
	}
	for _, p := range r.Properties {
		line := p.Name + " " + string(p.Status)
		if p.Kind == model.Sometimes {
			line = "sometimes " + p.Name + " " + string(p.Status)
			if p.Status == explore.Holds {
				line = "sometimes " + p.Name + " reached"
			}
		}
		if n, ok := lens[p.Name]; ok {
			line += fmt.Sprintf(" %d steps", n)
		}
		out = append(out, line)
	}
	return out
}

// livenessLines checks the liveness property in both choice modes.
func livenessLines(t *testing.T, sys model.System, spec *model.Spec, v model.Values) []string {
	var out []string
	for _, mode := range []explore.Choices{explore.Probabilistic, explore.Adversarial} {
		out = append(out, mode.String()+" "+livenessRow(t, sys, spec, v, mode))
	}
	return out
}

// livenessRow is one choice mode's liveness status, graph size and lasso.
func livenessRow(t testing.TB, sys model.System, spec *model.Spec, v model.Values, mode explore.Choices) string {
	t.Helper()
	r := Run(t, sys, explore.Options{Liveness: true, Choices: mode, Continue: true})
	if r.Liveness == nil {
		t.Fatalf("the liveness pass did not run (verdict %s, limit %q)", r.Verdict, r.Limit)
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
	row := fmt.Sprintf("%s %s graph=%d", name, status, r.Liveness.States)
	for _, x := range r.Violations {
		if x.Kind == model.Eventually {
			row += fmt.Sprintf(" starves=%s stem=%d loop=%d", x.Lasso.Node, x.Lasso.Loop, x.Trace.Len()-x.Lasso.Loop)
			MustReplay(t, sys, spec.Name, v, x)
		}
	}
	return row
}

// RepoRoot is the directory holding go.mod, found upward from the working
// directory.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// gatedBlock runs a heavy block: skipped unless its gate variable is set;
// one search with the block's options, every trace replayed.
func gatedBlock(t *testing.T, spec *model.Spec, b *testfile.Block) []string {
	t.Helper()
	if os.Getenv(b.Gate) == "" {
		if Update() {
			return b.Want // keep the pinned result of a block not run
		}
		t.Skipf("set %s=1 to run", b.Gate)
	}
	// Several multi-GB searches may share this process: a soft limit at
	// 3/4 of the machine's memory, unless GOMEMLIMIT says otherwise.
	if total := explore.PhysicalMemory(); total > 0 && os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(total / 4 * 3))
	}
	sys, v := Build(t, spec, b.Params)
	opt := explore.Options{Continue: true, Symmetry: b.Symmetry}
	if b.Strategy == "dfs" {
		opt.Strategy = explore.DFS
	}
	r := Run(t, sys, opt)
	for _, x := range r.Violations {
		MustReplay(t, sys, spec.Name, v, x)
	}
	t.Logf("%s: %.0fs", b.Command(), r.Stats.Elapsed.Seconds())
	return ResultLines(r)
}
