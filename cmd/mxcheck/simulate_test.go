package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSimulateCLI: exit codes, the seed that repeats a violating run, and
// the files simulate writes.
func TestSimulateCLI(t *testing.T) {
	dir := t.TempDir()
	trace, html, page := filepath.Join(dir, "t.json"), filepath.Join(dir, "h.html"), filepath.Join(dir, "page.html")
	code, out, errs := call("simulate", "ra", "--churn", "1", "--runs", "500", "--seed", "5", "--trace-out", trace, "--history-html", html, "--html", page)
	if code != 1 || !strings.Contains(out, "VIOLATION of invariant mutual-exclusion") {
		t.Fatalf("exit %d, stderr %s\n%s", code, errs, out)
	}
	m := regexp.MustCompile(`--runs 1 --seed (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no seed to repeat the run:\n%s", out)
	}
	first := regexp.MustCompile(`(?m)^run \d+ \(seed \d+\) reached a violation after (\d+) steps; minimised to (\d+)`).FindStringSubmatch(out)
	code, again, _ := call("simulate", "ra", "--churn", "1", "--runs", "1", "--seed", m[1])
	if code != 1 || !strings.Contains(again, "run 0 (seed "+m[1]+") reached a violation after "+first[1]+" steps; minimised to "+first[2]) {
		t.Errorf("--runs 1 --seed %s did not repeat the run (%s):\n%s", m[1], first[0], again)
	}
	if code, out, _ := call("replay", trace, "--history-html", filepath.Join(dir, "r.html")); code != 0 || !strings.Contains(out, "reproduced") {
		t.Errorf("replay of the simulated trace: exit %d\n%s", code, out)
	}
	for _, f := range []string{html, filepath.Join(dir, "r.html"), page} {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "<html") {
			t.Errorf("%s: %v, %d bytes", f, err, len(b))
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"simulate", "ra", "--runs", "200"}, 0, "outcome: no violation found in 200 runs"},
		{[]string{"simulate", "ra", "--nodes", "3", "--runs", "1000000", "--timeout", "100ms"}, 3, "outcome: INCOMPLETE (stopped by timeout"},
		{[]string{"simulate", "ra", "--runs", "0", "--timeout", "100ms"}, 0, "outcome: no violation found in"},
		{[]string{"simulate", "lme", "--property", "no-deadlock", "--runs", "2000"}, 1, "VIOLATION of deadlock"},
		{[]string{"check", "ra", "--churn", "1", "--strategy", "dfs", "--minimize"}, 1, "VIOLATION of invariant mutual-exclusion after 11 steps"},
		{[]string{"simulate", "--help"}, 0, "--runs"},
	} {
		code, out, errs := call(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("%v: exit %d (want %d), stderr %s\n%s", tc.args, code, tc.code, errs, out)
		}
	}
	for _, args := range [][]string{
		{"simulate"},
		{"simulate", "nope"},
		{"simulate", "ra", "--seed", "x"},
		{"simulate", "ra", "--runs", "0"},
		{"simulate", "ra", "--depth", "0"},
		{"simulate", "ra", "--property", "nope"},
		{"simulate", "ra", "--nodes", "99"},
	} {
		code, _, errs := call(args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "mxcheck: ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
	}
}

// TestHistoryCLI: mxcheck history's exit codes, one-line errors with the
// line number, and the picture.
func TestHistoryCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.jsonl",
		`{"process": 0, "type": "invoke", "f": "acquire", "time": 0}`,
		`{"process": 0, "type": "ok", "f": "acquire", "time": 10}`,
		`{"process": 1, "type": "invoke", "f": "acquire", "time": 5}`,
		`{"process": 0, "type": "invoke", "f": "release", "time": 20}`,
		`{"process": 0, "type": "ok", "f": "release", "time": 30}`,
		`{"process": 1, "type": "ok", "f": "acquire", "time": 40}`)
	bad := write("bad.jsonl",
		`{"process": 0, "type": "invoke", "f": "acquire", "key": "a", "time": 0}`,
		`{"process": 0, "type": "ok", "f": "acquire", "key": "a", "time": 10}`,
		`{"process": 1, "type": "invoke", "f": "acquire", "key": "b", "time": 11}`,
		`{"process": 1, "type": "ok", "f": "acquire", "key": "b", "time": 12}`)
	malformed := write("malformed.jsonl",
		`{"process": 0, "type": "invoke", "f": "acquire", "time": 0}`,
		``,
		`{"process": 0, "type": "ok", "f": "acquire", "time": "soon"}`)
	var hard []string
	for p := 0; p < 40; p++ {
		hard = append(hard, `{"process": `+strconv.Itoa(p)+`, "type": "invoke", "f": "release", "time": 0}`, `{"process": `+strconv.Itoa(p)+`, "type": "info", "f": "release", "time": 1}`)
	}
	hard = append(hard, `{"process": 40, "type": "invoke", "f": "acquire", "time": 2}`, `{"process": 40, "type": "ok", "f": "acquire", "time": 3}`,
		`{"process": 41, "type": "invoke", "f": "acquire", "time": 4}`, `{"process": 41, "type": "ok", "f": "acquire", "time": 5}`)
	hardPath := write("hard.jsonl", hard...)
	html := filepath.Join(dir, "bad.html")
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"history", ok}, 0, "linearizable"},
		{[]string{"history", bad, "--html", html}, 1, "not linearizable"},
		{[]string{"history", bad, "--by", "key"}, 0, ": linearizable"},
		{[]string{"history", bad, "--model", "semaphore=2"}, 0, "against semaphore=2: linearizable"},
		{[]string{"history", hardPath, "--timeout", "50ms"}, 3, "unknown (timed out)"},
	} {
		code, out, errs := call(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("%v: exit %d (want %d), stderr %s\n%s", tc.args, code, tc.code, errs, out)
		}
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "<html") {
		t.Errorf("--html: %v, %d bytes", err, len(b))
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"history", malformed}, "malformed.jsonl: line 3: "},
		{[]string{"history", ok, "--model", "lock"}, "--model: unknown model"},
		{[]string{"history", ok, "--model", "semaphore=0"}, "--model: semaphore=K"},
		{[]string{"history", ok, "--model", "fenced-mutex"}, "returned no token"},
		{[]string{"history", filepath.Join(dir, "none.jsonl")}, "cannot open"},
		{[]string{"history"}, "exactly one history file"},
	} {
		code, _, errs := call(tc.args...)
		if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.err) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tc.args, code, errs, tc.err)
		}
	}
}
