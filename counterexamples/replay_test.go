package counterexamples

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/specs"
)

// TestReplayAll replays every stored trace: each must still execute step by
// step and end in the violation it records.
func TestReplayAll(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".itf.json") {
			return err
		}
		n++
		t.Run(path, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := explore.ReplayReader(f, specs.Lookup)
			if err != nil {
				t.Fatalf("malformed: %v", err)
			}
			if !res.Reproduced {
				t.Errorf("no longer reproduces: %s", res.Reason)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no stored counterexamples found")
	}
}
