package history_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/history"
)

// verdict checks a history written as JSON Lines.
func verdict(t *testing.T, jsonl, model string, byKey bool, skew, timeout time.Duration) history.Verdict {
	t.Helper()
	events, err := history.ReadJSONL(strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := history.Operations(events, skew)
	if err != nil {
		t.Fatal(err)
	}
	m, err := history.ParseModel(model)
	if err != nil {
		t.Fatal(err)
	}
	return history.Check(ops, m, byKey, timeout).Verdict
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// ev writes one event line.
func ev(p int, typ, f, key string, at int64) string {
	return fmt.Sprintf(`{"process": %d, "type": %q, "f": %q, "key": %q, "time": %d}`, p, typ, f, key, at)
}

func TestHistories(t *testing.T) {
	acquire := func(p int, key string, from, to int64) []string {
		return []string{ev(p, "invoke", "acquire", key, from), ev(p, "ok", "acquire", key, to)}
	}
	release := func(p int, key string, from, to int64) []string {
		return []string{ev(p, "invoke", "release", key, from), ev(p, "ok", "release", key, to)}
	}
	cat := func(parts ...[]string) string {
		var all []string
		for _, p := range parts {
			all = append(all, p...)
		}
		return lines(all...)
	}
	// p0 holds [0,10]..[20,30]; p1 acquires inside.
	overlap := cat(acquire(0, "a", 0, 10), acquire(1, "b", 12, 14), release(0, "a", 20, 30), release(1, "b", 40, 41))
	// p1's acquire ends 1ns before p0's release starts.
	near := cat(acquire(0, "a", 0, 10), release(0, "a", 21, 30), acquire(1, "a", 12, 20), release(1, "a", 40, 41))
	for _, c := range []struct {
		name    string
		history string
		model   string
		byKey   bool
		skew    time.Duration
		want    history.Verdict
	}{
		{"sequential", cat(acquire(0, "a", 0, 1), release(0, "a", 2, 3), acquire(1, "a", 4, 5), release(1, "a", 6, 7)), "mutex", false, 0, history.Linearizable},
		{"overlap", overlap, "mutex", false, 0, history.NotLinearizable},
		{"overlap on two keys, one lock", overlap, "mutex", false, 0, history.NotLinearizable},
		{"overlap on two keys, by key", overlap, "mutex", true, 0, history.Linearizable},
		{"overlap, two permits", overlap, "semaphore=2", false, 0, history.Linearizable},
		{"near miss", near, "mutex", false, 0, history.NotLinearizable},
		{"near miss hidden by skew", near, "mutex", false, 2, history.Linearizable},
		{"release by a non-holder", cat(acquire(0, "a", 0, 1), release(1, "a", 2, 3)), "mutex", false, 0, history.NotLinearizable},
		// An indeterminate release may have happened: p1 may then acquire.
		{"info release", lines(append(acquire(0, "a", 0, 1), ev(0, "invoke", "release", "a", 2), ev(0, "info", "release", "a", 3), ev(1, "invoke", "acquire", "a", 4), ev(1, "ok", "acquire", "a", 5))...), "mutex", false, 0, history.Linearizable},
		// An acquire that never completed may not have happened.
		{"pending acquire", lines(ev(0, "invoke", "acquire", "a", 0), ev(1, "invoke", "acquire", "a", 1), ev(1, "ok", "acquire", "a", 2)), "mutex", false, 0, history.Linearizable},
		// A failed acquire did not happen.
		{"failed acquire", lines(append(acquire(0, "a", 0, 1), ev(1, "invoke", "acquire", "a", 2), ev(1, "fail", "acquire", "a", 3))...), "mutex", false, 0, history.Linearizable},
		{"tokens increase", lines(`{"process":0,"type":"invoke","f":"acquire","time":0}`, `{"process":0,"type":"ok","f":"acquire","time":1,"token":1}`,
			`{"process":0,"type":"invoke","f":"release","time":2}`, `{"process":0,"type":"ok","f":"release","time":3}`,
			`{"process":1,"type":"invoke","f":"acquire","time":4}`, `{"process":1,"type":"ok","f":"acquire","time":5,"token":2}`), "fenced-mutex", false, 0, history.Linearizable},
		{"token reused", lines(`{"process":0,"type":"invoke","f":"acquire","time":0}`, `{"process":0,"type":"ok","f":"acquire","time":1,"token":2}`,
			`{"process":0,"type":"invoke","f":"release","time":2}`, `{"process":0,"type":"ok","f":"release","time":3}`,
			`{"process":1,"type":"invoke","f":"acquire","time":4}`, `{"process":1,"type":"ok","f":"acquire","time":5,"token":2}`), "fenced-mutex", false, 0, history.NotLinearizable},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := verdict(t, c.history, c.model, c.byKey, c.skew, 0); got != c.want {
				t.Errorf("%v, want %v", got, c.want)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	for _, c := range []struct{ name, history, want string }{
		{"not json", lines(ev(0, "invoke", "acquire", "", 0), "{oops"), "line 2: "},
		{"bad type", lines(ev(0, "invoke", "acquire", "", 0), "", `{"process":0,"type":"done","f":"acquire","time":1}`), "line 3: \"type\""},
		{"bad f", lines(`{"process":0,"type":"invoke","f":"read","time":1}`), "line 1: \"f\""},
		{"no time", lines(`{"process":0,"type":"invoke","f":"acquire"}`), "line 1: no \"time\""},
		{"unknown field", lines(`{"process":0,"type":"invoke","f":"acquire","time":1,"value":3}`), "line 1: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := history.ReadJSONL(strings.NewReader(c.history))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line starting %q", err, c.want)
			}
		})
	}
	for _, c := range []struct{ name, history, want string }{
		{"ok without invoke", lines(ev(0, "ok", "acquire", "", 0)), "event 1: "},
		{"two invokes", lines(ev(0, "invoke", "acquire", "", 0), ev(0, "invoke", "release", "", 1)), "event 2: "},
		{"wrong f", lines(ev(0, "invoke", "acquire", "", 0), ev(0, "ok", "release", "", 1)), "event 2: "},
		{"time backwards", lines(ev(0, "invoke", "acquire", "", 5), ev(0, "ok", "acquire", "", 1)), "event 2: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			events, err := history.ReadJSONL(strings.NewReader(c.history))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := history.Operations(events, 0); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want %q...", err, c.want)
			}
		})
	}
}

