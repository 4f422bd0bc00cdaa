package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// swarmRun runs members 0..n-1 of a swarm of spec args into dir and returns
// their exit codes.
func swarmRun(t *testing.T, dir string, n int, args ...string) []int {
	t.Helper()
	var codes []int
	for i := 0; i < n; i++ {
		a := append([]string{"swarm"}, args...)
		a = append(a, "--index", strconv.Itoa(i), "--of", strconv.Itoa(n), "--out", dir)
		code, out, errs := call(a...)
		if !strings.Contains(out, "wrote "+filepath.Join(dir, memberFileName(i, n))) {
			t.Fatalf("member %d: exit %d\n%s%s", i, code, out, errs)
		}
		codes = append(codes, code)
	}
	return codes
}

// TestSwarmFindsMutant: a swarm of 4 finds RA's never-defer mutant;
// swarm-report names the members that found it, prints the shortest trace
// like check does, and writes it for replay, which reproduces it.
func TestSwarmFindsMutant(t *testing.T) {
	dir := t.TempDir()
	for i, code := range swarmRun(t, dir, 4, "ra", "--mutant", "never-defer") {
		if code != exitViolated {
			t.Fatalf("member %d: exit %d", i, code)
		}
	}
	traces := filepath.Join(t.TempDir(), "traces")
	code, out, errs := call("swarm-report", dir, "--trace-out-all", traces)
	if code != exitViolated {
		t.Fatalf("swarm-report: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"4 of 4 member files",
		"invariant mutual-exclusion: found by members 0, 1, 2, 3 of 4; shortest trace",
		"VIOLATION of invariant mutual-exclusion after",
		"  0. initial state\n",
		"state that breaks mutual-exclusion:",
		"VIOLATION FOUND by 4 of 4 members (a swarm finds bugs; it proves nothing)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("swarm-report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "VERIFIED") {
		t.Errorf("swarm-report says VERIFIED:\n%s", out)
	}
	// The shortest trace is the least of the members' lengths.
	m := regexp.MustCompile(`shortest trace (\d+) steps`).FindStringSubmatch(out)
	lens := regexp.MustCompile(`mutual-exclusion \((\d+) steps\)`).FindAllStringSubmatch(out, -1)
	if m == nil || len(lens) != 4 {
		t.Fatalf("no lengths in:\n%s", out)
	}
	for _, l := range lens {
		if a, _ := strconv.Atoi(l[1]); a < atoi(m[1]) {
			t.Fatalf("a member found %s steps, the report's shortest is %s", l[1], m[1])
		}
	}
	path := filepath.Join(traces, "mutual-exclusion.itf.json")
	if code, out, errs := call("replay", path); code != 0 || !strings.Contains(out, "still violates mutual-exclusion") || !strings.Contains(out, m[1]+" steps") {
		t.Fatalf("replay of the shortest trace: exit %d %s%s", code, out, errs)
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// TestSwarmCorrectConfig: on a configuration without a violation every
// member with exact storage runs to its end and visits check's state
// count; the report says none was found and that this is not a proof.
// Missing or incomplete members are named.
func TestSwarmCorrectConfig(t *testing.T) {
	code, out, _ := call("check", "ra", "--nodes", "3")
	if code != 0 {
		t.Fatalf("check: exit %d", code)
	}
	states := regexp.MustCompile(`distinct states: (\d+)`).FindStringSubmatch(out)[1]
	dir := t.TempDir()
	for i, code := range swarmRun(t, dir, 4, "ra", "--nodes", "3", "--seed", "11") {
		if code != exitOK {
			t.Fatalf("member %d: exit %d", i, code)
		}
		var mf memberFile
		raw, err := os.ReadFile(filepath.Join(dir, memberFileName(i, 4)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &mf); err != nil {
			t.Fatal(err)
		}
		if !mf.Complete || strconv.FormatInt(mf.States, 10) != states || mf.Verdict != "no-violation" {
			t.Fatalf("member %d: complete %v, %d states (check: %s), %s", i, mf.Complete, mf.States, states, mf.Verdict)
		}
	}
	code, out, errs := call("swarm-report", dir)
	if code != 0 || !strings.Contains(out, "no violation found by 4 of 4 members — not a proof; mxcheck check gives a verdict") ||
		!strings.Contains(out, "4 of 4 members ran to their end") || strings.Contains(out, "VERIFIED") {
		t.Fatalf("swarm-report: exit %d\n%s%s", code, out, errs)
	}
	// A member lost, another stopped by a limit.
	if err := os.Remove(filepath.Join(dir, memberFileName(3, 4))); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := call("swarm", "ra", "--nodes", "3", "--seed", "11", "--index", "2", "--of", "4", "--out", dir, "--max-states", "100"); code != exitIncomplete || !strings.Contains(out, "INCOMPLETE (stopped by max-states)") {
		t.Fatalf("member stopped by max-states: exit %d\n%s", code, out)
	}
	code, out, _ = call("swarm-report", dir)
	if code != 0 || !strings.Contains(out, "missing members: 3\n") ||
		!strings.Contains(out, "no violation found by 3 of 4 members — not a proof (1 member file missing, 1 member incomplete)") {
		t.Fatalf("swarm-report with a missing and an incomplete member: exit %d\n%s", code, out)
	}
}

// TestSwarmMemberIsDeterministic: the same member with the same seed
// writes the same file and prints the same summary (but for the time);
// member 1 explores in another order than member 0.
func TestSwarmMemberIsDeterministic(t *testing.T) {
	times := regexp.MustCompile(`(?m)("seconds": )[0-9.e-]+|time: [0-9.]+s  states/s: [0-9]+|(?m)^wrote .*$`)
	member := func(dir string, i string) (string, string) {
		code, out, errs := call("swarm", "ra", "--churn", "1", "--index", i, "--of", "4", "--seed", "5", "--out", dir)
		if code != exitViolated {
			t.Fatalf("exit %d %s%s", code, out, errs)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "member-"+i+"-of-4.json"))
		if err != nil {
			t.Fatal(err)
		}
		return times.ReplaceAllString(out, "${1}0"), times.ReplaceAllString(string(raw), "${1}0")
	}
	dir := t.TempDir()
	out1, file1 := member(dir, "1")
	out2, file2 := member(dir, "1")
	if out1 != out2 || file1 != file2 {
		t.Fatalf("member 1 twice differs:\n%s\n%s", out1, out2)
	}
	_, file0 := member(t.TempDir(), "0")
	trace := func(file string) string {
		var mf memberFile
		if err := json.Unmarshal([]byte(file), &mf); err != nil {
			t.Fatal(err)
		}
		return string(mf.Violations[0].Trace)
	}
	if trace(file0) == trace(file1) {
		t.Fatal("members 0 and 1 found the same first trace")
	}
}

// TestSwarmIndexFromEnvironment: without --index the member is
// JOB_COMPLETION_INDEX (a Kubernetes Indexed Job).
func TestSwarmIndexFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	code, out, errs := call("swarm", "tokenlock", "--of", "3", "--out", dir)
	if code != 0 || !strings.Contains(out, "swarm member 2 of 3") {
		t.Fatalf("exit %d %s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "member-2-of-3.json")); err != nil {
		t.Fatal(err)
	}
}

// TestSwarmBadInput: bad flags, indexes and member files are one line on
// stderr and exit 2.
func TestSwarmBadInput(t *testing.T) {
	dir := t.TempDir()
	out := func(sub string) string { return filepath.Join(dir, sub) }
	swarmRun(t, out("good"), 2, "tokenlock")
	swarmRun(t, out("seed2"), 2, "tokenlock", "--seed", "2")
	swarmRun(t, out("other"), 2, "tokenlock", "--requests", "2")
	mix := func(name string, files ...string) string {
		d := out(name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(out(f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, filepath.Base(f)), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	good0, err := os.ReadFile(out("good/member-0-of-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		d := out(name)
		os.MkdirAll(d, 0o755)
		if err := os.WriteFile(filepath.Join(d, "member-0-of-2.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return d
	}
	renamed := mix("renamed")
	os.WriteFile(filepath.Join(renamed, "member-1-of-2.json"), good0, 0o644)
	os.MkdirAll(out("empty"), 0o755)
	t.Setenv("JOB_COMPLETION_INDEX", "")
	os.Unsetenv("JOB_COMPLETION_INDEX")
	base := []string{"swarm", "tokenlock", "--out", out("x")}
	for _, tc := range []struct {
		name string
		env  string // JOB_COMPLETION_INDEX, "-" for unset
		args []string
		msg  string
	}{
		{"no-spec", "-", []string{"swarm"}, "needs a spec name"},
		{"unknown-spec", "-", []string{"swarm", "nope", "--of", "1", "--index", "0"}, "unknown spec"},
		{"no-of", "-", append(base, "--index", "0"), "needs --of N"},
		{"of-zero", "-", append(base, "--index", "0", "--of", "0"), "needs --of N"},
		{"index-too-big", "-", append(base, "--index", "4", "--of", "4"), "member index 4 is not in 0..3"},
		{"index-negative", "-", append(base, "--index", "-1", "--of", "4"), "member index -1"},
		{"no-index", "-", append(base, "--of", "4"), "needs --index I (or JOB_COMPLETION_INDEX"},
		{"env-not-int", "x1", append(base, "--of", "4"), `JOB_COMPLETION_INDEX="x1" is not a member index`},
		{"env-too-big", "4", append(base, "--of", "4"), "member index 4 is not in 0..3"},
		{"no-out", "-", []string{"swarm", "tokenlock", "--index", "0", "--of", "1"}, "needs --out DIR"},
		{"hashcompact", "-", append(base, "--index", "0", "--of", "1", "--storage", "hashcompact"), "exact storage already keeps 64-bit fingerprints"},
		{"storage", "-", append(base, "--index", "0", "--of", "1", "--storage", "disk"), `unknown storage "disk"`},
		{"bits-without-bitstate", "-", append(base, "--index", "0", "--of", "1", "--bitstate-bits", "20"), "applies to --storage bitstate only"},
		{"bits-range", "-", append(base, "--index", "0", "--of", "1", "--storage", "bitstate", "--bitstate-bits", "50"), "--bitstate-bits: want 13..40"},
		{"seed", "-", append(base, "--index", "0", "--of", "1", "--seed", "-3"), "--seed"},
		{"workers", "-", append(base, "--index", "0", "--of", "1", "--workers", "2"), "unknown flag: --workers"},
		{"liveness", "-", append(base, "--index", "0", "--of", "1", "--liveness"), "unknown flag: --liveness"},
		{"fingerprint", "-", append(base, "--index", "0", "--of", "1", "--fingerprint", "32"), "--fingerprint"},
		{"report-no-dir", "-", []string{"swarm-report"}, "exactly one directory"},
		{"report-missing-dir", "-", []string{"swarm-report", out("nowhere")}, "no such file"},
		{"report-empty", "-", []string{"swarm-report", out("empty")}, "no member files"},
		{"report-other-seed", "-", []string{"swarm-report", mix("s", "good/member-0-of-2.json", "seed2/member-1-of-2.json")}, "are members of different swarms (seed 1 vs 2)"},
		{"report-other-params", "-", []string{"swarm-report", mix("p", "good/member-0-of-2.json", "other/member-1-of-2.json")}, `different swarms (--requests "1" vs "2")`},
		{"report-renamed", "-", []string{"swarm-report", renamed}, "holds member 0 of 2"},
		{"report-not-json", "-", []string{"swarm-report", write("nj", "hello")}, "not a swarm member file"},
		{"report-trailing", "-", []string{"swarm-report", write("tr", string(good0)+"{}")}, "data after the JSON object"},
		{"report-unknown-field", "-", []string{"swarm-report", write("uf", strings.Replace(string(good0), `"format"`, `"formatt": 1, "format"`, 1))}, "unknown field"},
		{"report-format", "-", []string{"swarm-report", write("fm", strings.Replace(string(good0), memberFormat, "other", 1))}, "not a swarm member file"},
		{"report-verdict", "-", []string{"swarm-report", write("vd", strings.Replace(string(good0), `"no-violation"`, `"violated"`, 1))}, "verdict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env == "-" {
				os.Unsetenv("JOB_COMPLETION_INDEX")
			} else {
				os.Setenv("JOB_COMPLETION_INDEX", tc.env)
			}
			defer os.Unsetenv("JOB_COMPLETION_INDEX")
			code, o, e := call(tc.args...)
			if code != exitUsage || !strings.Contains(e, tc.msg) || strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "mxcheck: ") {
				t.Fatalf("exit %d, stdout %q, stderr %q (want %q)", code, o, e, tc.msg)
			}
		})
	}
}

// TestSwarmInHelp: mxcheck --help lists both commands.
func TestSwarmInHelp(t *testing.T) {
	_, out, _ := call("--help")
	for _, want := range []string{"mxcheck swarm SPEC --index I --of N --out DIR", "mxcheck swarm-report DIR"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	for _, cmd := range []string{"swarm", "swarm-report"} {
		if code, out, _ := call(cmd, "--help"); code != 0 || !strings.Contains(out, "proves nothing") {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, out)
		}
	}
}
