package tokenlock_test

import (
	"fmt"
	"os"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/tokenlock"
)

// Check the token lock, then its mutant: the faithful protocol is verified,
// the mutant gets a shortest counterexample.
func Example() {
	for _, mutant := range []string{"none", "eager-enter"} {
		sys, _, err := tokenlock.Spec.Compile(model.Values{"mutant": mutant})
		if err != nil {
			panic(err)
		}
		c, err := explore.New(sys, explore.Options{})
		if err != nil {
			panic(err)
		}
		r := c.Run()
		fmt.Printf("--mutant=%s: %s, %d states\n", mutant, r.Verdict, r.Stats.Distinct)
		for _, v := range r.Violations {
			explore.WriteViolation(os.Stdout, v)
		}
	}
	// Output:
	// --mutant=none: verified, 29 states
	// --mutant=eager-enter: violated, 18 states
	// VIOLATION of invariant mutual-exclusion after 4 steps:
	//   0. initial state
	//        n0: Wants=false InCS=false Token=true Asked=false
	//        n1: Wants=false InCS=false Token=false Asked=false
	//        in transit: none
	//   1. n0 RequestCS
	//        n0.Wants: false -> true
	//   2. n0 Enter
	//        n0.Wants: true -> false
	//        n0.InCS: false -> true
	//   3. n1 RequestCS
	//        n1.Wants: false -> true
	//        + n1->n0 request
	//   4. n1 Enter
	//        n1.Wants: true -> false
	//        n1.InCS: false -> true
	// state that breaks mutual-exclusion:
	//     n0: Wants=false InCS=true Token=true Asked=false
	//     n1: Wants=false InCS=true Token=false Asked=false
	//     in transit: n1->n0 request
}
