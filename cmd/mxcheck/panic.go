package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/specs"
)

// lookupSpec finds a spec by name (a variable so tests can add one).
var lookupSpec = specs.Lookup

// reportPanic reports a panic in a spec's code: one line naming the spec
// and what panicked, then the trace that led there; exit 2.
func reportPanic(stderr io.Writer, spec string, err error) (int, error) {
	fmt.Fprintf(stderr, "mxcheck: spec %s: %v\n", spec, err)
	var sp *explore.SpecPanic
	if errors.As(err, &sp) {
		sp.WriteTrace(stderr)
	}
	return exitUsage, nil
}
