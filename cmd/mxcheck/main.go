// Command mxcheck is a model checker for mutual-exclusion protocols over
// message passing in dynamic networks.
//
//	mxcheck list                  specs, with their parameters
//	mxcheck check SPEC [flags]    explore every behaviour of a configuration
//	mxcheck simulate SPEC [flags] random walks, violations minimised
//	mxcheck replay FILE           re-run a stored counterexample
//	mxcheck suite FILE            check every row of a suite or test file
//	mxcheck serve [DIR]           browse stored traces, explore a spec
//	mxcheck history FILE          check a recorded lock history (porcupine)
//	mxcheck swarm SPEC [flags]    member I of N diversified DFS runs (swarm)
//	mxcheck swarm-report DIR      merge a swarm's member files
//
// A spec's parameters come from its declaration (model.Spec.Params): each is
// a flag of check, and bad values are refused by the shared binding code.
//
// Exit codes: 0 verified (replay: reproduced; simulate: no violation found;
// history: linearizable), 1 violated (replay: diverged or no longer
// violating), 2 bad usage or input, 3 incomplete.
package main

import (
	"os"
	"runtime/debug"

	"github.com/mxcheck/mxcheck/explore"
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// tuneGC: a search's heap is mostly the seen-set (no pointers) and the BFS
// frontier, and collecting at every doubling of the live heap spends a
// quarter of the CPU of a 40M-state search. Collect at 5× the live heap
// instead, but harder as the heap nears 3/4 of the machine's memory (a soft
// limit). GOGC or GOMEMLIMIT in the environment take precedence; set them
// when several searches share the machine.
func tuneGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(400)
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := explore.PhysicalMemory(); total > 0 {
			debug.SetMemoryLimit(total / 4 * 3)
		}
	}
}
