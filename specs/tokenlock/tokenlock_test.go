package tokenlock_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/mxtest"
	"github.com/mxcheck/mxcheck/specs/spectest"
	"github.com/mxcheck/mxcheck/specs/tokenlock"
)

// TestFiles runs the pinned scenarios of testdata/ (make golden rewrites
// them).
func TestFiles(t *testing.T) { spectest.Files(t, tokenlock.Spec, "testdata") }

// TestSafe: the lock is safe and deadlock-free with three requests per node.
func TestSafe(t *testing.T) { mxtest.Check(t, tokenlock.Spec, model.Values{"requests": "3"}) }

// TestEagerEnter: the mutant is caught by mutual-exclusion in 4 steps.
func TestEagerEnter(t *testing.T) {
	mxtest.Violates(t, tokenlock.Spec, model.Values{"mutant": "eager-enter"}, "mutual-exclusion", 4)
}
