package explore

import (
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18 item 8: a memory limit of 2^44 MiB or more used to wrap to 0
// bytes and stop every search at once.
func TestHeapExceeds(t *testing.T) {
	for _, tc := range []struct {
		heap uint64
		mb   int
		want bool
	}{
		{0, 0, false},
		{1 << 40, 0, false},
		{1<<20 + 1, 1, true},
		{1 << 20, 1, false},
		{1 << 62, 1 << 43, false},
		{1 << 40, 1 << 44, false},
		{1 << 63, 1 << 62, false},
		{^uint64(0), 1<<63 - 1, false},
	} {
		if got := heapExceeds(tc.heap, tc.mb); got != tc.want {
			t.Errorf("heapExceeds(%d, %d) = %v, want %v", tc.heap, tc.mb, got, tc.want)
		}
	}
	g := &toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2})}
	for _, mb := range []int{1 << 44, 1 << 50, 1<<63 - 1} {
		for _, opt := range []Options{{MemoryMB: mb}, {MemoryMB: mb, Workers: 2}, {MemoryMB: mb, Strategy: DFS}} {
			if r := run(g, opt); r.Verdict != Verified {
				t.Errorf("%+v: verdict %v (limit %q), want verified", opt, r.Verdict, r.Limit)
			}
		}
	}
}

// Issue 18 item 5: every phase honours the interrupt. A search too small
// to look at the interrupt channel used to run the liveness pass to the end
// and report VERIFIED after Ctrl-C.
func TestLivenessPhaseHonoursLimits(t *testing.T) {
	sys := &ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{0: {{to: 1, class: "a"}}, 1: {{to: 2, class: "b"}}, 2: {}}}
	if r := run(sys, Options{Liveness: true}); r.Verdict != Verified {
		t.Fatalf("without a limit: %v", r.Verdict)
	}
	for _, opt := range []Options{
		{Liveness: true, Interrupt: closed()},
		{Liveness: true, Interrupt: closed(), Workers: 2},
		{Liveness: true, Interrupt: closed(), Strategy: DFS},
	} {
		r := run(sys, opt)
		if r.Verdict != Incomplete || r.Limit != "interrupt" {
			t.Errorf("%+v: verdict %v limit %q, want incomplete by interrupt", opt, r.Verdict, r.Limit)
		}
		if p := r.Properties[len(r.Properties)-1]; p.Status != Unknown {
			t.Errorf("%+v: liveness %s after an interrupt", opt, p.Status)
		}
	}
}

// The analysis of the liveness graph (SCC decompositions, one node at a
// time) stops at a limit too, and says which.
func TestLivenessAnalysisHonoursLimits(t *testing.T) {
	sys := &ltoy{init: []int{0}, hungry: hungry0(0, 1), out: map[int][]ledge{0: {{to: 1, class: "a"}}, 1: {{to: 0, class: "a"}}}}
	l := &edgeLister{sys: sys, fair: sys, classes: map[string]uint32{}}
	g, limit := buildGraph(l, &graphLimits{}, nil)
	if limit != "" {
		t.Fatal(limit)
	}
	a := newAnalysis(g, true)
	if _, _, found := a.search(); !found || a.limit != "" {
		t.Fatalf("no lasso without limits: found %v limit %q", found, a.limit)
	}
	a = newAnalysis(g, true)
	a.lim = &limits{interrupt: closed()}
	if _, _, found := a.search(); found || a.limit != "interrupt" {
		t.Errorf("interrupted analysis: found %v limit %q", found, a.limit)
	}
}

// An unusable TMPDIR used to keep BFS levels in memory silently; the result
// now says so. Bytes "spilled to disk" are bytes the file accepted.
func TestLevelSpillFailureIsReported(t *testing.T) {
	mod := &toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 300}, {to: 7 * s % 300}}
	}}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	r := run(&toyCodec{toyDesc: toyDesc{mod}}, Options{LevelInMemory: 1})
	if r.Verdict != Verified || r.Stats.QueueDisk != 0 {
		t.Errorf("verdict %v, %d bytes on disk", r.Verdict, r.Stats.QueueDisk)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "stayed in memory") || !strings.Contains(r.Warnings[0], "no such file") {
		t.Errorf("warnings %q", r.Warnings)
	}
	var b strings.Builder
	WriteText(&b, r)
	if !strings.Contains(b.String(), "warning: BFS levels") {
		t.Errorf("text lacks the warning:\n%s", b.String())
	}
}

// A level whose file fails counts only the bytes that reached it.
func TestLevelDiskBytesAreWritten(t *testing.T) {
	sys := &toyCodec{toyDesc: toyDesc{&toy{}}}
	l := &level{codec: sys, max: 0}
	l.push(sys, 1, 0)
	if l.file == nil {
		t.Skip("no temporary file")
	}
	l.file.Close() // every later write fails
	for i := 0; i < 300000; i++ {
		l.push(sys, i, uint32(i))
	}
	l.w.Flush()
	if l.disk != 0 {
		t.Errorf("%d bytes counted as written to a closed file", l.disk)
	}
}
