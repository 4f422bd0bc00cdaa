package history

import (
	"errors"
	"io"
	"time"

	"github.com/anishathalye/porcupine"
)

// Verdict is the outcome of a linearizability check.
type Verdict uint8

const (
	// Linearizable: some order of the operations is a legal run of the
	// model.
	Linearizable Verdict = iota
	// NotLinearizable: no order is.
	NotLinearizable
	// Unknown: the check ran out of time; nothing is established.
	Unknown
)

// String renders the verdict.
func (v Verdict) String() string {
	switch v {
	case Linearizable:
		return "linearizable"
	case NotLinearizable:
		return "not linearizable"
	}
	return "unknown (timed out)"
}

// DefaultTimeout is the timeout Check uses when given none.
const DefaultTimeout = 10 * time.Second

// Result is a checked history, ready to be drawn.
type Result struct {
	Verdict Verdict
	// Ops is the number of operations checked.
	Ops     int
	model   porcupine.Model
	ops     []porcupine.Operation
	timeout time.Duration
	notes   []porcupine.Annotation
}

// Check checks ops against model m (one lock per key when byKey). It always
// gives porcupine a timeout (0 means DefaultTimeout); running out of time
// is Unknown.
func Check(ops []porcupine.Operation, m Model, byKey bool, timeout time.Duration) *Result {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	pm := m.Porcupine(byKey)
	res := porcupine.CheckOperationsTimeout(pm, ops, timeout)
	r := &Result{Ops: len(ops), model: pm, ops: ops, timeout: timeout}
	switch res {
	case porcupine.Ok:
		r.Verdict = Linearizable
	case porcupine.Illegal:
		r.Verdict = NotLinearizable
	default:
		r.Verdict = Unknown
	}
	return r
}

// Annotate adds notes to the picture: a Tag row (e.g. "adversary") with a
// description at a time.
func (r *Result) Annotate(notes []Note) {
	as := make([]porcupine.Annotation, len(notes))
	for i, n := range notes {
		as[i] = porcupine.Annotation{Tag: n.Tag, Start: n.Time, End: n.Time, Description: n.Text, Details: n.Text}
	}
	r.notes = append(r.notes, as...)
}

// Note is an annotation of a history's picture.
type Note struct {
	Tag  string
	Time int64
	Text string
}

// WriteHTML writes porcupine's visualisation of the history: each client's
// operations on a time line and, for a history that is not linearizable,
// the longest linearizable prefixes.
func (r *Result) WriteHTML(w io.Writer) error {
	if r.Verdict == Unknown {
		return errors.New("no picture: the check timed out")
	}
	// The picture needs the partial linearizations, which only a verbose
	// check computes: check again, with the same timeout.
	res, info := porcupine.CheckOperationsVerbose(r.model, r.ops, r.timeout)
	if res == porcupine.Unknown {
		return errors.New("no picture: the check timed out when drawing it")
	}
	info.AddAnnotations(r.notes)
	return porcupine.Visualize(r.model, info, w)
}
