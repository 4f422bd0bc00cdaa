package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeSuite(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.suite")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 18 item 3: a row with a stray word, or a flag a row cannot honour,
// is a bad file (exit 2), not a silently different check.
func TestSuiteRowsRefused(t *testing.T) {
	for name, tc := range map[string]struct{ text, msg string }{
		"stray-word":     {"ra --nodes=3 missing=1:0 => verified\n", `line 1: unexpected word "missing=1:0"`},
		"stray-word-end": {"ra => verified\nra --nodes=3 x => verified\n", `line 2: unexpected word "x"`},
		"trace-out":      {"ra --trace-out=t.json => verified\n", "--trace-out is not supported"},
		"dot-out":        {"ra --dot-out=t.dot => verified\n", "--dot-out is not supported"},
		"json":           {"ra --json => verified\n", "--json is not supported"},
	} {
		code, out, errs := call("suite", writeSuite(t, tc.text))
		if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q, stdout %q", name, code, errs, out)
		}
	}
}

// A UTF-8 byte-order mark at the start of a suite file is not part of the
// first spec's name.
func TestSuiteBOM(t *testing.T) {
	code, out, errs := call("suite", writeSuite(t, "\ufeffra --nodes=2 => verified\n"))
	if code != 0 || !strings.Contains(out, "1 rows, 1 as expected") {
		t.Errorf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
}

// An interrupted suite marks the rows it did not finish INCOMPLETE, not
// MISMATCH, and exits 3.
func TestSuiteInterrupted(t *testing.T) {
	old := suiteInterrupt
	defer func() { suiteInterrupt = old }()
	suiteInterrupt = func(io.Writer) (<-chan struct{}, func()) {
		c := make(chan struct{})
		close(c)
		return c, func() {}
	}
	code, out, errs := call("suite", writeSuite(t, "ra --nodes=3 => verified\nra --missing=1:0 => violated\n"))
	if code != exitIncomplete {
		t.Errorf("exit %d, want 3; stderr %q", code, errs)
	}
	if strings.Contains(out, "MISMATCH") || strings.Count(out, "INCOMPLETE (interrupted)") != 2 || !strings.Contains(out, "2 interrupted") {
		t.Errorf("table:\n%s", out)
	}
}
