package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/explore"
)

// TestMain lets a test start this binary as the mxcheck command: with
// MXCHECK_AS_CLI=1 it runs the command line and exits.
//
// MXCHECK_FAULT=POINT:MEMBER:LEVEL makes a distributed worker process kill
// itself (SIGKILL) when it is member MEMBER and reaches fault point POINT
// (explore.DistFault) at level LEVEL.
func TestMain(m *testing.M) {
	if os.Getenv("MXCHECK_AS_CLI") == "1" {
		if f := strings.Split(os.Getenv("MXCHECK_FAULT"), ":"); len(f) == 3 {
			member, _ := strconv.Atoi(f[1])
			level, _ := strconv.Atoi(f[2])
			explore.DistFault = func(point string, k, l int) {
				if point == f[0] && k == member && l == level {
					_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
					select {}
				}
			}
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// cliProcess starts mxcheck as a process of its own.
func cliProcess(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	return cliProcessEnv(t, nil, args...)
}

// cliProcessEnv starts mxcheck as a process of its own, with more
// environment variables.
func cliProcessEnv(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "MXCHECK_AS_CLI=1"), env...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out, &errs
}

// newestCheckpoint is the level of the newest checkpoint in dir, -1 if none.
func newestCheckpoint(dir string) int {
	names, _ := filepath.Glob(filepath.Join(dir, "ckpt-*"))
	if len(names) == 0 {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(names[len(names)-1]), "ckpt-"))
	if err != nil {
		return -1
	}
	return n
}

// waitCheckpoint polls dir until it holds a checkpoint at level ≥ level.
func waitCheckpoint(t *testing.T, dir string, level int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if newestCheckpoint(dir) >= level {
			return
		}
	}
	t.Fatalf("no checkpoint at level %d in %s", level, dir)
}

var summaryLines = regexp.MustCompile(`(?m)^(verdict: .*|distinct states: .*|sometimes .*|  \S+ +(holds|violated|unknown|unreached))$`)

func summary(out string) string { return strings.Join(summaryLines.FindAllString(out, -1), "\n") }

// The CLI as a real process: Ctrl-C (SIGINT) stops a checkpointed run as
// INCOMPLETE and prints the command that resumes it; that command, killed
// with SIGKILL once it has written a newer checkpoint, resumes again to the
// uninterrupted run's verdict, counts and property statuses.
func TestCheckpointProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("three model-checking processes")
	}
	args := []string{"check", "ra", "--nodes", "4", "--workers", "2", "--quiet"}
	code, want, errs := call(args...)
	if code != exitOK || summary(want) == "" {
		t.Fatalf("uninterrupted run: exit %d\n%s%s", code, want, errs)
	}
	dir := filepath.Join(t.TempDir(), "ck")
	// 1. Ctrl-C once a checkpoint exists.
	cmd, out, stderr := cliProcess(t, append(args, "--checkpoint", dir, "--checkpoint-every", "0")...)
	waitCheckpoint(t, dir, 8)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitIncomplete {
		t.Fatalf("interrupted run: %v, want exit %d\n%s%s", err, exitIncomplete, out, stderr)
	}
	if !strings.Contains(out.String(), "INCOMPLETE (stopped by interrupt") {
		t.Fatalf("interrupted run:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^  mxcheck (check .* --resume (\S+))$`).FindStringSubmatch(stderr.String())
	if m == nil || m[2] != dir {
		t.Fatalf("no resume command naming %s:\n%s", dir, stderr)
	}
	resume := strings.Fields(m[1])
	// 2. The resume command, killed outright after a newer checkpoint.
	before := newestCheckpoint(dir)
	cmd, out, stderr = cliProcess(t, resume...)
	waitCheckpoint(t, dir, before+2)
	cmd.Process.Signal(syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the resumed run finished before it was killed:\n%s", out)
	}
	// 3. Resume to the end.
	cmd, out, stderr = cliProcess(t, resume...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("last resume: %v\n%s%s", err, out, stderr)
	}
	if !strings.Contains(stderr.String(), "mxcheck: resumed at level") {
		t.Errorf("the last run did not say it resumed:\n%s", stderr)
	}
	if got := summary(out.String()); got != summary(want) {
		t.Fatalf("resumed twice:\n%s\nuninterrupted:\n%s", got, summary(want))
	}
}

// Checkpoint flags the run cannot honour, and a checkpoint of another
// configuration, are exit 2 with one line saying why.
func TestCheckpointBadInput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ck")
	if code, _, errs := call("check", "ra", "--quiet", "--checkpoint", dir, "--checkpoint-every", "0"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"dfs", []string{"check", "ra", "--strategy", "dfs", "--checkpoint", t.TempDir()}, "BFS only"},
		{"liveness", []string{"check", "ra", "--liveness", "--checkpoint", t.TempDir()}, "liveness"},
		{"every", []string{"check", "ra", "--checkpoint", t.TempDir(), "--checkpoint-every", "-1s"}, "must not be negative"},
		{"nothing-to-resume", []string{"check", "ra", "--resume", t.TempDir()}, "no checkpoint there"},
		{"other-nodes", []string{"check", "ra", "--nodes", "4", "--resume", dir}, `--nodes: "3" there, "4" here`},
		{"other-mutant", []string{"check", "ra", "--mutant", "defer-forever", "--resume", dir}, `--mutant: "none" there, "defer-forever" here`},
		{"occupied", []string{"check", "ra", "--checkpoint", dir}, "already holds a checkpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := call(tc.args...)
			if code != exitUsage || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", code, errs, tc.want)
			}
		})
	}
	// The finished run's last checkpoint resumes to the same result.
	code, out, errs := call("check", "ra", "--resume", dir)
	if code != exitOK || !strings.Contains(out, "distinct states: 3275  transitions: 10246  depth: 21") {
		t.Errorf("resume of a finished run: exit %d\n%s%s", code, out, errs)
	}
}
