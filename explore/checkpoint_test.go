package explore

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

func ckSystem(t *testing.T, name string, params model.Values) model.System {
	t.Helper()
	sys, _, err := specs.Lookup(name).Compile(params)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func ckRun(t *testing.T, sys model.System, opt Options) *Result {
	t.Helper()
	c, err := New(sys, opt)
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Check()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ckComparable is a result as JSON without what depends on the machine,
// the process or the number of workers.
func ckComparable(t *testing.T, r *Result) string {
	t.Helper()
	c := *r
	c.Stats.Elapsed, c.Stats.Rate, c.Stats.SeenBytes, c.Stats.BytesPerState = 0, 0, 0, 0
	c.Stats.LinkDisk, c.Stats.QueueDisk, c.Stats.Workers = 0, 0, 0
	c.Checkpoint = nil
	b, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// interruptAt returns options that checkpoint into dir after every level and
// are interrupted once level k is done (its checkpoint written).
func interruptAt(opt Options, dir string, k int) Options {
	stop := make(chan struct{})
	opt.Checkpoint, opt.Interrupt = dir, stop
	opt.levelHook = func(depth int) {
		if depth == k {
			close(stop)
		}
	}
	return opt
}

// A run interrupted after level k and resumed from its checkpoint gives
// the uninterrupted run's result exactly: counts, depth, verdict, every
// property's status and every trace; with 1 and 3 workers, and resumed with
// another number of workers than it was written with.
func TestCheckpointResumeIdentical(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   string
		params model.Values
		opt    Options
	}{
		{"ra-verified", "ra", nil, Options{}},
		{"ra-violated", "ra", model.Values{"missing": "1:0"}, Options{}},
		{"ra-continue", "ra", model.Values{"mutant": "defer-forever"}, Options{Continue: true}},
		{"ra-128-disk", "ra", model.Values{"mutant": "defer-forever"}, Options{Fingerprint: 128, LevelInMemory: 7, Continue: true}},
		{"ra-por", "ra", model.Values{"missing": "1:0"}, Options{POR: true}},
		{"lme-symmetry", "lme", model.Values{"nodes": "2", "variant": "repaired"}, Options{Symmetry: true, Continue: true, NoDeadlock: true, MaxDepth: 14}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opt.LevelInMemory > 0 {
				// Links and levels on disk too.
				defer func(c, k int) { linkChunk, linkKeep = c, k }(linkChunk, linkKeep)
				linkChunk, linkKeep = 64, 3
			}
			sys := ckSystem(t, tc.spec, tc.params)
			ref := tc.opt
			ref.Workers = 1
			want := ckRun(t, sys, ref)
			wantText := ckComparable(t, want)
			levels := want.Stats.Depth
			for _, workers := range [][2]int{{1, 1}, {3, 3}, {1, 3}, {3, 2}} {
				if tc.opt.POR && workers != [2]int{1, 1} {
					continue // partial-order reduction runs on one worker
				}
				for _, k := range []int{0, levels / 2, levels - 2} {
					if k < 0 {
						continue
					}
					dir := t.TempDir()
					opt := tc.opt
					opt.Workers = workers[0]
					first := ckRun(t, sys, interruptAt(opt, dir, k))
					if first.Limit != "interrupt" {
						t.Fatalf("workers %v, level %d: the first run was not interrupted: %v %q", workers, k, first.Verdict, first.Limit)
					}
					if first.Checkpoint == nil || first.Checkpoint.Level != k+1 {
						t.Fatalf("workers %v, level %d: last checkpoint %+v, want level %d", workers, k, first.Checkpoint, k+1)
					}
					if tc.opt.LevelInMemory > 0 && k == levels-2 && (first.Stats.LinkDisk == 0 || first.Stats.QueueDisk == 0) {
						t.Fatalf("nothing went to disk: %+v", first.Stats)
					}
					opt.Workers = workers[1]
					opt.Resume, opt.Checkpoint = dir, dir
					got := ckRun(t, sys, opt)
					if got.Checkpoint == nil || got.Checkpoint.ResumedFrom != k+1 {
						t.Fatalf("workers %v, level %d: resumed from %+v", workers, k, got.Checkpoint)
					}
					if g := ckComparable(t, got); g != wantText {
						t.Fatalf("workers %v, interrupted after level %d: resumed result differs:\n%s\nuninterrupted:\n%s", workers, k, g, wantText)
					}
				}
			}
		})
	}
}

// Checkpoints written at an interval: none in a short run.
func TestCheckpointInterval(t *testing.T) {
	sys := ckSystem(t, "ra", nil)
	dir := t.TempDir()
	r := ckRun(t, sys, Options{Checkpoint: dir, CheckpointEvery: DefaultCheckpointEvery})
	if r.Checkpoint == nil || r.Checkpoint.Written != 0 {
		t.Fatalf("checkpoint stats %+v, want none written", r.Checkpoint)
	}
	r = ckRun(t, sys, Options{Checkpoint: t.TempDir()})
	if r.Checkpoint.Written != r.Stats.Depth+1 || r.Checkpoint.Bytes == 0 || r.Checkpoint.States != r.Stats.Distinct {
		t.Fatalf("every level: %+v, depth %d", r.Checkpoint, r.Stats.Depth)
	}
}

// checkpointAt writes a checkpoint of ra after level k and returns its
// directory and the checkpoint's own directory.
func checkpointAt(t *testing.T, k int) (string, string) {
	t.Helper()
	dir := t.TempDir()
	ckRun(t, ckSystem(t, "ra", nil), interruptAt(Options{Workers: 2}, dir, k))
	names, err := checkpointDirs(dir)
	if err != nil || len(names) != 1 {
		t.Fatalf("checkpoints in %s: %v %v", dir, names, err)
	}
	return dir, filepath.Join(dir, names[0])
}

func newErr(t *testing.T, sys model.System, opt Options) string {
	t.Helper()
	_, err := New(sys, opt)
	if err == nil {
		t.Fatal("New accepted the options")
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error of more than one line: %q", err)
	}
	return err.Error()
}

// A damaged checkpoint is refused before the search, in one line naming
// the file.
func TestCheckpointCorrupt(t *testing.T) {
	sys := ckSystem(t, "ra", nil)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, ck string)
		want   string
	}{
		{"truncated-part", func(t *testing.T, ck string) { truncate(t, filepath.Join(ck, partName(1)), 10) }, "part-0001.bin: "},
		{"flipped-part", func(t *testing.T, ck string) { flip(t, filepath.Join(ck, partName(0)), 40) }, "part-0000.bin: checksum mismatch"},
		{"flipped-links", func(t *testing.T, ck string) { flip(t, filepath.Join(ck, linksName), 30) }, "links.bin: checksum mismatch"},
		{"missing-links", func(t *testing.T, ck string) { os.Remove(filepath.Join(ck, linksName)) }, "links.bin"},
		{"flipped-manifest", func(t *testing.T, ck string) { flip(t, filepath.Join(ck, manifestName), 30) }, "manifest.json: checksum mismatch"},
		{"truncated-manifest", func(t *testing.T, ck string) { truncate(t, filepath.Join(ck, manifestName), 20) }, "manifest.json: truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, ck := checkpointAt(t, 6)
			tc.damage(t, ck)
			if msg := newErr(t, sys, Options{Resume: dir, Checkpoint: dir}); !strings.Contains(msg, tc.want) {
				t.Errorf("error %q lacks %q", msg, tc.want)
			}
		})
	}
	if msg := newErr(t, sys, Options{Resume: t.TempDir()}); !strings.Contains(msg, "no checkpoint there") {
		t.Errorf("empty directory: %q", msg)
	}
}

