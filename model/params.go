package model

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParamKind is the type of a spec parameter.
type ParamKind uint8

const (
	// IntParam takes a decimal integer.
	IntParam ParamKind = iota
	// BoolParam takes true or false.
	BoolParam
	// StringParam takes free text the spec parses.
	StringParam
)

// Param declares one configuration parameter of a spec; the CLI turns it
// into a flag --Name.
type Param struct {
	Name    string
	Kind    ParamKind
	Default string
	Usage   string
}

// Values holds every parameter's value as text, defaults filled in.
type Values map[string]string

// Int returns parameter name as an integer.
func (v Values) Int(name string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v[name]))
	if err != nil {
		return 0, fmt.Errorf("--%s: %q is not an integer", name, v[name])
	}
	return n, nil
}

// IntIn returns parameter name as an integer in lo..hi; the error names the
// flag and the range.
func (v Values) IntIn(name string, lo, hi int) (int, error) {
	x, err := v.Int(name)
	if err != nil {
		return 0, err
	}
	if x < lo || x > hi {
		return 0, fmt.Errorf("--%s: must be between %d and %d, got %d", name, lo, hi, x)
	}
	return x, nil
}

// Bool returns parameter name as a boolean.
func (v Values) Bool(name string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(v[name]))
	if err != nil {
		return false, fmt.Errorf("--%s: %q is not true or false", name, v[name])
	}
	return b, nil
}

// String returns parameter name.
func (v Values) String(name string) string { return v[name] }

// Spec is a registry entry: a protocol with its parameters and a builder
// that compiles a configuration into a System.
type Spec struct {
	// Name is the spec's command-line name, e.g. "ra".
	Name string
	// Summary is one line for `mxcheck list`.
	Summary string
	// Params are the configuration parameters, in display order.
	Params []Param
	// Build compiles the configuration v; the error is one line naming the
	// bad parameter.
	Build func(v Values) (System, error)
}

// Defaults returns the spec's parameters at their default values.
func (s *Spec) Defaults() Values {
	v := Values{}
	for _, p := range s.Params {
		v[p.Name] = p.Default
	}
	return v
}

// Normalize fills in defaults, rejects unknown parameters and renders the
// values canonically (sorted "name=value" pairs) for metadata and goldens.
func (s *Spec) Normalize(given Values) (Values, error) {
	v := s.Defaults()
	for k, x := range given {
		if _, ok := v[k]; !ok {
			return nil, fmt.Errorf("spec %s has no parameter --%s", s.Name, k)
		}
		v[k] = x
	}
	return v, nil
}

// Flags renders values as sorted "--name=value" flags, skipping empty values
// and, when s is non-nil, the defaults of spec s.
func (v Values) Flags(s *Spec) []string {
	def := Values{}
	if s != nil {
		def = s.Defaults()
	}
	var out []string
	for k, x := range v {
		if d, ok := def[k]; ok && d == x || x == "" {
			continue
		}
		out = append(out, "--"+k+"="+x)
	}
	sort.Strings(out)
	return out
}

// ParsePairs parses "I:J[,I:J...]" into pairs of node ids below n; param
// names the flag for the error message.
func ParsePairs(param, text string, n int) ([][2]NodeID, error) {
	var out [][2]NodeID
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	for _, item := range strings.Split(text, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("--%s: %q is not of the form I:J", param, item)
		}
		i, err1 := strconv.Atoi(a)
		j, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("--%s: %q is not of the form I:J with integers", param, item)
		}
		if i < 0 || i >= n || j < 0 || j >= n {
			return nil, fmt.Errorf("--%s: %q names a node outside 0..%d", param, item, n-1)
		}
		out = append(out, [2]NodeID{NodeID(i), NodeID(j)})
	}
	return out, nil
}

// Choice checks that value is one of options; param names the flag.
func Choice(param, value string, options ...string) error {
	for _, o := range options {
		if value == o {
			return nil
		}
	}
	return fmt.Errorf("--%s: unknown value %q (want one of %s)", param, value, strings.Join(options, ", "))
}
