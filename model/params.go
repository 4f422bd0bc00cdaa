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
	// KindInt is a decimal integer in Min..Max.
	KindInt ParamKind = iota
	// KindBool is true or false.
	KindBool
	// KindEnum is one of Options.
	KindEnum
	// KindPairs is a list "I:J[,I:J...]" of node pairs, ids below --nodes.
	KindPairs
	// KindTopology is a named topology (path, ring, star, complete, none)
	// over --nodes nodes with --delta ports, or an edge list "u.p-v.q,...".
	KindTopology
	// KindText is free text the spec parses itself.
	KindText
)

// Option is one value of an enum parameter, with its one-line meaning.
type Option struct {
	Name  string
	Usage string
}

// Param declares one configuration parameter of a spec. The CLI turns it
// into a flag --Name, `mxcheck list` prints it, suite rows and test files
// bind it; Spec.Bind checks every value against the declaration, so a
// spec's Build only ever sees valid values. Build Params with the
// constructors (IntParam, BoolParam, EnumParam, ...).
type Param struct {
	Name  string
	Usage string
	Kind  ParamKind
	// Default is the value as text.
	Default string
	// Min and Max bound an integer (inclusive).
	Min, Max int
	// Limit, optional, tightens Max from parameters declared before this
	// one (e.g. churn ≤ n(n-1)); it returns the bound and what it is.
	Limit func(a *Args) (max int, why string)
	// Options are an enum's values.
	Options []Option
	// Distinct forbids a pair I:I (KindPairs).
	Distinct bool
}

// IntParam declares an integer parameter in min..max.
func IntParam(name string, def, min, max int, usage string) Param {
	return Param{Name: name, Usage: usage, Kind: KindInt, Default: strconv.Itoa(def), Min: min, Max: max}
}

// BoolParam declares a boolean parameter.
func BoolParam(name string, def bool, usage string) Param {
	return Param{Name: name, Usage: usage, Kind: KindBool, Default: strconv.FormatBool(def)}
}

// EnumParam declares a parameter taking one of options; the first option is
// the default.
func EnumParam(name, usage string, options ...Option) Param {
	return Param{Name: name, Usage: usage, Kind: KindEnum, Default: options[0].Name, Options: options}
}

// PairsParam declares a list of node pairs "I:J[,I:J...]" (default empty);
// ids must be below the value of the parameter "nodes", which must be
// declared before it. Distinct forbids I:I.
func PairsParam(name string, distinct bool, usage string) Param {
	return Param{Name: name, Usage: usage, Kind: KindPairs, Distinct: distinct}
}

// TopologyParam declares an initial topology over the parameters "nodes"
// and "delta" (declared before it): path, ring, star, complete, none, or
// an edge list "u.p-v.q,...".
func TopologyParam(name, def, usage string) Param {
	return Param{Name: name, Usage: usage, Kind: KindTopology, Default: def}
}

// TextParam declares free text that the spec parses itself.
func TextParam(name, def, usage string) Param {
	return Param{Name: name, Usage: usage, Kind: KindText, Default: def}
}

// NodesParam is the usual "nodes" parameter: 1..MaxNodes.
func NodesParam(def int) Param { return IntParam("nodes", def, 1, MaxNodes, "number of nodes") }

// RequestsParam is the usual "requests" parameter: CS requests per node,
// 0..15.
func RequestsParam(def int) Param {
	return IntParam("requests", def, 0, 15, "CS requests per node")
}

// MissingParam is the usual "missing" parameter: node I's membership list
// lacks node J (see Args.Members).
func MissingParam() Param {
	return PairsParam("missing", true, "I:J[,I:J...]: node I's membership list lacks node J")
}

// ChurnParam is the usual "churn" parameter: membership entries the
// adversary may remove while the protocol runs, at most n(n-1).
func ChurnParam() Param {
	p := IntParam("churn", 0, 0, 255, "membership entries the adversary may remove while the protocol runs")
	p.Limit = func(a *Args) (int, string) {
		n := a.Int("nodes")
		return n * (n - 1), "the entries of other nodes in the lists"
	}
	return p
}

