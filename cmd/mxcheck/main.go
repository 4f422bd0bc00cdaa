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

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
