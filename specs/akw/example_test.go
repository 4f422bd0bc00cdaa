package akw_test

import (
	"fmt"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/akw"
)

// Finding 1 of Algorithm 1 and its repair: a neighbour that moves away
// with the fork a hungry node still needs leaves that node waiting forever,
// unless L19–L22 are re-run after L56–L61 (--link-down=recheck).
func Example() {
	for _, reading := range []string{"low-only", "recheck"} {
		sys, _, err := akw.Spec.Compile(model.Values{"disconnects": "1", "link-down": reading})
		if err != nil {
			panic(err)
		}
		c, err := explore.New(sys, explore.Options{})
		if err != nil {
			panic(err)
		}
		r := c.Run()
		fmt.Printf("--link-down=%s: %s, %d states", reading, r.Verdict, r.Stats.Distinct)
		if r.Verdict == explore.Violated {
			fmt.Print(" (stopped at the first)")
		}
		for _, v := range r.Violations {
			fmt.Printf(", %s after %d steps", v.Property, v.Trace.Len())
		}
		fmt.Println()
	}
	// Output:
	// --link-down=low-only: violated, 150 states (stopped at the first), no-deadlock after 10 steps
	// --link-down=recheck: verified, 215 states
}
