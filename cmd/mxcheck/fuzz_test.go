package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// FuzzCheckArgs: `mxcheck check` with any words (spec name, spec
// parameters, checker flags) never panics, exits 0–3, and a usage error is
// one line on stderr. Output-file flags are dropped (the fuzzer must not
// write files), and every run is capped at 300 states and 2 s.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{
		"ra --nodes 3", "ra --missing 1:0", "ra --missing=0:1,1:0 --churn 1", "ra --nodes 40",
		"lme --nodes 2 --variant repaired --liveness", "lme --topology 0.1-1.1 --nodes 2", "lme --nodes 3 --topology ring --por",
		"camera --nodes 3 --missing 0:1", "maekawa --nodes 4 --variant yield-fail-displaced",
		"ra --strategy dfs --max-depth 5", "ra --workers 0", "ra --memory 99999999999999", "ra --choices adversarial --liveness",
		"ra --symmetry=true", "ra --requests -1", "ra --requests 0", "nosuch --x", "ra --nodes 3 extra", "--help", "ra --level-states 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := []string{"check"}
		for _, w := range strings.Fields(line) {
			if strings.HasPrefix(w, "-") && strings.Contains(w, "out") {
				continue // --trace-out, --dot-out: no files from the fuzzer
			}
			args = append(args, w)
		}
		args = append(args, "--max-states=300", "--timeout=2s", "--quiet")
		code, _, errs := call(args...)
		if code < 0 || code > exitUnreached {
			t.Fatalf("%q: exit %d", args, code)
		}
		if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
			t.Fatalf("%q: a Go stack on stderr:\n%s", args, errs)
		}
		if code == exitUsage && !strings.Contains(errs, "panic in") && strings.Count(errs, "\n") != 1 {
			t.Fatalf("%q: usage error is not one line:\n%s", args, errs)
		}
	})
}

// FuzzSuite: a suite file never panics the parser; each row it accepts
// builds (or is refused in one line) without panicking.
func FuzzSuite(f *testing.F) {
	for _, p := range []string{"camera-n4.suite", "ra/testdata/churn.txt", "lme/testdata/n4.txt"} {
		if data, err := os.ReadFile(filepath.Join("..", "..", "specs", p)); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{"ra --nodes=3 missing=1:0 => verified\n", "\ufeffra => verified\n", "ra --trace-out=x => violated", "lme --nodes=2 --topology=ring => incomplete # c\n\n", "=>", "ra => maybe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := parseSuite(strings.NewReader(text))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		for _, row := range rows {
			sys, _, err := row.spec.Compile(row.values)
			if err != nil {
				continue
			}
			row.opt.Symmetry = symmetryFor(sys, row.symmetry, row.symExplicit)
			explore.New(sys, row.opt)
		}
	})
}

// FuzzReplay: replay never panics on any file, and never accepts a trace
// unless a second, independent reading of the same bytes (a plain JSON
// decode into maps) names the same spec, property and kind, and the states
// it replays are the states of the file.
func FuzzReplay(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "counterexamples", "*", "*.itf.json"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"#meta": {"source": "mxcheck"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := explore.ReplayReader(bytes.NewReader(data), specs.Lookup)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		if !res.Reproduced {
			return
		}
		var plain struct {
			Meta   map[string]any   `json:"#meta"`
			States []map[string]any `json:"states"`
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&plain); err != nil {
			t.Fatalf("reproduced, but a plain decode fails: %v", err)
		}
		if plain.Meta["property"] != res.Property {
			t.Fatalf("reproduced %q, but the file says %v", res.Property, plain.Meta["property"])
		}
		spec := specs.Lookup(plain.Meta["spec"].(string))
		params := map[string]string{}
		for k, v := range plain.Meta["params"].(map[string]any) {
			params[k] = v.(string)
		}
		sys, _, err := spec.Compile(params)
		if err != nil {
			t.Fatal(err)
		}
		last := independentWalk(t, sys, plain.States)
		switch plain.Meta["kind"] {
		case "invariant":
			for _, iv := range sys.Invariants() {
				if iv.Name == res.Property && iv.Expect == model.Always && iv.Holds(last) {
					t.Fatalf("reproduced, but %s holds in the last state", iv.Name)
				}
			}
		case "deadlock":
			if res.Property != explore.Deadlock {
				t.Fatalf("a deadlock reproduced as %s", res.Property)
			}
		}
	})
}

// independentWalk follows the file's states through the model by state
// alone (any enabled step reaching the next state) and returns the last.
func independentWalk(t *testing.T, sys model.System, states []map[string]any) model.State {
	desc := sys.(model.Describer)
	canon := func(m map[string]any) string {
		c := map[string]any{}
		for k, v := range m {
			if k != "#meta" {
				c[k] = v
			}
		}
		b, _ := json.Marshal(c)
		return string(b)
	}
	// ITF values go through JSON so that numbers compare as the file's do.
	itf := func(s model.State) string {
		b, _ := json.Marshal(desc.ITF(s))
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		d.Decode(&m)
		return canon(m)
	}
	var cur model.State
	for _, s := range sys.Init() {
		if itf(s) == canon(states[0]) {
			cur = sys.Clone(s)
		}
	}
	if cur == nil {
		t.Fatal("reproduced, but the first state is not initial")
	}
	for i := 1; i < len(states); i++ {
		want := canon(states[i])
		var next model.State
		sys.Successors(cur, func(_ model.Transition, n model.State) bool {
			if itf(n) == want {
				next = sys.Clone(n)
				return false
			}
			return true
		})
		if next == nil {
			t.Fatalf("reproduced, but state %d is not a successor of state %d", i, i-1)
		}
		cur = next
	}
	return cur
}
