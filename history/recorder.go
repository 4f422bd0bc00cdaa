package history

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"
)

// Recorder writes a history as JSON Lines, one Event per call, from any
// number of goroutines. Each event's time is read from one monotonic clock
// (nanoseconds since NewRecorder) while holding the recorder's lock, so
// times in the file never decrease. Call Invoke just before an operation
// starts and Ok, Fail or Info just after it ends: the interval between them
// then contains the instant the operation took effect.
type Recorder struct {
	mu    sync.Mutex
	enc   *json.Encoder
	start time.Time
	err   error
}

// NewRecorder returns a recorder writing to w.
func NewRecorder(w io.Writer) *Recorder {
	return &Recorder{enc: json.NewEncoder(w), start: time.Now()}
}

// Record writes e with its Time set to now.
func (r *Recorder) Record(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	e.Time = int64(time.Since(r.start))
	r.err = r.enc.Encode(e)
}

// Invoke records that process starts f on key.
func (r *Recorder) Invoke(process int, f, key string) {
	r.Record(Event{Process: strconv.Itoa(process), Type: Invoke, F: f, Key: key})
}

// Ok records that process's f on key completed and took effect.
func (r *Recorder) Ok(process int, f, key string) {
	r.Record(Event{Process: strconv.Itoa(process), Type: Ok, F: f, Key: key})
}

// OkToken records a completed acquire that returned fencing token token.
func (r *Recorder) OkToken(process int, f, key string, token int64) {
	r.Record(Event{Process: strconv.Itoa(process), Type: Ok, F: f, Key: key, Token: &token})
}

// Fail records that process's f on key completed without effect.
func (r *Recorder) Fail(process int, f, key string) {
	r.Record(Event{Process: strconv.Itoa(process), Type: Fail, F: f, Key: key})
}

// Info records that the outcome of process's f on key is unknown.
func (r *Recorder) Info(process int, f, key string) {
	r.Record(Event{Process: strconv.Itoa(process), Type: Info, F: f, Key: key})
}

// Err returns the first write error; after one, the recorder writes
// nothing more.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
