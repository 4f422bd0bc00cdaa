package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/mxcheck/mxcheck/model"
)

// ITFMeta is the metadata mxcheck stores in an ITF trace's "#meta": enough
// to rebuild the configuration and re-check the violation.
type ITFMeta struct {
	Format      string            `json:"format"`
	Description string            `json:"format-description"`
	Source      string            `json:"source"`
	Spec        string            `json:"spec"`
	Params      map[string]string `json:"params"`
	Property    string            `json:"property"`
	// Kind is what the trace shows: a violation of an invariant
	// ("invariant"), a deadlock ("deadlock"), a liveness lasso
	// ("liveness"), or a witness of a sometimes property ("sometimes").
	Kind   model.Expectation `json:"kind"`
	Length int               `json:"length"`
	// Node and Choices describe a liveness lasso: the starving node and
	// how random choices counted ("probabilistic" or "adversarial").
	Node    string `json:"node,omitempty"`
	Choices string `json:"choices,omitempty"`
}

// ITFTrace is a trace in the Informal Trace Format
// (https://apalache-mc.org/docs/adr/015adr-trace.html).
type ITFTrace struct {
	Meta   ITFMeta          `json:"#meta"`
	Vars   []string         `json:"vars"`
	States []map[string]any `json:"states"`
	// Loop, for a lasso, is the index of the state the trace loops back
	// to: the last state equals States[Loop], so every step of the loop,
	// the closing one included, is in the trace.
	Loop *int `json:"loop,omitempty"`
}

// NewITF builds the ITF trace of violation v of spec (with its parameters).
func NewITF(spec string, params map[string]string, v Violation) *ITFTrace {
	t := &ITFTrace{Meta: ITFMeta{
		Format:      "ITF",
		Description: "https://apalache-mc.org/docs/adr/015adr-trace.html",
		Source:      "mxcheck",
		Spec:        spec,
		Params:      params,
		Property:    v.Property,
		Kind:        v.Kind,
		Length:      v.Trace.Len(),
	}}
	if v.Lasso != nil {
		loop := v.Lasso.Loop
		t.Loop = &loop
		t.Meta.Node, t.Meta.Choices = v.Lasso.Node, v.Lasso.Choices
	}
	for i, s := range v.Trace.Steps {
		st := map[string]any{}
		for k, x := range s.State {
			st[k] = x
		}
		meta := map[string]any{"index": i}
		if i > 0 {
			meta["step"] = s.Label
			meta["kind"] = s.Kind
		}
		st["#meta"] = meta
		t.States = append(t.States, st)
		if i == 0 {
			for k := range s.State {
				t.Vars = append(t.Vars, k)
			}
			sort.Strings(t.Vars)
		}
	}
	return t
}

// Write renders t as indented JSON.
func (t *ITFTrace) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(t)
}

// ReadITF parses an ITF trace written by mxcheck. The error says in one line
// what is malformed.
func ReadITF(r io.Reader) (*ITFTrace, error) {
	data, err := readLimited(r, MaxITFBytes)
	if err != nil {
		return nil, err
	}
	if err := strictJSON(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var t ITFTrace
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("not an ITF trace: %v", err)
	}
	var kind struct {
		Meta struct {
			Kind *string `json:"kind"`
		} `json:"#meta"`
	}
	hasKind := json.Unmarshal(data, &kind) == nil && kind.Meta.Kind != nil
	switch {
	case t.Meta.Source != "mxcheck":
		return nil, errors.New(`not an mxcheck trace: "#meta" lacks "source": "mxcheck"`)
	case t.Meta.Spec == "":
		return nil, errors.New(`trace names no spec in "#meta"`)
	case t.Meta.Property == "":
		return nil, errors.New(`trace names no violated property in "#meta"`)
	case !hasKind:
		return nil, errors.New(`trace has no violation kind in "#meta"`)
	case len(t.States) == 0:
		return nil, errors.New("trace has no states")
	case t.Meta.Length != len(t.States)-1:
		return nil, fmt.Errorf(`"#meta" says %d steps, the trace has %d`, t.Meta.Length, len(t.States)-1)
	case t.Meta.Kind == model.NoDeadlock && t.Meta.Property != Deadlock:
		return nil, fmt.Errorf("a deadlock trace violates %s, not %q", Deadlock, t.Meta.Property)
	case t.Meta.Kind != model.NoDeadlock && t.Meta.Property == Deadlock:
		return nil, fmt.Errorf("%s is violated by a deadlock trace, not a %s trace", Deadlock, kindWord(t.Meta.Kind))
	}
	if err := t.checkLasso(); err != nil {
		return nil, err
	}
	for i, s := range t.States {
		m, ok := s["#meta"].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("state %d has no \"#meta\"", i)
		}
		if idx, ok := m["index"]; ok && fmt.Sprint(idx) != fmt.Sprint(i) {
			return nil, fmt.Errorf("state %d has \"index\" %v", i, idx)
		}
		if i > 0 {
			if _, ok := m["step"].(string); !ok {
				return nil, fmt.Errorf("state %d does not name the step that led to it", i)
			}
		}
	}
	return &t, nil
}

// stepLabel is the step stored in state i's metadata.
func (t *ITFTrace) stepLabel(i int) string {
	m, _ := t.States[i]["#meta"].(map[string]any)
	s, _ := m["step"].(string)
	return s
}

// canonical renders an ITF state without its metadata as canonical JSON,
// so stored and recomputed states compare byte for byte.
func canonical(s map[string]any) string {
	c := make(map[string]any, len(s))
	for k, v := range s {
		if k != "#meta" {
			c[k] = v
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	return string(b)
}

// checkLasso checks the lasso fields of a liveness trace.
func (t *ITFTrace) checkLasso() error {
	if t.Meta.Kind != model.Eventually {
		if t.Loop != nil {
			return errors.New(`only a liveness trace has a "loop"`)
		}
		return nil
	}
	switch {
	case t.Loop == nil:
		return errors.New(`liveness trace has no "loop"`)
	case *t.Loop < 0 || *t.Loop >= len(t.States):
		return fmt.Errorf(`"loop" %d is not the index of a state (0..%d)`, *t.Loop, len(t.States)-1)
	case t.Meta.Node == "":
		return errors.New(`liveness trace names no starving node in "#meta"`)
	case t.Meta.Choices != "probabilistic" && t.Meta.Choices != "adversarial":
		return fmt.Errorf(`liveness trace has unknown "choices" %q`, t.Meta.Choices)
	}
	return nil
}

// kindWord is the word trace files use for kind ("invariant", ...).
func kindWord(kind model.Expectation) string {
	b, err := kind.MarshalText()
	if err != nil {
		return kind.String()
	}
	return string(b)
}
