package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/mxcheck/mxcheck/explore"
)

// findResult is the outcome of a search for a counterexample, as a path.
type findResult struct {
	Found    bool   `json:"found"`
	Message  string `json:"message"`
	Property string `json:"property,omitempty"`
	Path     []int  `json:"path"`
}

// apiFind searches the configuration (BFS, bounded by --max-states and
// --timeout) for the shortest counterexample and returns it as a path. The
// answer is computed once.
func (s *server) apiFind(w http.ResponseWriter, r *http.Request) {
	if s.spec == nil {
		httpError(w, http.StatusNotFound, "the interactive explorer needs a configuration: mxcheck serve --spec SPEC [flags]")
		return
	}
	s.findMu.Lock()
	defer s.findMu.Unlock()
	if s.found == nil {
		s.found = s.find()
	}
	writeJSON(w, s.found)
}

func (s *server) find() *findResult {
	chk, err := explore.New(s.sys, explore.Options{MaxStates: s.maxStates, Timeout: s.timeout})
	if err != nil {
		return &findResult{Message: err.Error(), Path: []int{}}
	}
	res := chk.Run()
	if len(res.Violations) == 0 {
		msg := "no violation: every property holds in this configuration"
		switch res.Verdict {
		case explore.Incomplete:
			msg = "no violation found before the search stopped (" + res.Limit + "); nothing is proven"
		case explore.Unreached:
			msg = "no violation, but no reachable state satisfies the sometimes property " + strings.Join(unreachedNames(res), ", ")
		}
		return &findResult{Message: msg, Path: []int{}}
	}
	v := res.Violations[0]
	path, err := s.pathOf(explore.NewITF(s.spec.Name, s.values, v))
	if err != nil {
		return &findResult{Message: err.Error(), Path: []int{}}
	}
	return &findResult{Found: true, Property: v.Property, Path: path,
		Message: fmt.Sprintf("%s violated after %d steps", v.Property, len(path))}
}

// pathOf turns a trace of the interactive configuration into successor
// indexes.
func (s *server) pathOf(t *explore.ITFTrace) ([]int, error) {
	states, steps, err := explore.ExecuteITF(s.sys, t)
	if err != nil {
		return nil, err
	}
	path := []int{}
	for i, tr := range steps {
		k := -1
		for j, sc := range s.successors(states[i]) {
			if sc.t == tr {
				k = j
				break
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("step %d of the trace is not a successor", i+1)
		}
		path = append(path, k)
	}
	return path, nil
}

// apiTrace returns a stored trace of the interactive configuration as a
// path.
func (s *server) apiTrace(w http.ResponseWriter, r *http.Request) {
	if s.spec == nil {
		httpError(w, http.StatusNotFound, "the interactive explorer needs a configuration: mxcheck serve --spec SPEC [flags]")
		return
	}
	name := r.PathValue("name")
	path, e, ok := s.lookup(name)
	if !ok {
		httpError(w, http.StatusNotFound, "no such trace: "+name)
		return
	}
	if !e.Matches {
		httpError(w, http.StatusBadRequest, name+" is not a trace of this configuration")
		return
	}
	f, err := os.Open(path)
	if err != nil {
		httpError(w, http.StatusNotFound, "cannot open "+name)
		return
	}
	defer f.Close()
	t, err := explore.ReadITF(f)
	if err != nil {
		httpError(w, http.StatusUnprocessableEntity, name+": "+err.Error())
		return
	}
	steps, err := s.pathOf(t)
	if err != nil {
		httpError(w, http.StatusUnprocessableEntity, name+": "+err.Error())
		return
	}
	writeJSON(w, &findResult{Found: true, Property: t.Meta.Property, Path: steps,
		Message: fmt.Sprintf("%s: %s violated after %d steps", name, t.Meta.Property, len(steps))})
}
