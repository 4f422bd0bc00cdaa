package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
)

// suiteRowFlagsOK refuses what a suite row cannot honour: words that are
// not flags (a stray `missing=1:0` would otherwise be dropped and the
// default configuration checked), and the output flags of check, which a
// table row has nowhere to put.
func suiteRowFlagsOK(fs *pflag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected word %q (flags are written --name=value)", fs.Arg(0))
	}
	for _, name := range []string{"trace-out", "trace-out-all", "dot-out", "json", "html", "history-html"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s is not supported in a suite row (run mxcheck check for it)", name)
		}
	}
	return nil
}

// suiteInterrupt is how a suite learns of Ctrl-C (a variable for tests).
var suiteInterrupt = interruptOnSignal

// runRow checks one row, unless the suite was interrupted before its turn:
// it then reports the row Incomplete without starting it.
// A panic in the spec's code makes the row Incomplete, its limit naming
// the panic.
func runRow(c *explore.Checker, stop <-chan struct{}, spec string) *explore.Result {
	select {
	case <-stop:
		return &explore.Result{Verdict: explore.Incomplete, Limit: "interrupt"}
	default:
	}
	res, err := c.Check()
	if err != nil {
		return &explore.Result{Verdict: explore.Incomplete, Limit: panicLimit + "spec " + spec + ": " + err.Error()}
	}
	return res
}

// panicLimit starts the Limit of a row whose spec code panicked; the table
// marks it PANIC (a mismatch, whatever the row expected).
const panicLimit = "panic: "
