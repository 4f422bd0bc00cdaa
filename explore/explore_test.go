package explore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/model"
)

// A long path 0→1→2→3→4 and a shortcut 0→5→4 to the bad state 4: BFS must
// return the 2-step trace; DFS, which takes the first successor first, the
// 4-step one. Both must be valid paths that end in the bad state.
func TestShortestTrace(t *testing.T) {
	g := &toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{0, 5}, [2]int{5, 4}),
		bad: map[string]func(int) bool{"a": func(s int) bool { return s == 4 }}}
	sys := toyDesc{g}
	for _, tc := range []struct {
		strategy Strategy
		want     []int
	}{{BFS, []int{0, 5, 4}}, {DFS, []int{0, 1, 2, 3, 4}}} {
		r := run(sys, Options{Strategy: tc.strategy})
		if r.Verdict != Violated || len(r.Violations) != 1 {
			t.Fatalf("%v: verdict %v, %d violations", tc.strategy, r.Verdict, len(r.Violations))
		}
		var got []int
		for _, s := range r.Violations[0].Trace.Steps {
			got = append(got, s.State["s"].(int))
		}
		if !equalInts(got, tc.want) {
			t.Errorf("%v trace %v, want %v", tc.strategy, got, tc.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// On i → i+1 and i → 2i (mod 10), every strategy finds exactly 10 states
// and 20 transitions, and the BFS depth is the longest shortest path (4).
func TestCounts(t *testing.T) {
	g := &toy{init: []int{0}, next: func(s int) []toyEdge { return []toyEdge{{to: (s + 1) % 10}, {to: 2 * s % 10}} }}
	want := map[Strategy][3]int64{BFS: {10, 20, 5}, DFS: {10, 20, -1}}
	for st, w := range want {
		r := run(g, Options{Strategy: st})
		if r.Verdict != Verified || !r.Exhausted {
			t.Fatalf("%v: verdict %v exhausted %v", st, r.Verdict, r.Exhausted)
		}
		if r.Stats.Distinct != w[0] || r.Stats.Transitions != w[1] || (w[2] >= 0 && int64(r.Stats.Depth) != w[2]) {
			t.Errorf("%v: distinct %d transitions %d depth %d, want %v", st, r.Stats.Distinct, r.Stats.Transitions, r.Stats.Depth, w)
		}
	}
}

// Deadlock is pending work with no step but stutters and adversary moves.
func TestDeadlock(t *testing.T) {
	pending := func(s int) bool { return s != 9 }
	for _, tc := range []struct {
		name  string
		edges map[int][]toyEdge
		want  Verdict
	}{
		{"stutter-only", map[int][]toyEdge{0: {{to: 1}}, 1: {{to: 1}}}, Violated},
		{"adversary-only", map[int][]toyEdge{0: {{to: 1}}, 1: {{to: 2, kind: model.AdversaryStep}}, 2: {{to: 9}}}, Violated},
		{"no-step", map[int][]toyEdge{0: {{to: 1}}}, Violated},
		{"progress", map[int][]toyEdge{0: {{to: 1}}, 1: {{to: 1}, {to: 9}}}, Verified},
		{"env-progress", map[int][]toyEdge{0: {{to: 9, kind: model.EnvStep}}}, Verified},
		{"quiescent", map[int][]toyEdge{0: {{to: 9}}, 9: {{to: 9}}}, Verified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := toyWorker{&toy{init: []int{0}, edges: tc.edges, pending: pending}}
			r := run(g, Options{})
			if r.Verdict != tc.want {
				t.Fatalf("verdict %v, want %v", r.Verdict, tc.want)
			}
			if tc.want == Violated && (r.Violations[0].Property != Deadlock || r.Violations[0].Kind != model.NoDeadlock) {
				t.Errorf("violation %+v, want a deadlock", r.Violations[0])
			}
			if r := run(g, Options{NoDeadlock: true}); r.Verdict != Verified || len(r.Properties) != 0 {
				t.Errorf("with NoDeadlock: %v %v", r.Verdict, r.Properties)
			}
		})
	}
}

// counter counts up forever: only limits end its search.
var counter = &toy{init: []int{0}, next: func(s int) []toyEdge { return []toyEdge{{to: s + 1}, {to: s + 2}} },
	bad: map[string]func(int) bool{"a": func(s int) bool { return s < 0 }}}

func TestLimitsAreIncomplete(t *testing.T) {
	for _, tc := range []struct {
		opt   Options
		limit string
	}{
		{Options{MaxStates: 50}, "max-states"},
		{Options{MaxDepth: 7}, "max-depth"},
		{Options{MaxDepth: 7, Strategy: DFS}, "max-depth"},
		{Options{Timeout: 30 * time.Millisecond}, "timeout"},
		{Options{MemoryMB: 1, MaxStates: 2_000_000}, "memory"}, // the state cap only backstops a broken memory limit
		{Options{Interrupt: closed(), MaxStates: 2_000_000}, "interrupt"},
		{Options{Interrupt: closed(), MaxStates: 2_000_000, Workers: 2}, "interrupt"},
	} {
		r := run(counter, tc.opt)
		if r.Verdict != Incomplete || r.Limit != tc.limit || r.Exhausted {
			t.Errorf("%+v: verdict %v limit %q exhausted %v", tc.opt, r.Verdict, r.Limit, r.Exhausted)
		}
		for _, p := range r.Properties {
			if p.Status != Unknown {
				t.Errorf("%+v: property %s is %s under a limit, want unknown", tc.opt, p.Name, p.Status)
			}
		}
		var b strings.Builder
		if err := WriteText(&b, r); err != nil || !strings.Contains(b.String(), "INCOMPLETE") || strings.Contains(b.String(), "VERIFIED") {
			t.Errorf("%+v: text output does not say incomplete:\n%s", tc.opt, b.String())
		}
	}
	if r := run(counter, Options{MaxStates: 50}); r.Stats.Distinct != 50 {
		t.Errorf("max-states 50 stopped at %d states", r.Stats.Distinct)
	}
	if r := run(counter, Options{MaxDepth: 7}); r.Stats.Depth != 7 {
		t.Errorf("max-depth 7 reached depth %d", r.Stats.Depth)
	}
}

// closed returns a closed channel: an interrupt that has already happened.
func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// A depth bound that cuts nothing leaves the verdict complete.
func TestDepthBoundThatCutsNothing(t *testing.T) {
	g := &toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2})}
	if r := run(g, Options{MaxDepth: 5}); r.Verdict != Verified {
		t.Errorf("verdict %v, want verified", r.Verdict)
	}
	if r := run(g, Options{MaxDepth: 1}); r.Verdict != Incomplete {
		t.Errorf("verdict %v, want incomplete", r.Verdict)
	}
}