func truncate(t *testing.T, path string, by int64) {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-by); err != nil {
		t.Fatal(err)
	}
}

func flip(t *testing.T, path string, at int) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at] ^= 0x10
	if err := os.WriteFile(path, b, 0o666); err != nil {
		t.Fatal(err)
	}
}

// A checkpoint resumes only the configuration that wrote it; options it
// cannot serve are refused in one line.
func TestCheckpointRefused(t *testing.T) {
	dir, _ := checkpointAt(t, 6)
	ra := ckSystem(t, "ra", nil)
	label := func(nodes string) map[string]string { return map[string]string{"spec": "ra", "--nodes": nodes} }
	for _, tc := range []struct {
		name string
		sys  model.System
		opt  Options
		want string
	}{
		{"other-spec", ckSystem(t, "lme", model.Values{"nodes": "2"}), Options{Resume: dir}, "search.properties"},
		{"continue", ra, Options{Resume: dir, Continue: true}, `search.continue: "false" there, "true" here`},
		{"fingerprint", ra, Options{Resume: dir, Fingerprint: 128}, "search.fingerprint"},
		{"deadlock", ra, Options{Resume: dir, NoDeadlock: true}, "search.deadlock"},
		{"label", ra, Options{Resume: dir, CheckpointLabel: label("4")}, `--nodes: "(unset)" there, "4" here`},
		{"max-states", ra, Options{Resume: dir, MaxStates: 10}, "--max-states 10 is not above"},
		{"max-depth", ra, Options{Resume: dir, MaxDepth: 3}, "--max-depth 3 is below level 6"},
		{"dfs", ra, Options{Checkpoint: t.TempDir(), Strategy: DFS}, "BFS only"},
		{"liveness", ra, Options{Checkpoint: t.TempDir(), Liveness: true}, "liveness"},
		{"no-codec", &toy{init: []int{0}, edges: map[int][]toyEdge{}}, Options{Checkpoint: t.TempDir()}, "cannot encode its states"},
		{"occupied", ra, Options{Checkpoint: dir}, "already holds a checkpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if msg := newErr(t, tc.sys, tc.opt); !strings.Contains(msg, tc.want) {
				t.Errorf("error %q lacks %q", msg, tc.want)
			}
		})
	}
}