// HardHistory is a history porcupine cannot decide quickly: n processes
// try to release a lock they do not hold, with an unknown outcome (so each
// may be placed anywhere after its call, or not have happened), then two
// processes acquire the lock one after the other with no release between.
// It is not linearizable, but proving it means trying every subset of the
// n releases at every point: 2^n orders.
func HardHistory(n int) string {
	var ls []string
	for p := 0; p < n; p++ {
		ls = append(ls, ev(p, "invoke", "release", "", 0), ev(p, "info", "release", "", 1))
	}
	ls = append(ls, ev(n, "invoke", "acquire", "", 2), ev(n, "ok", "acquire", "", 3))
	ls = append(ls, ev(n+1, "invoke", "acquire", "", 4), ev(n+1, "ok", "acquire", "", 5))
	return lines(ls...)
}

func TestTimeoutIsUnknown(t *testing.T) {
	if got := verdict(t, HardHistory(3), "mutex", false, 0, 10*time.Second); got != history.NotLinearizable {
		t.Fatalf("small hard history: %v", got)
	}
	start := time.Now()
	if got := verdict(t, HardHistory(40), "mutex", false, 0, 50*time.Millisecond); got != history.Unknown {
		t.Errorf("40 processes in 50ms: %v, want unknown", got)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("a 50ms timeout took %v", el)
	}
}
