package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func call(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string // substring of stdout
	}{
		{"help", []string{"--help"}, 0, "mxcheck check SPEC"},
		{"list", []string{"list"}, 0, "--missing"},
		{"check-help", []string{"check", "--help"}, 0, "--max-states"},
		{"spec-help", []string{"check", "ra", "--help"}, 0, "--churn"},
		{"replay-help", []string{"replay", "--help"}, 0, "replay FILE"},
		{"verified", []string{"check", "ra"}, 0, "verdict: VERIFIED"},
		{"verified-dfs", []string{"check", "ra", "--strategy", "dfs"}, 0, "verdict: VERIFIED"},
		{"asymmetric", []string{"check", "ra", "--missing", "1:0"}, 1, "VIOLATION of invariant mutual-exclusion after 10 steps"},
		{"symmetric", []string{"check", "ra", "--missing=0:1,1:0"}, 1, "VIOLATION of invariant mutual-exclusion after 8 steps"},
		{"churn", []string{"check", "ra", "--churn", "1"}, 1, "adversary remove"},
		{"deadlock", []string{"check", "ra", "--mutant", "defer-forever"}, 1, "VIOLATION of deadlock (no-deadlock)"},
		{"no-deadlock-flag", []string{"check", "ra", "--mutant", "defer-forever", "--no-deadlock"}, 0, "verdict: VERIFIED"},
		{"max-states", []string{"check", "ra", "--nodes", "4", "--max-states", "100"}, 3, "verdict: INCOMPLETE (stopped by max-states"},
		{"max-depth", []string{"check", "ra", "--max-depth", "3"}, 3, "INCOMPLETE"},
		{"timeout", []string{"check", "ra", "--nodes", "5", "--timeout", "50ms"}, 3, "stopped by timeout"},
		{"memory", []string{"check", "ra", "--nodes", "5", "--memory", "8", "--max-states", "3000000"}, 3, "stopped by memory"},
		{"continue", []string{"check", "ra", "--mutant", "defer-forever", "--continue"}, 1, "mutual-exclusion  holds"},
		{"symmetry-default-off-for-ids", []string{"check", "ra"}, 0, "(bfs)\n"},
		{"symmetry-default-on", []string{"check", "lme", "--nodes", "2", "--variant", "repaired", "--no-deadlock", "--continue"}, 1, "(bfs, symmetry)"},
		{"symmetry-off", []string{"check", "lme", "--nodes", "2", "--symmetry=false", "--max-depth", "3"}, 3, "(bfs)\n"},
		{"por", []string{"check", "ra", "--por"}, 0, "(bfs, partial-order reduction)"},
		{"workers", []string{"check", "ra", "--workers", "2"}, 0, "distinct states: 3275"},
		{"level-states", []string{"check", "ra", "--level-states", "10"}, 0, "distinct states: 3275  transitions: 10246  depth: 21"},
		{"level-states-disk", []string{"check", "ra", "--level-states", "10"}, 0, "BFS levels 0.3 MiB"},
		{"liveness", []string{"check", "ra", "--liveness"}, 0, "starvation-freedom  holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := call(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out)
			}
		})
	}
}

