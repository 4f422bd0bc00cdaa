package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18 item 4: replay re-evaluates the property the trace names, of the
// kind it names, and reads the file strictly.
func TestReplayIsStrict(t *testing.T) {
	dir := t.TempDir()
	dl := filepath.Join(dir, "dl.json")
	if code, _, errs := call("check", "ra", "--mutant", "defer-forever", "--trace-out", dl); code != 1 {
		t.Fatalf("check exit %d: %s", code, errs)
	}
	raw, err := os.ReadFile(dl)
	if err != nil {
		t.Fatal(err)
	}
	data := string(raw)
	if code, out, errs := call("replay", dl); code != 0 {
		t.Fatalf("the genuine deadlock trace: exit %d %s %s", code, out, errs)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	edit := func(old, new string) string {
		if !strings.Contains(data, old) {
			t.Fatalf("the trace lacks %q", old)
		}
		return strings.Replace(data, old, new, 1)
	}
	for _, tc := range []struct {
		name, text string
		code       int
		msg        string
	}{
		// A deadlock trace relabelled as a mutual-exclusion violation: nobody
		// is in the critical section. It used to exit 0.
		{"deadlock-as-mutex", edit(`"property": "no-deadlock"`, `"property": "mutual-exclusion"`), 2, "a deadlock trace violates no-deadlock"},
		// The same states as an invariant trace: re-evaluated, and it holds.
		{"invariant-that-holds", edit(`"property": "no-deadlock",
  "kind": "deadlock"`, `"property": "mutual-exclusion",
  "kind": "invariant"`), 1, "no longer violates mutual-exclusion"},
		{"unknown-invariant", edit(`"property": "no-deadlock",
  "kind": "deadlock"`, `"property": "mutual-exclusionn",
  "kind": "invariant"`), 2, `no invariant "mutual-exclusionn"`},
		{"no-liveness-claim", edit(`"property": "no-deadlock",
  "kind": "deadlock"`, `"property": "starvation-freedom",
  "kind": "liveness"`), 2, "loop"},
		{"trailing-garbage", data + "garbage", 2, "more data after"},
		{"two-documents", data + data, 2, "more data after"},
		{"duplicate-key", edit(`"property": "no-deadlock",`, `"property": "mutual-exclusion", "property": "no-deadlock",`), 2, `"property" repeated`},
		{"recased-key", edit(`"states":`, `"States":`), 2, `unexpected key "States"`},
		{"recased-meta-key", edit(`"property":`, `"Property":`), 2, `unexpected key "Property"`},
		{"duplicate-state-key", edit(`"budget": {`, `"budget": 7, "budget": {`), 2, `"budget" repeated`},
		{"wrong-length", edit(`"length": `, `"length": 1`), 2, "steps"},
		{"wrong-step-kind", edit(`"kind": "env"`, `"kind": "node"`), 1, "diverged"},
		{"wrong-index", edit(`"index": 1`, `"index": 2`), 2, `"index"`},
		{"wrong-vars", edit(`"budget",`, `"budgets",`), 1, `"vars"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := call("replay", write(tc.name+".json", tc.text))
			if code != tc.code {
				t.Errorf("exit %d, want %d; stdout %q stderr %q", code, tc.code, out, errs)
			}
			if !strings.Contains(out+errs, tc.msg) {
				t.Errorf("output lacks %q: stdout %q stderr %q", tc.msg, out, errs)
			}
			if tc.code == 2 && strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", errs)
			}
		})
	}
	// The OS error is shown.
	if code, _, errs := call("replay", filepath.Join(dir, "nope.json")); code != 2 || !strings.Contains(errs, "no such file or directory") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}
