package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/explore/htmlview"
	"github.com/mxcheck/mxcheck/model"
)

//go:embed assets/explore.html
var explorePageHTML []byte

// maxPath bounds the length of a path the explorer follows.
const maxPath = 10000

// apiStep is one enabled step of a state, with the state it leads to.
type apiStep struct {
	Index    int      `json:"index"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"`
	Changes  []string `json:"changes"`
	Violates []string `json:"violates"`
	// State is the whole state the step leads to.
	State []string `json:"state"`
}

// apiState is the explorer's view of the state a path leads to.
type apiState struct {
	// Config names the spec and its non-default flags.
	Config string   `json:"config"`
	Path   []int    `json:"path"`
	Trail  []string `json:"trail"` // the labels of the steps taken
	// Changes are what the last step changed.
	Changes  []string  `json:"changes"`
	State    []string  `json:"state"`
	Violates []string  `json:"violates"`
	Deadlock bool      `json:"deadlock"`
	InCS     []string  `json:"incs"`
	Steps    []apiStep `json:"steps"`
}

func (s *server) explorePage(w http.ResponseWriter, r *http.Request) {
	if s.spec == nil {
		httpError(w, http.StatusNotFound, "the interactive explorer needs a configuration: mxcheck serve --spec SPEC [flags]")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(explorePageHTML)
}

// parsePath reads "3.0.12": successor indexes from the initial state.
func parsePath(q string) ([]int, error) {
	if q == "" {
		return []int{}, nil
	}
	parts := strings.Split(q, ".")
	if len(parts) > maxPath {
		return nil, fmt.Errorf("path: longer than %d steps", maxPath)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 1<<20 {
			return nil, fmt.Errorf("path: %q is not a step index", p)
		}
		out[i] = n
	}
	return out, nil
}

// successor is one enabled step of a state.
type successor struct {
	t    model.Transition
	next model.State
}

func (s *server) successors(st model.State) []successor {
	var out []successor
	s.sys.Successors(st, func(t model.Transition, next model.State) bool {
		out = append(out, successor{t, s.sys.Clone(next)})
		return true
	})
	return out
}

// follow walks path from the initial state; the error says which index is
// out of range.
func (s *server) follow(path []int) (prev, cur model.State, trail []string, err error) {
	states, steps, err := s.walk(path)
	if err != nil {
		return nil, nil, nil, err
	}
	desc := s.sys.(model.Describer)
	for i, t := range steps {
		trail = append(trail, desc.DescribeStep(states[i], t))
	}
	if n := len(states); n > 1 {
		prev = states[n-2]
	}
	return prev, states[len(states)-1], trail, nil
}

// walk returns the states and steps of path from the initial state.
func (s *server) walk(path []int) ([]model.State, []model.Transition, error) {
	cur := s.sys.Init()[0]
	states, steps := []model.State{cur}, []model.Transition{}
	for i, k := range path {
		succ := s.successors(cur)
		if k >= len(succ) {
			return nil, nil, fmt.Errorf("path: step %d asks for successor %d of a state with %d", i+1, k, len(succ))
		}
		cur = succ[k].next
		states, steps = append(states, cur), append(steps, succ[k].t)
	}
	return states, steps, nil
}

// pathPage serves the trace page of a path: the explorer's "diagram" link.
func (s *server) pathPage(w http.ResponseWriter, r *http.Request) {
	if s.spec == nil {
		httpError(w, http.StatusNotFound, "the interactive explorer needs a configuration: mxcheck serve --spec SPEC [flags]")
		return
	}
	path, err := parsePath(r.URL.Query().Get("path"))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	states, steps, err := s.walk(path)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	m := htmlview.Meta{Spec: s.spec.Name, Params: s.values, Loop: -1}
	last := states[len(states)-1]
	if bad := s.violated(last); len(bad) > 0 {
		m.Property, m.Kind = bad[0], "invariant"
	} else if stuck(s.sys, last) {
		m.Property, m.Kind = explore.Deadlock, "deadlock"
	}
	p, err := htmlview.FromStates(s.sys, states, steps, m, htmlview.Options{})
	if err != nil {
		httpError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	var b bytes.Buffer
	if err := htmlview.Write(&b, p); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

func (s *server) violated(st model.State) []string {
	out := []string{}
	for _, iv := range s.sys.Invariants() {
		if iv.Expect == model.Always && !iv.Holds(st) {
			out = append(out, iv.Name)
		}
	}
	return out
}

func (s *server) apiState(w http.ResponseWriter, r *http.Request) {
	if s.spec == nil {
		httpError(w, http.StatusNotFound, "the interactive explorer needs a configuration: mxcheck serve --spec SPEC [flags]")
		return
	}
	path, err := parsePath(r.URL.Query().Get("path"))
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	prev, cur, trail, err := s.follow(path)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	desc := s.sys.(model.Describer)
	out := apiState{Config: strings.TrimSpace(s.spec.Name + " " + strings.Join(s.values.Flags(s.spec), " ")), Path: path, Trail: trail, Changes: []string{}, State: desc.Dump(cur), Violates: s.violated(cur), InCS: []string{}}
	if out.Trail == nil {
		out.Trail = []string{}
	}
	if prev != nil {
		out.Changes = nonNil(desc.Changes(prev, cur))
	}
	if pic, ok := s.sys.(model.Picturer); ok {
		for _, u := range pic.InCS(cur).All() {
			out.InCS = append(out.InCS, u.String())
		}
	}
	out.Deadlock = stuck(s.sys, cur)
	for i, sc := range s.successors(cur) {
		out.Steps = append(out.Steps, apiStep{Index: i, Label: desc.DescribeStep(cur, sc.t), Kind: sc.t.Kind.String(),
			Changes: nonNil(desc.Changes(cur, sc.next)), Violates: s.violated(sc.next), State: desc.Dump(sc.next)})
	}
	if out.Steps == nil {
		out.Steps = []apiStep{}
	}
	writeJSON(w, out)
}

// stuck reports a deadlock as the checker defines it: pending work and no
// step but stutters and adversary moves.
func stuck(sys model.System, st model.State) bool {
	w, ok := sys.(model.WorkPending)
	if !ok || !w.Pending(st) {
		return false
	}
	self := string(sys.AppendKey(nil, st))
	out := true
	sys.Successors(st, func(t model.Transition, next model.State) bool {
		if t.Kind != model.AdversaryStep && string(sys.AppendKey(nil, next)) != self {
			out = false
		}
		return out
	})
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.Encode(v)
}
