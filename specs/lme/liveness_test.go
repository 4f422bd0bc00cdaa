package lme_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/lme"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestLockoutFreedom pins lockout-freedom under both choice modes on the
// two-node configurations of the golden file. The paper's claim (Theorem:
// lockout freedom with probability 1) is the probabilistic row; the
// adversarial row shows the spurious lasso of forever-tied priorities. The
// faithful algorithm fails both, through its competition deadlock.
func TestLockoutFreedom(t *testing.T) {
	var cases []spectest.Case
	for _, variant := range []string{"faithful", "repaired"} {
		for _, c := range []struct {
			name string
			v    model.Values
		}{
			{"n2-path", model.Values{}},
			{"n2-path-disconnect", model.Values{"disconnects": "1"}},
			{"n2-none-connect", model.Values{"topology": "none", "connects": "1"}},
			{"n2-path-locks2", model.Values{"locks": "2"}},
		} {
			p := model.Values{"nodes": "2", "variant": variant}
			for k, x := range c.v {
				p[k] = x
			}
			cases = append(cases, spectest.Case{Name: variant + "/" + c.name, Params: p})
		}
	}
	spectest.Liveness(t, lme.Spec, "testdata/liveness.txt", cases)
}
