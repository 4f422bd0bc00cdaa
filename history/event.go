package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Event types, as Jepsen names them.
const (
	Invoke = "invoke" // an operation starts
	Ok     = "ok"     // it completed and took effect
	Fail   = "fail"   // it completed and did not take effect
	Info   = "info"   // its outcome is unknown (a timeout, a crash)
)

// Functions a lock history records.
const (
	Acquire = "acquire"
	Release = "release"
)

// Event is one line of a history: a process invoking or completing an
// operation on the lock named Key. Time is in nanoseconds on one clock
// (any origin); Token is the fencing token an acquire returned, if any.
type Event struct {
	Process string `json:"process"`
	Type    string `json:"type"`
	F       string `json:"f"`
	Key     string `json:"key,omitempty"`
	Time    int64  `json:"time"`
	Token   *int64 `json:"token,omitempty"`
}

// rawEvent accepts a process given as a number or a string.
type rawEvent struct {
	Process json.RawMessage `json:"process"`
	Type    string          `json:"type"`
	F       string          `json:"f"`
	Key     string          `json:"key"`
	Time    *int64          `json:"time"`
	Token   *int64          `json:"token"`
}

// ReadJSONL reads a history, one JSON object per line (blank lines are
// skipped). The error names the first malformed line: "line 7: ...".
func ReadJSONL(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var out []Event
	line := 1
	for ; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		e, err := parseEvent(b)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line, err)
	}
	return out, nil
}

func parseEvent(b []byte) (Event, error) {
	var raw rawEvent
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Event{}, fmt.Errorf("not a history event: %v", err)
	}
	if dec.More() {
		return Event{}, fmt.Errorf("more than one JSON value on the line")
	}
	e := Event{Type: raw.Type, F: raw.F, Key: raw.Key, Token: raw.Token}
	switch {
	case len(raw.Process) == 0:
		return e, fmt.Errorf(`no "process"`)
	case raw.Process[0] == '"':
		if err := json.Unmarshal(raw.Process, &e.Process); err != nil {
			return e, fmt.Errorf(`"process": %v`, err)
		}
	default:
		n, err := strconv.ParseInt(string(raw.Process), 10, 64)
		if err != nil {
			return e, fmt.Errorf(`"process" must be an integer or a string, got %s`, raw.Process)
		}
		e.Process = strconv.FormatInt(n, 10)
	}
	switch e.Type {
	case Invoke, Ok, Fail, Info:
	default:
		return e, fmt.Errorf(`"type" must be invoke, ok, fail or info, got %q`, e.Type)
	}
	if e.F != Acquire && e.F != Release {
		return e, fmt.Errorf(`"f" must be acquire or release, got %q`, e.F)
	}
	if raw.Time == nil {
		return e, fmt.Errorf(`no "time"`)
	}
	e.Time = *raw.Time
	return e, nil
}

// MarshalJSON writes a numeric process as a number, as Jepsen does.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	var proc any = e.Process
	if n, err := strconv.ParseInt(e.Process, 10, 64); err == nil && strconv.FormatInt(n, 10) == e.Process {
		proc = n
	}
	return json.Marshal(struct {
		Process any `json:"process"`
		plain
	}{proc, plain(e)})
}
