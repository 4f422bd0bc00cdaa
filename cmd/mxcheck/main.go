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

// tuneGC sets a soft memory limit at 3/4 of the machine's memory, so the
// collector works harder as the heap nears it; GOMEMLIMIT in the
// environment takes precedence. The collection rate is Go's default
// (GOGC=100): a search's large structures (seen-set, candidates, levels'
// encodings, parent links) hold no pointers, so a collection costs little,
// and collecting at 5× the live heap, as this once did, only left garbage
// to be mapped afresh (camera N=4 with two missing entries, 20M states:
// 12.1 s and 2.0 GB at GOGC=100 against 12.7-13.5 s and 2.8 GB at 400).
func tuneGC() {
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := explore.PhysicalMemory(); total > 0 {
			debug.SetMemoryLimit(total / 4 * 3)
		}
	}
}
