package history

import (
	"errors"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/mxcheck/mxcheck/model"
)

// TraceHistory is the critical-section history of a model trace.
type TraceHistory struct {
	// Ops are the acquire and release operations; Input.Process is the
	// node ("n1") and time is the index of the state (0 = initial).
	Ops []porcupine.Operation
	// Notes mark the adversary's moves, at the index of the state they
	// lead to.
	Notes []Note
}

// FromTrace builds the CS history of a trace of sys: states[0..n], steps[i]
// leading from states[i] to states[i+1]. A node's acquire runs from its
// request-CS step (or, without one, its entry) to the first state where it
// is in the CS; its release is the step after which it no longer is (an
// exit, or a crash: the mutual-exclusion invariant does not count crashed
// nodes). A request still pending at the end is dropped. The error says sys
// declares no critical section.
func FromTrace(sys model.System, states []model.State, steps []model.Transition) (*TraceHistory, error) {
	cs, ok := sys.(model.CriticalSection)
	if !ok || !cs.DeclaresCS() {
		return nil, errors.New("this spec does not say which nodes are in the critical section, so its traces have no lock history")
	}
	if len(states) != len(steps)+1 {
		return nil, errors.New("a trace needs one more state than steps")
	}
	desc, _ := sys.(model.Describer)
	h := &TraceHistory{}
	requested := map[model.NodeID]int64{}
	op := func(u model.NodeID, f string, call, ret int64) {
		in := Input{Process: u.String(), Client: int(u), F: f}
		h.Ops = append(h.Ops, porcupine.Operation{ClientId: int(u), Input: in, Call: call, Output: Output{}, Return: ret})
	}
	in := cs.InCS(states[0])
	for _, u := range in.All() {
		op(u, Acquire, 0, 0)
	}
	for i, t := range steps {
		at := int64(i + 1)
		if cs.RequestsCS(t) {
			if _, ok := requested[t.Node]; !ok {
				requested[t.Node] = at
			}
		}
		if t.Kind == model.AdversaryStep {
			text := t.Kind.String()
			if desc != nil {
				text = desc.DescribeStep(states[i], t)
			}
			h.Notes = append(h.Notes, Note{Tag: "adversary", Time: at, Text: text})
		}
		now := cs.InCS(states[i+1])
		for _, u := range (in &^ now).All() {
			op(u, Release, at, at)
		}
		for _, u := range (now &^ in).All() {
			call, ok := requested[u]
			if !ok {
				call = at
			}
			delete(requested, u)
			op(u, Acquire, call, at)
		}
		in = now
	}
	return h, nil
}

// CheckTrace checks the CS history of a trace against a mutex.
func CheckTrace(sys model.System, states []model.State, steps []model.Transition, timeout time.Duration) (*Result, error) {
	h, err := FromTrace(sys, states, steps)
	if err != nil {
		return nil, err
	}
	r := Check(h.Ops, Model{Kind: "mutex"}, false, timeout)
	r.Annotate(h.Notes)
	return r, nil
}
