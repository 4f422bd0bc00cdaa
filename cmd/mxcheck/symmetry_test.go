package main

import (
	"strings"
	"testing"
	"time"
)

// Issue 18 item 6: symmetry reduction on 8 nodes of a ring used to spend
// 14 s on each state and ignore --timeout; now the limit ends it on time.
func TestSymmetryLargeRingHonoursTimeout(t *testing.T) {
	start := time.Now()
	code, out, errs := call("check", "lme", "--nodes", "8", "--topology", "ring", "--timeout", "1s")
	if code != exitIncomplete || !strings.Contains(out, "stopped by timeout") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Errorf("a 1s timeout took %v", el)
	}
}
