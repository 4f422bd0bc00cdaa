package explore

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
	"github.com/mxcheck/mxcheck/specs/testfile"
)

// liveRun checks sys for liveness with the BFS and returns the result and
// the graph the liveness pass analysed; record says whether the BFS must
// have recorded it (otherwise buildGraph built it).
func liveRun(t *testing.T, sys model.System, opt Options, record bool) (*Result, *liveGraph) {
	t.Helper()
	var got *liveGraph
	testNoLiveRecord = !record
	testLiveGraph = func(g *liveGraph, recorded bool) {
		if recorded != record {
			t.Fatalf("graph recorded by the BFS: %v, want %v", recorded, record)
		}
		got = g
	}
	defer func() { testNoLiveRecord, testLiveGraph = false, nil }()
	c, err := New(sys, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run()
	if got == nil {
		t.Fatalf("the liveness pass did not run (verdict %s, limit %q)", r.Verdict, r.Limit)
	}
	return r, got
}

// sameGraph fails unless a and b are equal array by array.
func sameGraph(t *testing.T, what string, a, b *liveGraph) {
	t.Helper()
	for _, f := range []struct {
		name string
		x, y any
	}{
		{"off", a.off, b.off}, {"dst", a.dst, b.dst}, {"cls", a.cls, b.cls}, {"start", a.start, b.start},
		{"hungry", a.hungry, b.hungry}, {"parent", a.parent, b.parent}, {"fp", a.fp, b.fp},
		{"roots", a.roots, b.roots}, {"nclass", a.nclass, b.nclass},
	} {
		if !reflect.DeepEqual(f.x, f.y) {
			t.Errorf("%s: %s differs from buildGraph's", what, f.name)
		}
	}
}

// sameLiveness fails unless two results agree on the liveness property,
// its figures and its lasso.
func sameLiveness(t *testing.T, what string, a, b *Result) {
	t.Helper()
	la, lb := *a.Liveness, *b.Liveness
	la.Build, la.Analysis, la.GraphBytes = 0, 0, 0
	lb.Build, lb.Analysis, lb.GraphBytes = 0, 0, 0
	if la != lb {
		t.Errorf("%s: liveness figures %+v, want %+v", what, la, lb)
	}
	if !reflect.DeepEqual(a.Properties, b.Properties) {
		t.Errorf("%s: properties %v, want %v", what, a.Properties, b.Properties)
	}
	if !reflect.DeepEqual(a.Violations, b.Violations) {
		t.Errorf("%s: violations (lassos) differ", what)
	}
}

var graphSize = regexp.MustCompile(`graph=(\d+)`)

// TestRecordedLiveGraph checks, on every liveness scenario of every spec
// (both choice modes), that the graph the BFS records (1 and 3 workers)
// equals buildGraph's array by array, and that verdicts, figures and
// lassos are unchanged. It keeps the graphs of at most 200,000 states
// (50,000 with -short) unless MXCHECK_HEAVY is set.
func TestRecordedLiveGraph(t *testing.T) {
	files, err := filepath.Glob("../specs/*/testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no spec test files: %v", err)
	}
	ran := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !testfile.IsTestFile(data) {
			continue
		}
		blocks, err := testfile.ParseFile(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, b := range blocks {
			if b.Cmd != "liveness" || b.Gate != "" {
				continue
			}
			size := 0
			for _, w := range b.Want {
				if m := graphSize.FindStringSubmatch(w); m != nil {
					size, _ = strconv.Atoi(m[1])
				}
			}
			if testing.Short() && size > 50000 || size > 200000 && os.Getenv("MXCHECK_HEAVY") == "" {
				continue
			}
			spec := specs.Lookup(b.Spec)
			sys, _, err := spec.Compile(b.Params)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, b.Line, err)
			}
			for _, mode := range []Choices{Probabilistic, Adversarial} {
				what := b.Command() + " " + mode.String()
				opt := Options{Liveness: true, Choices: mode, Continue: true}
				ref, gb := liveRun(t, sys, opt, false)
				for _, workers := range []int{1, 3} {
					opt.Workers = workers
					r, g := liveRun(t, sys, opt, true)
					w := what + " workers=" + strconv.Itoa(workers)
					sameGraph(t, w, g, gb)
					sameLiveness(t, w, r, ref)
				}
				ran++
			}
		}
	}
	if ran < 20 {
		t.Fatalf("only %d liveness scenarios ran", ran)
	}
	t.Logf("%d liveness scenarios", ran)
}

// TestLiveRecordFallback checks that the cases the BFS cannot serve build
// the graph with buildGraph, and that the recorded graph of a toy with
// draws and a re-sorted draw equals buildGraph's.
func TestLiveRecordFallback(t *testing.T) {
	sys := &ltoy{init: []int{0, 0, 5}, out: map[int][]ledge{
		0: {{1, "a", 1}, {2, "b", 0}, {3, "a", 1}, {0, "c", 2}, {4, "", 2}},
		1: {{0, "b", 0}, {1, "d", 0}},
		2: {{3, "a", 0}},
		3: {{2, "d", 3}, {0, "d", 3}, {5, "e", 0}},
		4: {{4, "", 0}},
		5: {{0, "", 0}, {1, "c", 4}, {5, "a", 4}},
	}, hungry: hungry0(0, 1, 2, 3)}
	for _, mode := range []Choices{Probabilistic, Adversarial} {
		opt := Options{Liveness: true, Choices: mode, Continue: true}
		ref, gb := liveRun(t, sys, opt, false)
		for _, workers := range []int{1, 3} {
			opt.Workers = workers
			r, g := liveRun(t, sys, opt, true)
			sameGraph(t, mode.String(), g, gb)
			sameLiveness(t, mode.String(), r, ref)
		}
		if len(gb.dst) == 0 {
			t.Fatal("the toy has no edges")
		}
		opt.Workers, opt.Fingerprint = 3, 128
		r, g := liveRun(t, sys, opt, true)
		sameGraph(t, mode.String()+" 128-bit", g, gb)
		sameLiveness(t, mode.String()+" 128-bit", r, ref)
		opt.Fingerprint, opt.LevelInMemory = 0, 1 // levels on disk
		r, g = liveRun(t, sys, opt, true)
		sameGraph(t, mode.String()+" levels on disk", g, gb)
		sameLiveness(t, mode.String()+" levels on disk", r, ref)
		opt.Workers, opt.LevelInMemory = 1, 0
		opt.Strategy = DFS
		liveRun(t, sys, opt, false)
		opt.Strategy = BFS
		opt.MaxDepth = 100
		liveRun(t, sys, opt, false)
	}
}
