package history

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// Input is an operation's input as the lock models read it.
type Input struct {
	// Process names the caller; Client is its index (porcupine's
	// ClientId), in order of first appearance.
	Process string
	Client  int
	F       string
	Key     string
	// Token is the fencing token an acquire returned (HasToken false when
	// none was recorded).
	Token    int64
	HasToken bool
}

// Output is an operation's outcome: Indeterminate when it may or may not
// have taken effect ("info", or never completed).
type Output struct {
	Indeterminate bool
}

// Operations pairs each invocation with its process's next completion and
// returns the operations to check, with every interval widened by skew on
// both sides (which can only hide violations, never add them). Failed
// operations are dropped; indeterminate ones end after every other event.
// The error names the event (1-based, in file order) that breaks the
// pairing.
func Operations(events []Event, skew time.Duration) ([]porcupine.Operation, error) {
	if skew < 0 {
		return nil, fmt.Errorf("clock skew must not be negative")
	}
	d := int64(skew)
	type pending struct {
		ev  Event
		idx int
	}
	open := map[string]*pending{}
	clients := map[string]int{}
	var ops []porcupine.Operation
	var indet []int // indices in ops of indeterminate operations
	maxTime := int64(math.MinInt64)
	for i, e := range events {
		if _, ok := clients[e.Process]; !ok {
			clients[e.Process] = len(clients)
		}
		maxTime = max(maxTime, e.Time)
		p := open[e.Process]
		if e.Type == Invoke {
			if p != nil {
				return nil, fmt.Errorf("event %d: process %s invokes %s while its %s of event %d is still open", i+1, e.Process, e.F, p.ev.F, p.idx+1)
			}
			open[e.Process] = &pending{e, i}
			continue
		}
		if p == nil {
			return nil, fmt.Errorf("event %d: process %s completes %s (%s) without invoking it", i+1, e.Process, e.F, e.Type)
		}
		switch {
		case p.ev.F != e.F:
			return nil, fmt.Errorf("event %d: process %s completes %s but invoked %s (event %d)", i+1, e.Process, e.F, p.ev.F, p.idx+1)
		case p.ev.Key != e.Key:
			return nil, fmt.Errorf("event %d: process %s completes on key %q but invoked on key %q (event %d)", i+1, e.Process, e.Key, p.ev.Key, p.idx+1)
		case e.Time < p.ev.Time:
			return nil, fmt.Errorf("event %d: completes at time %d, before its invocation at %d (event %d)", i+1, e.Time, p.ev.Time, p.idx+1)
		}
		delete(open, e.Process)
		if e.Type == Fail {
			continue
		}
		in := Input{Process: e.Process, Client: clients[e.Process], F: e.F, Key: e.Key}
		if e.Token != nil {
			in.Token, in.HasToken = *e.Token, true
		} else if p.ev.Token != nil {
			in.Token, in.HasToken = *p.ev.Token, true
		}
		op := porcupine.Operation{ClientId: in.Client, Input: in, Call: p.ev.Time - d, Output: Output{Indeterminate: e.Type == Info}, Return: e.Time + d}
		if e.Type == Info {
			indet = append(indet, len(ops))
		}
		ops = append(ops, op)
	}
	// Invocations never completed are indeterminate, in process order.
	procs := make([]string, 0, len(open))
	for p := range open {
		procs = append(procs, p)
	}
	sort.Slice(procs, func(i, j int) bool { return open[procs[i]].idx < open[procs[j]].idx })
	for _, pr := range procs {
		e := open[pr].ev
		in := Input{Process: pr, Client: clients[pr], F: e.F, Key: e.Key}
		if e.Token != nil {
			in.Token, in.HasToken = *e.Token, true
		}
		indet = append(indet, len(ops))
		ops = append(ops, porcupine.Operation{ClientId: in.Client, Input: in, Call: e.Time - d, Output: Output{Indeterminate: true}})
	}
	for _, i := range indet {
		ops[i].Return = maxTime + d + 1
	}
	return ops, nil
}
