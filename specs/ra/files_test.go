package ra_test

import (
	"testing"

	"github.com/mxcheck/mxcheck/specs/ra"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestFiles runs every scenario under testdata/ (make golden rewrites them).
func TestFiles(t *testing.T) { spectest.Files(t, ra.Spec, "testdata") }
