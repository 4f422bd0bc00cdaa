// Command mxcheck is a model checker for mutual-exclusion protocols over
// message passing in dynamic networks.
//
//	mxcheck list                  specs, with their flags
//	mxcheck check SPEC [flags]    explore every behaviour of a configuration
//	mxcheck replay FILE           re-run a stored counterexample
//
// Exit codes: 0 verified (replay: reproduced), 1 violated (replay: diverged
// or no longer violating), 2 bad usage or input, 3 incomplete.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// A search's heap is mostly the seen-set (no pointers) and the frontier,
	// which only grows: collecting at every doubling spends a quarter of the
	// CPU on a 40M-state search for little memory back. Collect at 5× the
	// live heap instead, unless the user set GOGC.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
