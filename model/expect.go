package model

import "fmt"

// Expectation says what a property claims about the reachable states, and so
// what a search reports about it.
type Expectation uint8

const (
	// Always (the zero value) is an invariant: every reachable state
	// satisfies the predicate. A state that does not is a violation.
	Always Expectation = iota
	// Sometimes is a reachability witness: some reachable state satisfies
	// the predicate (e.g. "some node enters the CS"). Reaching one never
	// stops a search; a complete search that reaches none reports the
	// property unreached, so a configuration in which nothing ever happens
	// does not pass as verified.
	Sometimes
	// NoDeadlock is deadlock freedom (WorkPending systems).
	NoDeadlock
	// Eventually is a liveness property: no fair cycle keeps a node hungry
	// forever (Fair systems).
	Eventually
)

// String renders the expectation as "always", "sometimes", "no-deadlock" or
// "eventually".
func (e Expectation) String() string {
	switch e {
	case Always:
		return "always"
	case Sometimes:
		return "sometimes"
	case NoDeadlock:
		return "no-deadlock"
	case Eventually:
		return "eventually"
	}
	return fmt.Sprintf("Expectation(%d)", uint8(e))
}

// kindWords are the words trace files and JSON results use for each
// expectation: the kind of violation (or witness) a trace shows. They
// predate the type and stay as they are, so stored traces read unchanged.
var kindWords = [...]string{Always: "invariant", Sometimes: "sometimes", NoDeadlock: "deadlock", Eventually: "liveness"}

// MarshalText renders the expectation as the kind word of trace files:
// "invariant", "sometimes", "deadlock" or "liveness".
func (e Expectation) MarshalText() ([]byte, error) {
	if int(e) >= len(kindWords) {
		return nil, fmt.Errorf("unknown expectation %d", uint8(e))
	}
	return []byte(kindWords[e]), nil
}

// UnmarshalText reads a kind word written by MarshalText.
func (e *Expectation) UnmarshalText(b []byte) error {
	for i, w := range kindWords {
		if string(b) == w {
			*e = Expectation(i)
			return nil
		}
	}
	return fmt.Errorf("unknown violation kind %q", b)
}