// Continue finds the first violation of every property; without it the
// search stops at the first and leaves the others unknown.
func TestContinue(t *testing.T) {
	g := &toy{init: []int{0}, next: func(s int) []toyEdge {
		if s >= 20 {
			return nil
		}
		return []toyEdge{{to: s + 1}}
	}, bad: map[string]func(int) bool{"a": func(s int) bool { return s == 3 }, "b": func(s int) bool { return s >= 7 }}}
	r := run(toyDesc{g}, Options{Continue: true})
	if len(r.Violations) != 2 || r.Violations[0].Property != "a" || r.Violations[0].Trace.Len() != 3 ||
		r.Violations[1].Property != "b" || r.Violations[1].Trace.Len() != 7 {
		t.Fatalf("violations %+v", r.Violations)
	}
	r = run(toyDesc{g}, Options{})
	if len(r.Violations) != 1 || r.Properties[1].Status != Unknown {
		t.Fatalf("without continue: %+v %+v", r.Violations, r.Properties)
	}
}

func TestOptionsValidated(t *testing.T) {
	for _, o := range []Options{{MaxStates: -1}, {MaxDepth: -1}, {Timeout: -1}, {MemoryMB: -1}, {Strategy: 9}, {Workers: MaxWorkers + 1}, {Workers: 100_000_000}} {
		if _, err := New(counter, o); err == nil {
			t.Errorf("New accepted %+v", o)
		}
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New accepted a nil system")
	}
}

