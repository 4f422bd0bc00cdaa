package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18, rough edges of the CLI.
func TestRoughEdges(t *testing.T) {
	// --help no longer claims a default (true) that the spec refuses.
	_, help, _ := call("check", "ra", "--help")
	for _, line := range strings.Split(help, "\n") {
		if strings.Contains(line, "--symmetry") && strings.Contains(line, "(default true)") {
			t.Errorf("help: %q", line)
		}
	}
	if code, out, _ := call("check", "lme", "--nodes", "2", "--max-depth", "3"); code != exitIncomplete || !strings.Contains(out, "symmetry") {
		t.Errorf("lme keeps symmetry on by default: exit %d\n%s", code, out)
	}
	if code, out, _ := call("check", "lme", "--nodes", "2", "--max-depth", "3", "--symmetry=true"); code != exitIncomplete || !strings.Contains(out, "symmetry") {
		t.Errorf("lme --symmetry=true: exit %d\n%s", code, out)
	}
	if code, _, _ := call("check", "ra", "--symmetry=false"); code != 0 {
		t.Errorf("ra --symmetry=false: exit %d", code)
	}

	// --choices adversarial without --liveness was silently ignored.
	if code, _, errs := call("check", "ra", "--choices", "adversarial"); code != exitUsage || !strings.Contains(errs, "--liveness") || strings.Count(errs, "\n") != 1 {
		t.Errorf("--choices without --liveness: exit %d, stderr %q", code, errs)
	}

	// --json names the spec and the parameters checked.
	_, out, _ := call("check", "ra", "--missing", "1:0", "--json")
	var r struct {
		Spec   string
		Params map[string]string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Spec != "ra" || r.Params["missing"] != "1:0" || r.Params["nodes"] != "3" {
		t.Errorf("JSON spec %q params %v (%v)", r.Spec, r.Params, err)
	}

	// list: every flag's text starts in one column.
	_, list, _ := call("list")
	col := -1
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "    --") {
			continue
		}
		name := strings.Fields(line)[0]
		c := strings.Index(line, name) + len(name)
		for c < len(line) && line[c] == ' ' {
			c++
		}
		if col >= 0 && c != col {
			t.Errorf("list: %q starts its text at column %d, others at %d", line, c, col)
		}
		col = c
	}
	if strings.Contains(list, "\t") {
		t.Error("list uses tabs")
	}
}

// --trace-out-all writes every violation, the liveness lasso included, and
// every sometimes witness, each replayable.
func TestTraceOutAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "traces")
	code, _, errs := call("check", "ra", "--mutant", "defer-forever", "--continue", "--liveness", "--trace-out-all", dir)
	if code != exitViolated {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{"no-deadlock", "starvation-freedom"} {
		p := filepath.Join(dir, name+".itf.json")
		if code, out, errs := call("replay", p); code != 0 || !strings.Contains(out, "still violates "+name) {
			t.Errorf("%s: exit %d %s %s", name, code, out, errs)
		}
	}
	if code, out, errs := call("replay", filepath.Join(dir, "cs-entered.itf.json")); code != 0 || !strings.Contains(out, "still reaches cs-entered") {
		t.Errorf("cs-entered: exit %d %s %s", code, out, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("%d files in %s", len(entries), dir)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	if code, out, errs := call("check", "ra", "--trace-out-all", filepath.Join(file, "sub")); code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 {
		t.Errorf("unusable directory: exit %d, stderr %q", code, errs)
	}
}