// Values holds parameter values as text, keyed by name: what a command line,
// a suite row or a trace file gives. Spec.Bind checks them.
type Values map[string]string

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

// Args is a checked configuration of a spec: every declared parameter with
// a valid value. Its getters panic on a name the spec did not declare with
// that kind (a bug in the spec, caught by its tests), never on user input.
type Args struct {
	spec  *Spec
	text  Values
	ints  map[string]int
	pairs map[string][][2]NodeID
	edges map[string][]Edge
}

// Values returns every parameter's canonical text, defaults included.
func (a *Args) Values() Values {
	out := Values{}
	for k, x := range a.text {
		out[k] = x
	}
	return out
}

func (a *Args) param(name string, kinds ...ParamKind) {
	for _, p := range a.spec.Params {
		if p.Name == name {
			for _, k := range kinds {
				if p.Kind == k {
					return
				}
			}
			panic(fmt.Sprintf("spec %s: parameter --%s read with the wrong type", a.spec.Name, name))
		}
	}
	panic(fmt.Sprintf("spec %s: no parameter --%s declared", a.spec.Name, name))
}

// Int returns an integer parameter.
func (a *Args) Int(name string) int { a.param(name, KindInt); return a.ints[name] }

// Bool returns a boolean parameter.
func (a *Args) Bool(name string) bool { a.param(name, KindBool); return a.text[name] == "true" }

// String returns an enum's or a text parameter's value.
func (a *Args) String(name string) string {
	a.param(name, KindEnum, KindText)
	return a.text[name]
}

// Pairs returns a node-pair parameter.
func (a *Args) Pairs(name string) [][2]NodeID { a.param(name, KindPairs); return a.pairs[name] }

// Edges returns a topology parameter's edges.
func (a *Args) Edges(name string) []Edge { a.param(name, KindTopology); return a.edges[name] }

// Members returns full membership lists for "nodes" nodes with the pairs of
// parameter name removed (node I's list lacks J).
func (a *Args) Members(name string) []NodeSet {
	n := a.Int("nodes")
	members := make([]NodeSet, n)
	for i := range members {
		members[i] = FullSet(n)
	}
	for _, p := range a.Pairs(name) {
		members[p[0]] = members[p[0]].Remove(p[1])
	}
	return members
}

// Errorf returns the one-line error for a bad combination of values, naming
// the parameter: "--name: ...".
func (a *Args) Errorf(name, format string, args ...any) error {
	return fmt.Errorf("--%s: %s", name, fmt.Sprintf(format, args...))
}

// Spec is a registry entry: a protocol with its parameters and a builder
// that compiles a checked configuration into a System.
type Spec struct {
	// Name is the spec's command-line name, e.g. "ra".
	Name string
	// Summary is one line for `mxcheck list`.
	Summary string
	// Params are the configuration parameters, in display order; a
	// parameter may depend on those before it (pairs and topologies on
	// "nodes", a Limit on anything).
	Params []Param
	// Build compiles the checked configuration a; an error is one line
	// naming the bad parameter (Args.Errorf), for combinations the
	// declarations cannot express.
	Build func(a *Args) (System, error)
}

// Defaults returns the spec's parameters at their default values.
func (s *Spec) Defaults() Values {
	v := Values{}
	for _, p := range s.Params {
		v[p.Name] = p.Default
	}
	return v
}

// Param returns the declaration of parameter name, or nil.
func (s *Spec) Param(name string) *Param {
	for i := range s.Params {
		if s.Params[i].Name == name {
			return &s.Params[i]
		}
	}
	return nil
}

// Bind fills in defaults, rejects unknown parameters, and checks every value
// against its declaration in declaration order. The error is one line naming
// the parameter.
func (s *Spec) Bind(given Values) (*Args, error) {
	for k := range given {
		if s.Param(k) == nil {
			return nil, fmt.Errorf("spec %s has no parameter --%s", s.Name, k)
		}
	}
	a := &Args{spec: s, text: Values{}, ints: map[string]int{}, pairs: map[string][][2]NodeID{}, edges: map[string][]Edge{}}
	for _, p := range s.Params {
		text, ok := given[p.Name]
		if !ok {
			text = p.Default
		}
		text = strings.TrimSpace(text)
		if err := a.bind(&p, text); err != nil {
			return nil, fmt.Errorf("--%s: %v", p.Name, err)
		}
	}
	return a, nil
}

