package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzHistory: any bytes either fail to read with one error line naming
// the line, or read into events that pair into operations (or fail with one
// line) and check under each lock model within the timeout; nothing
// panics, and a verdict is always one of the three.
func FuzzHistory(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"process":0,"type":"invoke","f":"acquire","time":1}` + "\n" + `{"process":0,"type":"info","f":"acquire","time":2}`))
	f.Add([]byte(`{"process":"a","type":"ok","f":"release","key":"k","token":3}`))
	models := []string{"mutex", "fenced-mutex", "semaphore=2"}
	f.Fuzz(func(t *testing.T, data []byte) {
		events, err := ReadJSONL(strings.NewReader(string(data)))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("read error is not one line naming the line: %q", err)
			}
			return
		}
		ops, err := Operations(events, time.Millisecond)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("pairing error is not one line: %q", err)
			}
			return
		}
		for _, name := range models {
			m, err := ParseModel(name)
			if err != nil {
				t.Fatal(err)
			}
			r := Check(ops, m, true, 200*time.Millisecond)
			switch r.Verdict {
			case Linearizable, NotLinearizable, Unknown:
			default:
				t.Fatalf("verdict %v", r.Verdict)
			}
		}
	})
}