func TestSeenSet(t *testing.T) {
	for _, wide := range []bool{false, true} {
		s := newSeenSet(wide)
		rng := rand.New(rand.NewPCG(5, 6))
		fps := map[fingerprint]bool{}
		for i := 0; i < 200000; i++ {
			x := rng.Uint64() % 50000 // many repeats
			fp := fingerprint{lo: x*0x9e3779b97f4a7c15 | 1}
			if wide && x%100 > 0 && x%100 < 3 {
				// The low half of x-x%100 with another high half: a
				// different fingerprint.
				fp = fingerprint{lo: (x-x%100)*0x9e3779b97f4a7c15 | 1, hi: x%100 + 1}
			}
			if s.insert(fp) == fps[fp] {
				t.Fatalf("insert(%x) new=%v, but seen before=%v", fp, !fps[fp], fps[fp])
			}
			fps[fp] = true
		}
		for fp := range fps {
			if !s.contains(fp) || s.insert(fp) {
				t.Fatalf("lost %x after growth", fp)
			}
		}
		if s.contains(fingerprint{lo: 2}) || int(s.count()) != len(fps) {
			t.Errorf("contains an even fingerprint never inserted, or counts %d of %d", s.count(), len(fps))
		}
		// A table grows by 40% at 90% load: between 64% and 90% full.
		slot := 8.0
		if wide {
			slot = 16
		}
		if per := float64(s.bytes()) / float64(len(fps)); per > slot/0.63 || per < slot/0.91 {
			t.Errorf("wide=%v: %.1f bytes per fingerprint, want %.1f to %.1f", wide, per, slot/0.91, slot/0.63)
		}
	}
}