// Bad input: exit 2 and exactly one line on stderr, never a panic.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := filepath.Join("..", "..", "counterexamples", "ra", "asymmetric-ignorance.itf.json")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		err  string
	}{
		{"no-args", nil, "usage"},
		{"unknown-command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"check-no-spec", []string{"check"}, "needs a spec name"},
		{"unknown-spec", []string{"check", "paxos"}, `unknown spec "paxos"`},
		{"unknown-flag", []string{"check", "ra", "--bogus"}, "unknown flag: --bogus"},
		{"bad-int", []string{"check", "ra", "--nodes", "three"}, "--nodes"},
		{"pair-out-of-range", []string{"check", "ra", "--missing", "3:0"}, "outside 0..2"},
		{"pair-malformed", []string{"check", "ra", "--missing", "1-0"}, "I:J"},
		{"negative-requests", []string{"check", "ra", "--requests", "-1"}, "--requests"},
		{"too-many-nodes", []string{"check", "ra", "--nodes", "40"}, "--nodes"},
		{"bad-strategy", []string{"check", "ra", "--strategy", "random"}, "--strategy"},
		{"bad-choices", []string{"check", "ra", "--choices", "dice"}, "--choices"},
		{"symmetry-with-ids", []string{"check", "ra", "--symmetry"}, "symmetry requested"},
		{"por-with-liveness", []string{"check", "ra", "--por", "--liveness"}, "cannot be combined"},
		{"negative-workers", []string{"check", "ra", "--workers", "-2"}, "workers"},
		{"huge-workers", []string{"check", "ra", "--workers", "100000000"}, "workers must be at most 256"},
		{"huge-memory-is-fine-but-bad-int", []string{"check", "ra", "--memory", "99999999999999999999"}, "--memory"},
		{"level-states-dfs", []string{"check", "ra", "--strategy", "dfs", "--level-states", "5"}, "level-states"},
		{"level-states-dfs", []string{"check", "ra", "--strategy", "dfs", "--level-states", "5"}, "level-states"},
		{"fingerprint-width", []string{"check", "ra", "--fingerprint", "96"}, "fingerprint"},
		{"negative-limit", []string{"check", "ra", "--max-states", "-5"}, "max-states"},
		{"extra-arg", []string{"check", "ra", "extra"}, "unexpected argument"},
		{"list-arg", []string{"list", "x"}, "no arguments"},
		{"replay-none", []string{"replay"}, "exactly one trace file"},
		{"replay-missing", []string{"replay", filepath.Join(dir, "nope.json")}, "cannot open"},
		{"replay-not-json", []string{"replay", write("a.json", "{{{")}, "not an ITF trace"},
		{"replay-not-mxcheck", []string{"replay", write("b.json", `{"vars": [], "states": []}`)}, "not an mxcheck trace"},
		{"replay-unknown-spec", []string{"replay", write("c.json", strings.Replace(string(data), `"spec": "ra"`, `"spec": "zab"`, 1))}, `unknown spec "zab"`},
		{"replay-bad-config", []string{"replay", write("d.json", strings.Replace(string(data), `"nodes": "3"`, `"nodes": "99"`, 1))}, "--nodes"},
		{"replay-unknown-param", []string{"replay", write("e.json", strings.Replace(string(data), `"nodes": "3"`, `"knots": "3"`, 1))}, "no parameter --knots"},
		{"dot-out-is-dir", []string{"check", "ra", "--missing", "1:0", "--dot-out", dir}, "is a directory"},
		{"trace-out-unwritable", []string{"check", "ra", "--missing", "1:0", "--trace-out", filepath.Join(dir, "no", "such", "dir.json")}, "--trace-out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := call(tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr: %s", code, errs)
			}
			if tc.name != "no-args" && strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr is not one line:\n%s", errs)
			}
			if !strings.Contains(errs, tc.err) || strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") {
				t.Errorf("stderr %q lacks %q", errs, tc.err)
			}
		})
	}
}

// --trace-out writes a trace that replay reproduces (exit 0); a tampered
// step diverges (exit 1); a trace whose violation the model lost exits 1.
func TestTraceOutAndReplay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "asym.itf.json")
	if code, _, errs := call("check", "ra", "--missing", "1:0", "--trace-out", path); code != 1 {
		t.Fatalf("check exit %d: %s", code, errs)
	}
	code, out, errs := call("replay", path)
	if code != 0 || !strings.Contains(out, "reproduced") || !strings.Contains(out, "mutual-exclusion") {
		t.Fatalf("replay exit %d: %s %s", code, out, errs)
	}
	data, _ := os.ReadFile(path)
	tampered := filepath.Join(dir, "tampered.itf.json")
	os.WriteFile(tampered, []byte(strings.Replace(string(data), `"step": "n1 RequestCS"`, `"step": "n2 RequestCS"`, 1)), 0o644)
	if code, out, _ := call("replay", tampered); code != 1 || !strings.Contains(out, "diverged") {
		t.Errorf("tampered replay exit %d: %s", code, out)
	}
	// The same trace against a configuration where n1 knows n0 diverges.
	other := filepath.Join(dir, "other.itf.json")
	os.WriteFile(other, []byte(strings.Replace(string(data), `"missing": "1:0"`, `"missing": ""`, 1)), 0o644)
	if code, out, _ := call("replay", other); code != 1 || !strings.Contains(out, "NOT REPRODUCED") {
		t.Errorf("replay against another configuration exit %d: %s", code, out)
	}
	// With no violation, --trace-out writes nothing and says so.
	none := filepath.Join(dir, "none.json")
	if code, _, errs := call("check", "ra", "--trace-out", none); code != 0 || !strings.Contains(errs, "no violation") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(none); err == nil {
		t.Error("a trace file was written without a violation")
	}
}

