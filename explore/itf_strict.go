package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxITFBytes bounds the size of a trace file ReadITF accepts: it stops
// reading there, so a huge or endless input costs no more memory than this.
// The longest stored counterexample is a few hundred KiB.
const MaxITFBytes = 64 << 20

// readLimited reads all of r, or fails once more than max bytes arrive.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d MiB: not a trace mxcheck wrote", max>>20)
	}
	return data, nil
}

// itfFields are the keys mxcheck writes, per object that is decoded into a
// struct: encoding/json would match them ignoring case and let a repeated
// key override the first, so a file could say one thing to a reader and
// another to mxcheck.
var itfFields = map[string][]string{
	"":      {"#meta", "vars", "states", "loop"},
	"#meta": {"format", "format-description", "source", "spec", "params", "property", "kind", "length", "node", "choices"},
}

// strictJSON checks that data is exactly one JSON value (nothing but white
// space after it), that no object repeats a key, and that the trace's
// top-level object and its "#meta" use only the keys mxcheck writes,
// spelled exactly.
func strictJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := strictValue(dec, "", 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("not an ITF trace: more data after the trace's JSON object")
	}
	return nil
}

// maxJSONDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxJSONDepth = 64

// strictValue reads one value; path names the object for itfFields ("" the
// top level, "#meta" the trace's metadata, "-" anything else).
func strictValue(dec *json.Decoder, path string, depth int) error {
	if depth > maxJSONDepth {
		return fmt.Errorf("not an ITF trace: nested deeper than %d", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("not an ITF trace: %v", err)
	}
	switch tok {
	case json.Delim('['):
		for dec.More() {
			if err := strictValue(dec, "-", depth+1); err != nil {
				return err
			}
		}
	case json.Delim('{'):
		known, check := itfFields[path]
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return fmt.Errorf("not an ITF trace: %v", err)
			}
			key := tok.(string) // the decoder only yields string keys here
			if seen[key] {
				return fmt.Errorf("not an ITF trace: key %q repeated in one object", key)
			}
			seen[key] = true
			sub := "-"
			if check {
				if !exactField(known, key) {
					return fmt.Errorf("not an ITF trace: unexpected key %q in %s", key, objectName(path))
				}
				if path == "" && key == "#meta" {
					sub = "#meta"
				}
			}
			if err := strictValue(dec, sub, depth+1); err != nil {
				return err
			}
		}
	default:
		return nil // a scalar
	}
	_, err = dec.Token() // the closing delimiter
	if err != nil {
		return fmt.Errorf("not an ITF trace: %v", err)
	}
	return nil
}

func exactField(known []string, key string) bool {
	for _, k := range known {
		if k == key {
			return true
		}
	}
	return false
}

func objectName(path string) string {
	if path == "" {
		return "the trace object"
	}
	return `"#meta"`
}