func (a *Args) bind(p *Param, text string) error {
	switch p.Kind {
	case KindInt:
		x, err := strconv.Atoi(text)
		if err != nil {
			return fmt.Errorf("%q is not an integer", text)
		}
		if x < p.Min || x > p.Max {
			return fmt.Errorf("must be between %d and %d, got %d", p.Min, p.Max, x)
		}
		if p.Limit != nil {
			if max, why := p.Limit(a); x > max {
				return fmt.Errorf("must be at most %d (%s), got %d", max, why, x)
			}
		}
		a.ints[p.Name] = x
		text = strconv.Itoa(x)
	case KindBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("%q is not true or false", text)
		}
		text = strconv.FormatBool(b)
	case KindEnum:
		if !p.hasOption(text) {
			return fmt.Errorf("unknown value %q (want one of %s)", text, strings.Join(p.OptionNames(), ", "))
		}
	case KindPairs:
		pairs, err := parsePairs(text, a.Int("nodes"), p.Distinct)
		if err != nil {
			return err
		}
		a.pairs[p.Name] = pairs
	case KindTopology:
		edges, err := parseTopology(text, a.Int("nodes"), a.Int("delta"))
		if err != nil {
			return err
		}
		a.edges[p.Name] = edges
	}
	a.text[p.Name] = text
	return nil
}

func (p *Param) hasOption(name string) bool {
	for _, o := range p.Options {
		if o.Name == name {
			return true
		}
	}
	return false
}

// OptionNames lists an enum's values in declaration order.
func (p *Param) OptionNames() []string {
	out := make([]string, len(p.Options))
	for i, o := range p.Options {
		out[i] = o.Name
	}
	return out
}

// Help is the parameter's usage text with what it accepts: the range of an
// integer, the values of an enum with their meanings.
func (p *Param) Help() string {
	switch p.Kind {
	case KindInt:
		return fmt.Sprintf("%s (%d..%d)", p.Usage, p.Min, p.Max)
	case KindEnum:
		var parts []string
		for _, o := range p.Options {
			if o.Usage == "" {
				parts = append(parts, o.Name)
			} else {
				parts = append(parts, o.Name+" ("+o.Usage+")")
			}
		}
		return p.Usage + ": " + strings.Join(parts, "; ")
	}
	return p.Usage
}

// parsePairs parses "I:J[,I:J...]" into pairs of node ids below n.
func parsePairs(text string, n int, distinct bool) ([][2]NodeID, error) {
	var out [][2]NodeID
	if text == "" {
		return nil, nil
	}
	for _, item := range strings.Split(text, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("%q is not of the form I:J", item)
		}
		i, err1 := strconv.Atoi(a)
		j, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%q is not of the form I:J with integers", item)
		}
		if i < 0 || i >= n || j < 0 || j >= n {
			return nil, fmt.Errorf("%q names a node outside 0..%d", item, n-1)
		}
		if distinct && i == j {
			return nil, fmt.Errorf("%d:%d: a node's list always contains itself", i, j)
		}
		out = append(out, [2]NodeID{NodeID(i), NodeID(j)})
	}
	return out, nil
}

// parseTopology is a named topology or an edge list.
func parseTopology(text string, n, delta int) ([]Edge, error) {
	if strings.Contains(text, ".") {
		edges, err := ParseEdges(text)
		if err != nil {
			return nil, err
		}
		cfg := Config{Nodes: n, Delta: delta, Edges: edges}
		if err := cfg.validate(); err != nil {
			return nil, err
		}
		return edges, nil
	}
	return Topology(text, n, delta)
}

// Compile binds given (Bind) and builds the system: the one entry point for
// the CLI, suite rows, test files and trace replay. The error is one line.
func (s *Spec) Compile(given Values) (System, *Args, error) {
	a, err := s.Bind(given)
	if err != nil {
		return nil, nil, err
	}
	sys, err := s.Build(a)
	if err != nil {
		return nil, nil, err
	}
	return sys, a, nil
}
