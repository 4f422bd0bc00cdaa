package history_test

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mxcheck/mxcheck/history"
)

// check reads a recorded history back and checks it against model m.
func check(t *testing.T, buf *bytes.Buffer, m string) *history.Result {
	t.Helper()
	events, err := history.ReadJSONL(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := history.Operations(events, 0)
	if err != nil {
		t.Fatal(err)
	}
	model, err := history.ParseModel(m)
	if err != nil {
		t.Fatal(err)
	}
	return history.Check(ops, model, false, 30*time.Second)
}

// recordMutex records goroutines taking turns in a sync.Mutex-guarded
// critical section under load.
func recordMutex(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	rec := history.NewRecorder(&buf)
	var mu sync.Mutex
	var wg sync.WaitGroup
	inside := 0
	for p := 0; p < 4; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for i := 0; i < 40; i++ {
				rec.Invoke(p, history.Acquire, "")
				mu.Lock()
				rec.Ok(p, history.Acquire, "")
				inside++
				if inside != 1 {
					t.Error("sync.Mutex let two goroutines in")
				}
				runtime.Gosched()
				inside--
				rec.Invoke(p, history.Release, "")
				mu.Unlock()
				rec.Ok(p, history.Release, "")
			}
		}(p)
	}
	wg.Wait()
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// TestRecordedMutexIsLinearizable: a history recorded from a correct lock
// is linearizable as a mutex (and as a semaphore of 2, a weaker spec), and
// widening it by a clock skew keeps it so.
func TestRecordedMutexIsLinearizable(t *testing.T) {
	buf := recordMutex(t)
	for _, m := range []string{"mutex", "semaphore=2"} {
		if r := check(t, buf, m); r.Verdict != history.Linearizable {
			t.Errorf("sync.Mutex against %s: %v", m, r.Verdict)
		}
	}
	events, _ := history.ReadJSONL(bytes.NewReader(buf.Bytes()))
	ops, err := history.Operations(events, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r := history.Check(ops, history.Model{Kind: "mutex"}, false, 30*time.Second); r.Verdict != history.Linearizable {
		t.Errorf("with 1ms skew: %v", r.Verdict)
	}
}

// leaseLock is a lock service with leases: an acquire succeeds when the
// lock is free or its lease has run out. A holder slower than its lease
// loses the lock without knowing.
type leaseLock struct {
	mu      sync.Mutex
	holder  int
	expires time.Time
	ttl     time.Duration
}

func (l *leaseLock) tryAcquire(p int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder >= 0 && time.Now().Before(l.expires) {
		return false
	}
	l.holder, l.expires = p, time.Now().Add(l.ttl)
	return true
}

func (l *leaseLock) release(p int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holder != p {
		return false
	}
	l.holder = -1
	return true
}

// TestRecordedExpiredLeaseIsNot: process 0 holds a 5ms lease for 30ms;
// process 1 gets the lock meanwhile. The history is not linearizable as a
// mutex, and the picture is written.
func TestRecordedExpiredLeaseIsNot(t *testing.T) {
	var buf bytes.Buffer
	rec := history.NewRecorder(&buf)
	l := &leaseLock{holder: -1, ttl: 5 * time.Millisecond}
	held := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		rec.Invoke(0, history.Acquire, "")
		if !l.tryAcquire(0) {
			t.Error("the free lock refused process 0")
		}
		rec.Ok(0, history.Acquire, "")
		close(held)
		time.Sleep(30 * time.Millisecond) // longer than the lease
		rec.Invoke(0, history.Release, "")
		if l.release(0) {
			rec.Ok(0, history.Release, "")
		} else {
			rec.Fail(0, history.Release, "")
		}
	}()
	go func() {
		defer wg.Done()
		<-held
		for {
			rec.Invoke(1, history.Acquire, "")
			if l.tryAcquire(1) {
				rec.Ok(1, history.Acquire, "")
				break
			}
			rec.Fail(1, history.Acquire, "")
			time.Sleep(time.Millisecond)
		}
		rec.Invoke(1, history.Release, "")
		l.release(1)
		rec.Ok(1, history.Release, "")
	}()
	wg.Wait()
	r := check(t, &buf, "mutex")
	if r.Verdict != history.NotLinearizable {
		t.Fatalf("expired lease: %v", r.Verdict)
	}
	var html bytes.Buffer
	if err := r.WriteHTML(&html); err != nil || !strings.Contains(html.String(), "<html") {
		t.Errorf("picture: %v, %d bytes", err, html.Len())
	}
}

// racyLock tests then sets, non-atomically.
type racyLock struct{ locked atomic.Bool }

// lock waits for the lock to look free, runs pause, then takes it.
func (l *racyLock) lock(pause func()) {
	for {
		if !l.locked.Load() {
			pause()
			l.locked.Store(true)
			return
		}
		runtime.Gosched()
	}
}

func (l *racyLock) unlock() { l.locked.Store(false) }

// barrier returns a function that blocks until n goroutines called it (the
// first call of each; later calls return at once).
func barrier(n int) func(p int) {
	var wg sync.WaitGroup
	wg.Add(n)
	var mu sync.Mutex
	seen := map[int]bool{}
	return func(p int) {
		mu.Lock()
		first := !seen[p]
		seen[p] = true
		mu.Unlock()
		if first {
			wg.Done()
			wg.Wait()
		}
	}
}

// TestRecordedCheckThenSetIsNot: two goroutines both see the racy lock
// free before either sets it (a barrier between the test and the set lets
// them meet there), both enter, and each works in the critical section
// until the other is in too. The history is not linearizable.
func TestRecordedCheckThenSetIsNot(t *testing.T) {
	var buf bytes.Buffer
	rec := history.NewRecorder(&buf)
	var l racyLock
	between, inside := barrier(2), barrier(2)
	var wg sync.WaitGroup
	for p := 0; p < 2; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				rec.Invoke(p, history.Acquire, "")
				l.lock(func() { between(p) })
				rec.Ok(p, history.Acquire, "")
				inside(p) // the critical section's work
				rec.Invoke(p, history.Release, "")
				l.unlock()
				rec.Ok(p, history.Release, "")
			}
		}(p)
	}
	wg.Wait()
	if r := check(t, &buf, "mutex"); r.Verdict != history.NotLinearizable {
		t.Fatalf("check-then-set race: %v", r.Verdict)
	}
}

// TestRecorderFormat: processes are written as numbers, every line is one
// event, and times never decrease.
func TestRecorderFormat(t *testing.T) {
	buf := recordMutex(t)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4*40*4 || !strings.HasPrefix(lines[0], `{"process":`) || strings.HasPrefix(lines[0], `{"process":"`) {
		t.Fatalf("%d lines, first %s", len(lines), lines[0])
	}
	events, err := history.ReadJSONL(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(events); i++ {
		if events[i].Time < events[i-1].Time {
			t.Fatalf("time goes back at line %d", i+1)
		}
	}
}

// TestTestdataVerdicts pins the example histories the README checks.
func TestTestdataVerdicts(t *testing.T) {
	for file, want := range map[string]history.Verdict{"testdata/mutex.jsonl": history.Linearizable, "testdata/expired-lease.jsonl": history.NotLinearizable} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := check(t, bytes.NewBuffer(b), "mutex").Verdict; got != want {
			t.Errorf("%s: %v, want %v", file, got, want)
		}
	}
}