// Rendering: text names the violated property and each step; JSON is
// valid and carries the verdict; an ITF trace round-trips and replays.
func TestRenderAndReplay(t *testing.T) {
	g := &toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2}), bad: map[string]func(int) bool{"a": func(s int) bool { return s == 2 }}}
	sys := toyDesc{g}
	r := run(sys, Options{})
	var text bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"VIOLATION of invariant a after 2 steps", "  1. 0->1", "  2. 1->2", "verdict: VIOLATED"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back["verdict"] != "violated" {
		t.Fatalf("JSON %v: %s", err, js.String())
	}
	var itf bytes.Buffer
	if err := NewITF("toy", nil, r.Violations[0]).Write(&itf); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadITF(bytes.NewReader(itf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if res := Replay(sys, tr); !res.Reproduced || res.Steps != 2 {
		t.Errorf("replay: %+v", res)
	}
	// A different model (the bad state moved) no longer violates.
	g.bad["a"] = func(s int) bool { return s == 5 }
	if res := Replay(sys, tr); res.Reproduced {
		t.Error("replay reproduced a violation the model no longer has")
	}
	// A model whose step is gone diverges.
	g.edges = edges([2]int{0, 2})
	if res := Replay(sys, tr); res.Reproduced || !strings.Contains(res.Reason, "diverged at step 1") {
		t.Errorf("replay on a changed model: %+v", res)
	}
}

func TestReadITFRejectsMalformed(t *testing.T) {
	for name, text := range map[string]string{
		"not-json":     "{",
		"not-mxcheck":  `{"#meta": {}, "states": [{"#meta": {}}]}`,
		"no-property":  `{"#meta": {"source": "mxcheck", "spec": "ra", "kind": "invariant"}, "states": [{"#meta": {}}]}`,
		"bad-kind":     `{"#meta": {"source": "mxcheck", "spec": "ra", "property": "x", "kind": "weird"}, "states": [{"#meta": {}}]}`,
		"no-states":    `{"#meta": {"source": "mxcheck", "spec": "ra", "property": "x", "kind": "invariant"}, "states": []}`,
		"no-step-name": `{"#meta": {"source": "mxcheck", "spec": "ra", "property": "x", "kind": "invariant"}, "states": [{"#meta": {}}, {"#meta": {}}]}`,
		"states-wrong": `{"#meta": {"source": "mxcheck", "spec": "ra", "property": "x", "kind": "invariant"}, "states": 3}`,
	} {
		if _, err := ReadITF(strings.NewReader(text)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The BFS gives the plain search's counts, depth and shortest traces, and
// with 2, 3, 4 or 8 workers exactly the one-worker result: same verdict,
// counts, depth, limit and traces, on every toy above.
func TestParallelIdentical(t *testing.T) {
	chain, stuck := chainToy(), stuckToy()
	mod := modToy([]int{0}, 1000)
	mod.bad = map[string]func(int) bool{"a": func(s int) bool { return s == 999 }, "b": func(s int) bool { return s == 500 }}
	for name, tc := range map[string]struct {
		sys model.System
		opt Options
	}{
		"shortest":   {toyDesc{chain}, Options{}},
		"continue":   {toyDesc{mod}, Options{Continue: true}},
		"first":      {toyDesc{mod}, Options{}},
		"max-states": {mod, Options{MaxStates: 333}},
		"max-depth":  {mod, Options{MaxDepth: 3}},
		"deadlock":   {stuck, Options{}},
		"verified":   {&toy{init: []int{0}, next: mod.next}, Options{}},
	} {
		t.Run(name, func(t *testing.T) {
			seq := run(tc.sys, tc.opt)
			sameAsRef(t, "one worker", refBFS(tc.sys, tc.opt), seq)
			for _, w := range []int{2, 3, 4, 8} {
				o := tc.opt
				o.Workers = w
				par := run(tc.sys, o)
				if !sameResult(seq, par) {
					t.Errorf("workers=%d differs:\nseq %+v %+v\npar %+v %+v", w, seq.Stats, seq.Properties, par.Stats, par.Properties)
				}
			}
			// The parallel DFS agrees with the DFS when both run to the end.
			o := tc.opt
			o.Strategy = DFS
			dfs := run(tc.sys, o)
			o.Workers = 3
			pdfs := run(tc.sys, o)
			if dfs.Exhausted && (dfs.Verdict != pdfs.Verdict || dfs.Stats.Distinct != pdfs.Stats.Distinct || dfs.Stats.Transitions != pdfs.Stats.Transitions) {
				t.Errorf("parallel DFS: %v %d states %d transitions; DFS: %v %d %d", pdfs.Verdict, pdfs.Stats.Distinct, pdfs.Stats.Transitions, dfs.Verdict, dfs.Stats.Distinct, dfs.Stats.Transitions)
			}
			// Without limits both find what there is to find (with one,
			// a different order may reach the limit first).
			unlimited := tc.opt.MaxStates == 0 && tc.opt.MaxDepth == 0
			if unlimited && (dfs.Verdict == Violated && pdfs.Verdict != Violated || dfs.Verdict == Verified && pdfs.Verdict != Verified) {
				t.Errorf("parallel DFS %v, DFS %v", pdfs.Verdict, dfs.Verdict)
			}
		})
	}
	if _, err := New(counter, Options{Workers: -1}); err == nil {
		t.Error("negative workers accepted")
	}
}

// sameResult compares everything but wall-clock figures.
func sameResult(a, b *Result) bool {
	if a.Verdict != b.Verdict || a.Limit != b.Limit || a.Exhausted != b.Exhausted ||
		a.Stats.Distinct != b.Stats.Distinct || a.Stats.Transitions != b.Stats.Transitions || a.Stats.Depth != b.Stats.Depth ||
		len(a.Violations) != len(b.Violations) {
		return false
	}
	for i := range a.Properties {
		if a.Properties[i] != b.Properties[i] {
			return false
		}
	}
	for i := range a.Violations {
		x, y := a.Violations[i], b.Violations[i]
		if x.Property != y.Property || x.Trace.Len() != y.Trace.Len() {
			return false
		}
		for j := range x.Trace.Steps {
			if x.Trace.Steps[j].Label != y.Trace.Steps[j].Label {
				return false
			}
		}
	}
	return true
}

// Progress lines name states, distinct, queue, depth and states/s; without
// a Progress writer nothing is printed (the search has nowhere to print).
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	r := run(counter, Options{MaxStates: 100000, Progress: &b, ProgressEvery: time.Nanosecond})
	if r.Verdict != Incomplete {
		t.Fatalf("verdict %v", r.Verdict)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d progress lines, want several:\n%s", len(lines), b.String())
	}
	for _, want := range []string{"transitions=", "distinct=", "queue=", "depth=", "states/s="} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("progress line %q lacks %q", lines[0], want)
		}
	}
}

// Parent links spilled to disk give the same results, traces included, as
// links kept in memory, for every strategy; and a search that spills says
// how much it wrote.
func TestLinksSpilled(t *testing.T) {
	mod := &toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 1000}, {to: 7 * s % 1000}, {to: (s + 13) % 1000}}
	},
		bad: map[string]func(int) bool{"a": func(s int) bool { return s == 999 }, "b": func(s int) bool { return s == 500 }}}
	defer func(c, k int) { linkChunk, linkKeep = c, k }(linkChunk, linkKeep)
	for _, opt := range []Options{{Continue: true}, {Continue: true, Strategy: DFS}, {Continue: true, Workers: 2}} {
		linkChunk, linkKeep = 1<<16, 256
		mem := run(toyDesc{mod}, opt)
		linkChunk, linkKeep = 8, 3
		disk := run(toyDesc{mod}, opt)
		if !sameResult(mem, disk) {
			t.Errorf("%+v: spilled links differ:\nmemory %+v\ndisk   %+v", opt, mem.Violations, disk.Violations)
		}
		// Every full chunk after the first three, 8 links of 5 bytes each
		// (the BFS writes the links of a whole level, so it may have
		// written more than Distinct when it stopped in the middle).
		want := (disk.Stats.Distinct/8 - 3) * 8 * linkBytes
		if got := disk.Stats.LinkDisk; mem.Stats.LinkDisk != 0 || got < want || opt.Strategy == DFS && got != want || want < 8*64 {
			t.Errorf("%+v: link bytes on disk %d and %d, want 0 and %d", opt, mem.Stats.LinkDisk, disk.Stats.LinkDisk, want)
		}
		for _, v := range disk.Violations {
			last := v.Trace.Steps[len(v.Trace.Steps)-1].State["s"].(int)
			if want := map[string]int{"a": 999, "b": 500}[v.Property]; last != want {
				t.Errorf("%+v: %s trace ends in %d, want %d", opt, v.Property, last, want)
			}
		}
	}
}

