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
	port := freePort(t)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	cargs := append([]string{"check"}, args...)
	cargs = append(cargs, "--distributed", "--workers", strconv.Itoa(n), "--listen", listen, "--json", "--quiet", "--timeout", "2m")
	coord, out, errs := cliProcess(t, cargs...)
	var workers []*exec.Cmd
	var werrs []*bytes.Buffer
	for k := 0; k < n; k++ {
		w, _, werr := cliProcess(t, "worker", "--nats", "nats://"+listen, "--wait", "30s")
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
	return r, code, errs.String()
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
			var out, serr bytes.Buffer
			inCode := run(append(append([]string{"check"}, row.args...), "--workers", "3", "--json", "--quiet"), &out, &serr)
			var in distResult
			if err := json.Unmarshal(out.Bytes(), &in); err != nil {
				t.Fatalf("in process: %v: %s", err, serr.String())
			}
			inJSON, _ := json.Marshal(in)
			distJSON, _ := json.Marshal(dist)
			if code != inCode || string(inJSON) != string(distJSON) {
				t.Errorf("distributed (exit %d) differs from in process (exit %d):\n%s\n%s\nstderr: %s", code, inCode, distJSON, inJSON, errs)
			}
		})
	}
}

// A worker killed mid-run, or a worker that never comes, stops the search
// as incomplete with a message naming it: never a verdict.
func TestDistributedWorkerLost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	args := []string{"ra", "--nodes", "4"}
	// Indexes follow the order of joining: the killed process says its own.
	index := regexp.MustCompile(`worker (\d+) of 3`)
	killed := ""
	r, code, errs := runCluster(t, args, 3, func(ws []*exec.Cmd, werrs []*bytes.Buffer) {
		time.Sleep(300 * time.Millisecond)
		if m := index.FindStringSubmatch(werrs[1].String()); m != nil {
			killed = "worker " + m[1] + " "
		}
		_ = ws[1].Process.Signal(syscall.SIGKILL)
	})
	if code != exitIncomplete || r.Verdict != "incomplete" {
		t.Fatalf("exit %d, verdict %q after a worker was killed; stderr:\n%s", code, r.Verdict, errs)
	}
	t.Logf("limit: %s", r.Limit)
	if killed == "" || !strings.Contains(r.Limit, killed) {
		t.Errorf("the limit %q does not name the lost worker", r.Limit)
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
		{"check", "ra", "--distributed", "--workers", "2", "--checkpoint", t.TempDir()},
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