func TestJSON(t *testing.T) {
	code, out, _ := call("check", "ra", "--missing", "1:0", "--json")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		Verdict    string
		Violations []struct {
			Property string
			Trace    struct{ Steps []map[string]any }
		}
		Stats struct{ Distinct int }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.Verdict != "violated" || len(r.Violations) != 1 || r.Violations[0].Property != "mutual-exclusion" ||
		len(r.Violations[0].Trace.Steps) != 11 || r.Stats.Distinct == 0 {
		t.Errorf("unexpected JSON result: %+v", r)
	}
}

// Progress lines go to stderr only on a terminal; a buffer gets none.
func TestQuietWhenNotATerminal(t *testing.T) {
	_, _, errs := call("check", "ra", "--requests", "2")
	if errs != "" {
		t.Errorf("stderr not empty: %q", errs)
	}
}

func TestSuite(t *testing.T) {
	// A spec's test file is a suite: its check blocks are rows.
	mutants := filepath.Join("..", "..", "specs", "ra", "testdata", "mutants.txt")
	code, out, errs := call("suite", mutants)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{"2 rows, 2 as expected, 0 mismatched", "--mutant=never-defer", "mutual-exclusion", "no-deadlock"} {
		if !strings.Contains(out, want) {
			t.Errorf("suite output lacks %q:\n%s", want, out)
		}
	}
	// Rows checked concurrently print the same table, in the file's order.
	if code, par, errs := call("suite", "--jobs", "3", mutants); code != 0 || par != out {
		t.Errorf("--jobs 3: exit %d %s\n%s\nwant\n%s", code, errs, par, out)
	}
	if code, _, errs := call("suite", "--jobs", "-1", mutants); code != 2 || strings.Count(errs, "\n") != 1 {
		t.Errorf("--jobs -1: exit %d, stderr %q", code, errs)
	}
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "s.suite")
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	// A wrong expectation is a mismatch: exit 1, in either format.
	if code, out, _ := call("suite", write("ra --missing=1:0 => verified\n")); code != 1 || !strings.Contains(out, "MISMATCH") {
		t.Errorf("mismatch: exit %d\n%s", code, out)
	}
	if code, out, _ := call("suite", write("check ra --missing=1:0\n----\nverified distinct=1\n")); code != 1 || !strings.Contains(out, "MISMATCH") {
		t.Errorf("test-file mismatch: exit %d\n%s", code, out)
	}
	for name, text := range map[string]string{
		"no-arrow":      "ra --nodes=3\n",
		"unknown-spec":  "paxos => verified\n",
		"bad-verdict":   "ra => maybe\n",
		"bad-flag":      "ra --bogus => verified\n",
		"bad-config":    "ra --missing=9:0 => verified\n",
		"empty":         "# nothing\n",
		"bad-strategy":  "ra --strategy=zigzag => verified\n",
		"only-comments": "\n\n",
		"late-bad-row":  "ra --nodes=4 => verified\nra --missing=9:0 => verified\n",
		"stray-word":    "ra --nodes=3 missing=1:0 => verified\n",
		"no-separator":  "check ra\nverified\n----\n",
		"bad-command":   "simulate ra\n----\nverified\n",
		"test-file-bad": "check ra --missing=9:0\n----\nverified\n",
	} {
		code, _, errs := call("suite", write(text))
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q", name, code, errs)
		}
	}
}

// The first Ctrl-C closes the search's interrupt channel (the search then
// stops as Incomplete) and says so on stderr, instead of killing the process.
func TestInterruptOnSignal(t *testing.T) {
	var errs strings.Builder
	stop, release := interruptOnSignal(&errs)
	defer release()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stop:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not close the interrupt channel")
	}
	if !strings.Contains(errs.String(), "interrupted") {
		t.Errorf("stderr: %q", errs.String())
	}
}