// A search that runs to its end writes one link per state, so every full
// chunk past the first three goes to disk, exactly, whatever the strategy
// and however the workers share the chunks' counts.
func TestLinksSpilledExactly(t *testing.T) {
	mod := &toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 1000}, {to: 7 * s % 1000}, {to: (s + 13) % 1000}}
	}}
	defer func(c, k int) { linkChunk, linkKeep = c, k }(linkChunk, linkKeep)
	linkChunk, linkKeep = 8, 3
	for _, opt := range []Options{{Workers: 1}, {Strategy: DFS}, {Workers: 2}, {Workers: 3}, {Workers: 4, Strategy: DFS}} {
		res := run(toyDesc{mod}, opt)
		want := (res.Stats.Distinct/8 - 3) * 8 * linkBytes
		if res.Stats.Distinct != 1000 || res.Stats.LinkDisk != want {
			t.Errorf("%v, %d workers: %d states, %d link bytes on disk, want 1000 and %d", opt.Strategy, opt.Workers, res.Stats.Distinct, res.Stats.LinkDisk, want)
		}
	}
}

// Every link reads back as written, from memory or from the file.
func TestLinkStore(t *testing.T) {
	ls := newLinkStore()
	ls.chunk, ls.keep = 16, 2
	defer ls.close()
	want := make([]link, 1000)
	for i := range want {
		want[i] = link{uint32(rand.IntN(1 << 30)), uint32(i * 7 % 600)} // some ordinals ≥ 255
		ls.add(uint32(i), want[i])
	}
	for i := range want {
		if got := ls.get(uint32(i)); got != want[i] {
			t.Fatalf("link %d = %v, want %v", i, got, want[i])
		}
	}
	if ls.spilled != 1000/16-2 || ls.memory() != int64(2+1)*16*linkBytes+int64(len(ls.wide))*16 {
		t.Errorf("spilled %d chunks, %d bytes in memory", ls.spilled, ls.memory())
	}
}

// toyCodec is a described toy whose states can be written to disk; read
// fails (after the first fail states) when fail is set.
type toyCodec struct {
	toyDesc
	fail  int
	reads int
}

