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
	// ByKey is true when there is one lock per node (Input.Key names it).
	ByKey bool
}

// FromTrace builds the lock history of a trace of sys: states[0..n],
// steps[i] leading from states[i] to states[i+1]. A node's acquire of a lock
// returns in the first state where it holds the lock, and starts at its
// request-CS step when one is pending (else at that state); its release is
// the step after which it no longer holds it (an exit, or a crash: the
// mutual-exclusion invariant does not count crashed nodes). A request still
// pending at the end is dropped. With one lock per node (local mutual
// exclusion), operations carry the lock's node as their key: check them by
// key. The error says sys declares no critical section.
func FromTrace(sys model.System, states []model.State, steps []model.Transition) (*TraceHistory, error) {
	cs, ok := sys.(model.CriticalSection)
	if !ok || !cs.DeclaresCS() {
		return nil, errors.New("this spec does not say which nodes are in the critical section, so its traces have no lock history")
	}
	if len(states) != len(steps)+1 {
		return nil, errors.New("a trace needs one more state than steps")
	}
	desc, _ := sys.(model.Describer)
	held := cs.Holders(states[0])
	h := &TraceHistory{ByKey: len(held) > 1}
	requested := map[model.NodeID]int64{}
	op := func(u model.NodeID, lock int, f string, call, ret int64) {
		in := Input{Process: u.String(), Client: int(u), F: f}
		if h.ByKey {
			in.Key = model.NodeID(lock).String()
		}
		h.Ops = append(h.Ops, porcupine.Operation{ClientId: int(u), Input: in, Call: call, Output: Output{}, Return: ret})
	}
	for r, hs := range held {
		for _, u := range hs.All() {
			op(u, r, Acquire, 0, 0)
		}
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
		now := cs.Holders(states[i+1])
		for r := range now {
			for _, u := range (held[r] &^ now[r]).All() {
				op(u, r, Release, at, at)
			}
		}
		for r := range now {
			for _, u := range (now[r] &^ held[r]).All() {
				call, ok := requested[u]
				if !ok {
					call = at
				}
				delete(requested, u)
				op(u, r, Acquire, call, at)
			}
		}
		held = now
	}
	return h, nil
}

// CheckTrace checks the lock history of a trace against a mutex (one per
// key when the protocol has one lock per node).
func CheckTrace(sys model.System, states []model.State, steps []model.Transition, timeout time.Duration) (*Result, error) {
	h, err := FromTrace(sys, states, steps)
	if err != nil {
		return nil, err
	}
	r := Check(h.Ops, Model{Kind: "mutex"}, h.ByKey, timeout)
	r.Annotate(h.Notes)
	return r, nil
}