// Leftovers of a write cut short (a .tmp- directory) do not disturb a
// resume, and the next checkpoint replaces the old one.
func TestCheckpointLeftovers(t *testing.T) {
	dir, _ := checkpointAt(t, 4)
	if err := os.MkdirAll(filepath.Join(dir, ".tmp-00000009"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".tmp-00000009", partName(0)), []byte("half"), 0o666)
	sys := ckSystem(t, "ra", nil)
	want := ckComparable(t, ckRun(t, sys, Options{}))
	got := ckRun(t, sys, interruptAt(Options{Resume: dir, Workers: 2}, dir, 9))
	if got.Limit != "interrupt" {
		t.Fatalf("not interrupted: %v", got.Limit)
	}
	names, _ := checkpointDirs(dir)
	if len(names) != 1 || names[0] != checkpointName(10) {
		t.Fatalf("checkpoints after the resumed run: %v", names)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmps) != 0 {
		t.Fatalf("leftovers not removed: %v", tmps)
	}
	if g := ckComparable(t, ckRun(t, sys, Options{Resume: dir, Checkpoint: dir})); g != want {
		t.Fatalf("twice resumed: %s\nwant %s", g, want)
	}
}

// A checkpoint write that fails at any stage leaves the previous one whole
// and nothing half-written; the search goes on, says so, and the previous
// checkpoint resumes to the uninterrupted result.
func TestCheckpointWriteFails(t *testing.T) {
	sys := ckSystem(t, "ra", nil)
	want := ckComparable(t, ckRun(t, sys, Options{}))
	defer func() { checkpointFault = nil }()
	for _, stage := range []string{"parts", "links", "manifest", "rename"} {
		t.Run(stage, func(t *testing.T) {
			level := -1
			checkpointFault = func(s string) error {
				if s == stage && level == 6 {
					return errors.New("disk full")
				}
				return nil
			}
			dir := t.TempDir()
			opt := interruptAt(Options{Workers: 2}, dir, 6)
			hook := opt.levelHook
			opt.levelHook = func(d int) { hook(d); level = d + 1 }
			level = 0
			r := ckRun(t, sys, opt)
			if r.Checkpoint.Error == "" || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "checkpoint after level 6 not written: disk full") {
				t.Fatalf("no warning: %+v %q", r.Checkpoint, r.Warnings)
			}
			names, _ := checkpointDirs(dir)
			tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
			if len(names) != 1 || names[0] != checkpointName(6) || len(tmps) != 0 {
				t.Fatalf("after the failed write: %v, leftovers %v", names, tmps)
			}
			checkpointFault = nil
			if g := ckComparable(t, ckRun(t, sys, Options{Resume: dir, Checkpoint: dir})); g != want {
				t.Fatalf("resumed: %s\nwant %s", g, want)
			}
		})
	}
}