func (g *toyCodec) Encodable() bool { return true }
func (g *toyCodec) AppendState(dst []byte, s model.State) []byte {
	return binary.AppendUvarint(dst, uint64(s.(int)))
}
func (g *toyCodec) ReadState(src []byte, into model.State) (model.State, error) {
	g.reads++
	if g.fail > 0 && g.reads > g.fail {
		return nil, fmt.Errorf("bad encoding")
	}
	v, n := binary.Uvarint(src)
	if n != len(src) {
		return nil, fmt.Errorf("bad encoding")
	}
	return int(v), nil
}

// A BFS whose levels go to disk after 0, 1 or 5 states in memory gives
// exactly the in-memory BFS result (counts, depth, statuses, traces); a
// level that cannot be read back ends the search Incomplete.
func TestLevelsOnDisk(t *testing.T) {
	mod := &toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 1000}, {to: 7 * s % 1000}, {to: (s + 13) % 1000}}
	},
		bad: map[string]func(int) bool{"a": func(s int) bool { return s == 999 }, "b": func(s int) bool { return s == 500 }}}
	for _, opt := range []Options{{Continue: true}, {}, {MaxStates: 333}, {MaxDepth: 3}} {
		mem := run(toyDesc{mod}, opt)
		for _, max := range []int{1, 5} {
			o := opt
			o.LevelInMemory = max
			disk := run(&toyCodec{toyDesc: toyDesc{mod}}, o)
			if !sameResult(mem, disk) {
				t.Errorf("%+v: levels on disk differ:\nmemory %+v %+v\ndisk   %+v %+v", o, mem.Stats, mem.Violations, disk.Stats, disk.Violations)
			}
			if disk.Stats.QueueDisk == 0 {
				t.Errorf("%+v: nothing written to disk", o)
			}
		}
	}
	o := Options{Continue: true, LevelInMemory: 1}
	if r := run(&toyCodec{toyDesc: toyDesc{mod}, fail: 50}, o); r.Verdict != Incomplete || !strings.HasPrefix(r.Limit, "disk: ") {
		t.Errorf("unreadable level: verdict %v limit %q", r.Verdict, r.Limit)
	}
	if r := run(&toyCodec{toyDesc: toyDesc{mod}}, Options{Continue: true, LevelInMemory: -1}); r.Stats.QueueDisk != 0 {
		t.Errorf("LevelInMemory -1 wrote %d bytes", r.Stats.QueueDisk)
	}
}

// The BFS reports the same traces in every run, whatever the number of
// workers and however they are scheduled: five runs with four workers of
// a model with many shortest paths to each state.
func TestParallelTraceDeterministic(t *testing.T) {
	mod := &toy{init: []int{0}, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % 500}, {to: (s * 3) % 500}, {to: (s + 7) % 500}, {to: (s * 5) % 500}}
	},
		bad: map[string]func(int) bool{"a": func(s int) bool { return s == 499 }, "b": func(s int) bool { return s == 251 }}}
	want := run(toyDesc{mod}, Options{Continue: true})
	for i := 0; i < 5; i++ {
		got := run(toyDesc{mod}, Options{Continue: true, Workers: 4})
		if !sameResult(want, got) {
			t.Fatalf("run %d: %+v, want %+v", i, got.Violations, want.Violations)
		}
	}
}

// chainToy has two paths to a bad state 4: the shorter one is the trace.
func chainToy() *toy {
	return &toy{init: []int{0}, edges: edges([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{0, 5}, [2]int{5, 4}),
		bad: map[string]func(int) bool{"a": func(s int) bool { return s == 4 }}}
}

// modToy walks the integers modulo m from init, three steps a state.
func modToy(init []int, m int) *toy {
	return &toy{init: init, next: func(s int) []toyEdge {
		return []toyEdge{{to: (s + 1) % m}, {to: 7 * s % m}, {to: (s + 13) % m}}
	}}
}

// stuckToy deadlocks past 300 (a self-loop with work pending).
func stuckToy() toyWorker {
	return toyWorker{&toy{init: []int{0}, next: func(s int) []toyEdge {
		if s > 300 {
			return []toyEdge{{to: s}}
		}
		return []toyEdge{{to: s + 1}, {to: s + 2}}
	}, pending: func(int) bool { return true }}}
}
