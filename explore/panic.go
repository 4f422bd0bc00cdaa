package explore

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// SpecPanic is a panic raised by the system's own code (an action, an
// invariant, a state's encoding) during a search, caught by Check so that
// it can be reported in one line with the trace that led there, instead of
// a Go stack.
type SpecPanic struct {
	// Value is what the code panicked with.
	Value any
	// During names what was running: a step such as "n1 ReceiveRequest",
	// "invariant mutual-exclusion", "expanding a state", or "the liveness
	// pass".
	During string
	// Trace leads from an initial state to the state being expanded or
	// checked, when it is known.
	Trace *Trace
}

// Error renders the panic in one line.
func (p *SpecPanic) Error() string {
	return fmt.Sprintf("panic in %s: %v", p.During, p.Value)
}

// WriteTrace renders p's trace (if any), numbered as in a counterexample.
func (p *SpecPanic) WriteTrace(w io.Writer) error {
	if p.Trace == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "trace to the state (%d steps):\n", p.Trace.Len())
	writeTrace(&b, *p.Trace)
	_, err := io.WriteString(w, b.String())
	return err
}

// panicSite is what a search is doing, for SpecPanic.
type panicSite struct {
	id    uint32 // the state being expanded or checked
	inv   string // the invariant being evaluated, if any
	valid bool
}

// workerPanic carries a panic out of a parallel worker.
type workerPanic struct {
	value any
	id    uint32 // the state the worker was expanding
	inv   string
}

// Check runs the search like Run, but a panic in the system's code becomes
// a *SpecPanic error (any other value Check recovers is reported the same
// way: a search has no panics of its own to hide).
func (c *Checker) Check() (r *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			r, err = nil, c.specPanic(v)
		}
	}()
	return c.Run(), nil
}

func (c *Checker) specPanic(v any) *SpecPanic {
	p := &SpecPanic{Value: v, During: "the liveness pass"}
	s := c.active
	var site panicSite
	if s != nil {
		site = s.at
	}
	successor := false
	if wp, ok := v.(*workerPanic); ok {
		p.Value, site, successor = wp.value, panicSite{id: wp.id, inv: wp.inv, valid: true}, wp.inv != ""
	} else if site.valid && site.inv == "" && s.x != nil {
		site.inv = s.x.inv
	}
	if site.valid {
		p.During = "expanding a state"
		if site.inv != "" {
			p.During = "invariant " + site.inv
		}
		if successor {
			p.During += " (on a successor of the trace's last state)"
		}
	}
	var ap *model.ActionPanic
	if e, ok := p.Value.(error); ok && errors.As(e, &ap) {
		p.Value, p.During = ap.Value, ap.Node.String()+" "+ap.Action
	}
	if site.valid && s != nil {
		func() {
			defer func() { recover() }() // the trace could not be rebuilt
			tr, _ := s.trace(site.id)
			p.Trace = &tr
		}()
	}
	return p
}
