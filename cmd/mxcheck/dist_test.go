package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// distRow is a golden row of a spec's scenario files: its check command
// line and the distinct states it pins (under the scenario harness's
// options, which are not the CLI's defaults).
type distRow struct {
	args     []string
	distinct int
}

// goldenRows returns, per spec, the first few rows of its scenario files
// that a distributed search can run (a BFS without liveness, POR or
// checkpoints) with at most max distinct states.
func goldenRows(t *testing.T, perSpec, max int) []distRow {
	files, _ := filepath.Glob("../../specs/*/testdata/*.txt")
	sort.Strings(files)
	distinct := regexp.MustCompile(`distinct=(\d+)`)
	count := map[string]int{}
	var rows []distRow
	for _, f := range files {
		if strings.Contains(f, "heavy") || strings.Contains(f, "n4") || strings.Contains(f, "liveness") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		var cur []string
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "check ") {
				cur = nil
				fields := strings.Fields(line)[1:]
				ok := true
				for _, a := range fields {
					if strings.HasPrefix(a, "store=") || strings.Contains(a, "=") && !strings.HasPrefix(a, "--") {
						continue
					}
					for _, bad := range []string{"--liveness", "--por", "--strategy", "--max-depth", "--workers", "--choices"} {
						if strings.HasPrefix(a, bad) {
							ok = false
						}
					}
					cur = append(cur, a)
				}
				if !ok || count[fields[0]] >= perSpec {
					cur = nil
				}
				continue
			}
			if m := distinct.FindStringSubmatch(line); m != nil && cur != nil {
				n, _ := strconv.Atoi(m[1])
				if n <= max {
					rows = append(rows, distRow{args: cur, distinct: n})
					count[cur[0]]++
				}
				cur = nil
			}
		}
	}
	return rows
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// distResult is what a distributed and an in-process run must agree on.
type distResult struct {
	Verdict    string `json:"verdict"`
	Limit      string `json:"limit"`
	Properties []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"properties"`
	Violations []struct {
		Property string `json:"property"`
		Trace    struct {
			Steps []struct {
				Label string `json:"label"`
			} `json:"steps"`
		} `json:"trace"`
	} `json:"violations"`
	Stats struct {
		Distinct    int `json:"distinct"`
		Transitions int `json:"transitions"`
		Depth       int `json:"depth"`
	} `json:"stats"`
}

// runCluster runs check args as a coordinator process with its own NATS
// server and n worker processes; it returns the coordinator's JSON result,
// its exit code and its stderr. kill, when not nil, runs once the workers
// have joined, with the worker processes.
func runCluster(t *testing.T, args []string, n int, kill func([]*exec.Cmd, []*bytes.Buffer)) (distResult, int, string) {
	t.Helper()
	r, code, errs, _ := runClusterEnv(t, args, n, nil, kill)
	return r, code, errs
}

// runClusterEnv is runCluster with more environment for the workers; it
// also returns the coordinator's whole JSON.
func runClusterEnv(t *testing.T, args []string, n int, env []string, kill func([]*exec.Cmd, []*bytes.Buffer)) (distResult, int, string, []byte) {
	t.Helper()
	port := freePort(t)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	cargs := append([]string{"check"}, args...)
	cargs = append(cargs, "--distributed", "--workers", strconv.Itoa(n), "--listen", listen, "--json", "--quiet", "--timeout", "2m")
	coord, out, errs := cliProcess(t, cargs...)
	var workers []*exec.Cmd
	var werrs []*bytes.Buffer
	for k := 0; k < n; k++ {
		w, _, werr := cliProcessEnv(t, env, "worker", "--nats", "nats://"+listen, "--wait", "30s")
		workers = append(workers, w)
		werrs = append(werrs, werr)
	}
	if kill != nil {
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errs.String(), "workers joined") && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		kill(workers, werrs)
	}
	code := 0
	if err := coord.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	for _, w := range workers {
		done := make(chan struct{})
		go func() { _ = w.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = w.Process.Kill()
			t.Errorf("a worker did not end with the run")
		}
	}
	var r distResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("coordinator output: %v\n%s\nstderr: %s", err, out, errs)
	}
	return r, code, errs.String(), out.Bytes()
}

// inProcess runs check args in this process with the JSON output.
func inProcess(t *testing.T, args []string) (distResult, int) {
	t.Helper()
	var out, serr bytes.Buffer
	code := run(append(append([]string{"check"}, args...), "--workers", "3", "--json", "--quiet"), &out, &serr)
	var in distResult
	if err := json.Unmarshal(out.Bytes(), &in); err != nil {
		t.Fatalf("in process: %v: %s", err, serr.String())
	}
	return in, code
}

// sameResult fails the test unless a distributed result is the in-process
// one.
func sameResult(t *testing.T, dist distResult, code int, in distResult, inCode int, errs string) {
	t.Helper()
	inJSON, _ := json.Marshal(in)
	distJSON, _ := json.Marshal(dist)
	if code != inCode || string(inJSON) != string(distJSON) {
		t.Errorf("distributed (exit %d) differs from in process (exit %d):\n%s\n%s\nstderr: %s", code, inCode, distJSON, inJSON, errs)
	}
}

// distExtra is what else a distributed run's JSON says.
type distExtra struct {
	Warnings   []string `json:"warnings"`
	Checkpoint *struct {
		ResumedFrom int `json:"resumed_from_level"`
		Written     int `json:"written"`
	} `json:"checkpoint"`
}

// A coordinator and 3 worker processes over a real NATS server give the
// in-process search's counts, verdicts, statuses and counterexamples on
// golden rows of every spec.
func TestDistributedProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	rows := goldenRows(t, 2, 40000)
	specs := map[string]bool{}
	for _, r := range rows {
		specs[r.args[0]] = true
	}
	if len(specs) < 8 {
		t.Fatalf("golden rows of only %d specs: %v", len(specs), specs)
	}
	for _, row := range rows {
		t.Run(strings.Join(row.args, " "), func(t *testing.T) {
			dist, code, errs := runCluster(t, row.args, 3, nil)
			in, inCode := inProcess(t, row.args)
			sameResult(t, dist, code, in, inCode, errs)
		})
	}
}

// A worker killed (SIGKILL) in the middle of a level, during the barrier
// where the level's ids are handed out, or while it writes its checkpoint
// file: its partitions move to the two others, which go back to the last
// checkpoint (or, without checkpoints, to the initial states), and the run
// ends with exactly the in-process counts, verdicts and counterexamples.
func TestDistributedWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, tc := range []struct {
		args     []string
		fault    string
		ckpt     bool
		compress bool
	}{
		{[]string{"maekawa", "--churn=1", "--requesters=0,3", "--variant=yield-fail-displaced"}, "mid-level:1:12", true, false},
		{[]string{"maekawa", "--churn=1", "--requesters=0,3", "--variant=yield-fail-displaced"}, "mid-level:1:12", false, true},
		{[]string{"ra", "--nodes=3"}, "barrier:1:9", true, false},
		{[]string{"ra", "--nodes=3"}, "checkpoint:1:10", true, false},
		{[]string{"lme", "--disconnects=1", "--continue"}, "barrier:2:7", true, false},
		{[]string{"lme", "--disconnects=1"}, "stop:1:15", true, false},
		{[]string{"lme", "--disconnects=1", "--continue"}, "checkpoint:0:9", true, true},
	} {
		t.Run(tc.fault+" "+strings.Join(tc.args, " ")+fmt.Sprintf(" checkpoints=%v compress=%v", tc.ckpt, tc.compress), func(t *testing.T) {
			args := append([]string{}, tc.args...)
			args = append(args, "--worker-timeout", "2s")
			if tc.compress {
				args = append(args, "--compress")
			}
			if tc.ckpt {
				args = append(args, "--checkpoint", t.TempDir(), "--checkpoint-every", "0")
			}
			member := strings.Split(tc.fault, ":")[1]
			var werrs []*bytes.Buffer
			dist, code, errs, raw := runClusterEnv(t, args, 3, []string{"MXCHECK_FAULT=" + tc.fault}, func(_ []*exec.Cmd, we []*bytes.Buffer) { werrs = we })
			in, inCode := inProcess(t, tc.args)
			sameResult(t, dist, code, in, inCode, errs)
			var extra distExtra
			_ = json.Unmarshal(raw, &extra)
			lost := "worker " + member + " stopped responding"
			if len(extra.Warnings) == 0 || !strings.Contains(extra.Warnings[0], lost) {
				t.Errorf("the run does not say %q: warnings %q", lost, extra.Warnings)
			}
			from := "from the initial states"
			if tc.ckpt {
				from = "from the checkpoint of level"
			}
			if len(extra.Warnings) > 0 && !strings.Contains(extra.Warnings[0], from) {
				t.Errorf("the recovery was not %s: %q", from, extra.Warnings[0])
			}
			// The member that was killed said so before it died; the
			// others ended with the run.
			killed := 0
			for _, we := range werrs {
				if strings.Contains(we.String(), "worker "+member+" of 3") && !strings.Contains(we.String(), "the run is over") {
					killed++
				}
			}
			if killed != 1 {
				t.Errorf("%d worker processes were member %s and did not see the end", killed, member)
			}
		})
	}
}

// Every worker lost: the search stops as incomplete, naming the lost
// worker, never with a verdict.
func TestDistributedAllWorkersLost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	args := []string{"ra", "--nodes", "4", "--worker-timeout", "2s"}
	r, code, errs := runCluster(t, args, 1, func(ws []*exec.Cmd, _ []*bytes.Buffer) {
		time.Sleep(300 * time.Millisecond)
		_ = ws[0].Process.Signal(syscall.SIGKILL)
	})
	if code != exitIncomplete || r.Verdict != "incomplete" {
		t.Fatalf("exit %d, verdict %q after the only worker was killed; stderr:\n%s", code, r.Verdict, errs)
	}
	if !strings.Contains(r.Limit, "worker 0 stopped responding") || !strings.Contains(r.Limit, "no worker is left") {
		t.Errorf("the limit %q does not name the lost worker", r.Limit)
	}
}

// The coordinator killed (SIGKILL) after a few checkpoints, its workers
// leave; a new coordinator started with --resume on the same directory,
// with new workers, ends with the uninterrupted run's result.
func TestDistributedCoordinatorRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	spec := []string{"maekawa", "--churn=1", "--requesters=0,3", "--variant=yield-fail-displaced"}
	dir := t.TempDir()
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cargs := append(append([]string{"check"}, spec...), "--distributed", "--workers", "3", "--listen", listen,
		"--checkpoint", dir, "--checkpoint-every", "0", "--json", "--quiet", "--timeout", "2m")
	coord, _, cerrs := cliProcess(t, cargs...)
	var ws []*exec.Cmd
	for k := 0; k < 3; k++ {
		w, _, _ := cliProcess(t, "worker", "--nats", "nats://"+listen, "--wait", "30s")
		ws = append(ws, w)
	}
	waitCheckpoint(t, dir, 10)
	_ = coord.Process.Signal(syscall.SIGKILL)
	_ = coord.Wait()
	for _, w := range ws {
		done := make(chan error, 1)
		go func() { done <- w.Wait() }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("a worker ended well without its coordinator")
			}
		case <-time.After(30 * time.Second):
			_ = w.Process.Kill()
			t.Errorf("a worker did not leave when its coordinator was killed")
		}
	}
	at := newestCheckpoint(dir)
	dist, code, errs, raw := runClusterEnv(t, append(append([]string{}, spec...), "--resume", dir, "--checkpoint-every", "0"), 3, nil, nil)
	in, inCode := inProcess(t, spec)
	sameResult(t, dist, code, in, inCode, errs+cerrs.String())
	var extra distExtra
	_ = json.Unmarshal(raw, &extra)
	if extra.Checkpoint == nil || extra.Checkpoint.ResumedFrom != at || at < 10 {
		t.Fatalf("resumed from %+v, the newest checkpoint was at level %d", extra.Checkpoint, at)
	}
	// It went on from there: only the levels after the checkpoint were
	// expanded (a checkpoint after each), not the whole search again.
	if w := extra.Checkpoint.Written; w < 1 || w > dist.Stats.Depth+1-at {
		t.Errorf("the resumed run wrote %d checkpoints; from level %d to depth %d it writes at most %d", w, at, dist.Stats.Depth, dist.Stats.Depth+1-at)
	}
}

// Bad distributed command lines: one error line, exit 2.
func TestDistributedBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"check", "ra", "--distributed"},
		{"check", "ra", "--listen", "127.0.0.1:5"},
		{"check", "ra", "--nats", "nats://127.0.0.1:5"},
		{"check", "ra", "--distributed", "--workers", "2", "--listen", "nope"},
		{"check", "ra", "--distributed", "--workers", "2", "--listen", "127.0.0.1:99999"},
		{"check", "ra", "--distributed", "--workers", "2", "--listen", "127.0.0.1:5", "--nats", "nats://x:1"},
		{"check", "ra", "--distributed", "--workers", "2", "--liveness"},
		{"check", "ra", "--distributed", "--workers", "2", "--por"},
		{"check", "ra", "--distributed", "--workers", "2", "--strategy", "dfs"},
		{"check", "ra", "--distributed", "--workers", "2", "--worker-timeout", "10ms"},
		{"check", "ra", "--worker-timeout", "3s"},
		{"check", "ra", "--compress"},
		{"worker"},
		{"worker", "--nats", "nats://127.0.0.1:1", "--wait", "0s"},
		{"worker", "--nats", "nats://127.0.0.1:1", "--wait", "300ms"},
		{"worker", "extra", "--nats", "nats://127.0.0.1:1"},
	} {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		lines := strings.Count(strings.TrimSpace(errs.String()), "\n") + 1
		if code != exitUsage || lines != 1 || strings.Contains(errs.String(), "goroutine") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs.String())
		}
	}
}
