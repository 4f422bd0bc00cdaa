package htmlview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// Page is everything one HTML page shows, as data. It is embedded in the
// page as JSON; the diagram is drawn from it by Layout.
type Page struct {
	// Title is the page title, e.g. "ra: mutual-exclusion violated".
	Title string `json:"title"`
	// Verdict is "violated", "verified", "incomplete", "unreached",
	// "reached" for a witness of a sometimes property, or "path" for a
	// path that is no counterexample (serve's explorer).
	Verdict string `json:"verdict"`
	// Property and Kind name the violated property ("" when none).
	Property string `json:"property,omitempty"`
	Kind     string `json:"kind,omitempty"`
	// Meaning says in one line what the property requires.
	Meaning string `json:"meaning,omitempty"`
	// Explanation says in one line why the last state violates it.
	Explanation string `json:"explanation,omitempty"`
	// Spec and Params name the configuration; Params are "--name=value"
	// flags, sorted.
	Spec   string   `json:"spec"`
	Params []string `json:"params"`
	// Command reproduces the trace; Check is the search that finds it
	// again ("mxcheck check SPEC FLAGS").
	Command string `json:"command"`
	Check   string `json:"check"`
	// Porcupine is the address of porcupine's history view, when written.
	Porcupine string `json:"porcupine,omitempty"`
	// Others names the result's other violations ("property (kind) after
	// N steps"); the page shows the first.
	Others []string `json:"others,omitempty"`
	// Nodes names the lifelines: "n0", "n1", ...
	Nodes []string `json:"nodes"`
	// Steps[0] is the initial state; Steps[i] the state after step i.
	Steps []Step `json:"steps"`
	// Loop is, for a lasso, the index of the state the loop returns to;
	// -1 otherwise. Starving names the node that starves.
	Loop     int    `json:"loop"`
	Starving string `json:"starving,omitempty"`
	// LoopText says in one line what the lasso means.
	LoopText string `json:"loop_text,omitempty"`
	// Arrows are the messages, Bars the critical-section intervals, Marks
	// the adversary's moves.
	Arrows []Arrow `json:"arrows"`
	Bars   []Bar   `json:"bars"`
	Marks  []Mark  `json:"marks"`
	// Waits are the intervals in which a node waits for the critical
	// section (Step.Hungry).
	Waits []Bar `json:"waits"`
	// Graph is the graph a violated graph invariant inspects, or nil.
	Graph *Graph `json:"graph,omitempty"`
}

// Step is one state of the trace and the step that led to it.
type Step struct {
	// Label names the step ("initial state" for Steps[0]).
	Label string `json:"label"`
	// Kind is "node", "env", "adversary" or "" for the initial state.
	Kind string `json:"kind"`
	// Actor is the acting node's lane (node and env steps), or -1.
	Actor int `json:"actor"`
	// Changes are the text renderer's diff lines for this step.
	Changes []string `json:"changes"`
	// State renders the whole state, one line per component.
	State []string `json:"state"`
	// Transit lists the messages in transit after the step.
	Transit []string `json:"transit"`
	// Adjacency lists, per node, its links and membership list.
	Adjacency []string `json:"adjacency"`
	// InCS lists the nodes in the critical section after the step.
	InCS []int `json:"incs"`
	// Hungry lists the nodes that requested the critical section and have
	// not entered it (when the system tells, model.Fair).
	Hungry []int `json:"hungry,omitempty"`
}

// Arrow is one message: sent at step Sent by From to To, and delivered
// (End ≥ 0, Lost false), lost to a disconnect or crash (End ≥ 0, Lost
// true) or still in transit at the end of the trace (End = -1).
type Arrow struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Sent int    `json:"sent"`
	End  int    `json:"end"`
	Lost bool   `json:"lost,omitempty"`
	Text string `json:"text"`
}

// Bar is an interval in which node Node holds the critical section: from
// state From to state To inclusive; Open means it still holds it at the end.
type Bar struct {
	Node int  `json:"node"`
	From int  `json:"from"`
	To   int  `json:"to"`
	Open bool `json:"open,omitempty"`
}

// Mark is an adversary move at step Step touching the lanes in Nodes.
type Mark struct {
	Step  int    `json:"step"`
	Nodes []int  `json:"nodes"`
	Text  string `json:"text"`
}

// Options are what a page shows beyond the trace itself.
type Options struct {
	// Command is the exact command that reproduces the trace; "" builds
	// "mxcheck check SPEC FLAGS" from the spec and parameters.
	Command string
	// Porcupine is the address of porcupine's history view, if written.
	Porcupine string
}

// FromViolation builds the page of violation v of spec with its parameters,
// found in sys by any command (check, replay, simulate).
func FromViolation(sys model.System, spec string, params map[string]string, v explore.Violation, o Options) (*Page, error) {
	p, err := FromITF(sys, explore.NewITF(spec, params, v), o)
	if err != nil {
		return nil, err
	}
	if v.Explanation != "" {
		p.Explanation = v.Explanation
	}
	return p, nil
}

// FromResult builds the page of a search's result: its first violation's
// trace, or only the header when nothing is violated.
func FromResult(sys model.System, spec string, params map[string]string, r *explore.Result, o Options) (*Page, error) {
	if len(r.Violations) > 0 {
		p, err := FromViolation(sys, spec, params, r.Violations[0], o)
		if err != nil {
			return nil, err
		}
		p.Verdict = r.Verdict.String()
		for _, v := range r.Violations[1:] {
			p.Others = append(p.Others, fmt.Sprintf("%s (%s) after %d steps", v.Property, kindWord(v.Kind), v.Trace.Len()))
		}
		return p, nil
	}
	p := &Page{Verdict: r.Verdict.String(), Spec: spec, Params: flags(params), Loop: -1}
	p.Command = command(o.Command, spec, p.Params)
	p.Check = command("", spec, p.Params)
	p.Title = fmt.Sprintf("%s: %s", spec, p.Verdict)
	switch r.Verdict {
	case explore.Incomplete:
		p.Explanation = "stopped by " + r.Limit + "; nothing is proven"
	case explore.Unreached:
		var names []string
		for _, x := range r.Properties {
			if x.Status == explore.NeverReached {
				names = append(names, x.Name)
			}
		}
		p.Explanation = "no property is violated, but no reachable state satisfies the sometimes property " + strings.Join(names, ", ")
	}
	return p, nil
}

// FromITF builds the page of a stored trace. It re-executes the trace in sys
// (which must be the system its metadata names) to recover each step's
// changes, messages and critical sections; the error says where the trace
// leaves the current model.
func FromITF(sys model.System, t *explore.ITFTrace, o Options) (*Page, error) {
	states, steps, err := explore.ExecuteITF(sys, t)
	if err != nil {
		return nil, err
	}
	m := Meta{Spec: t.Meta.Spec, Params: t.Meta.Params, Property: t.Meta.Property, Kind: kindWord(t.Meta.Kind), Loop: -1, Starving: t.Meta.Node}
	if t.Loop != nil {
		m.Loop = *t.Loop
	}
	return FromStates(sys, states, steps, m, o)
}

// Meta describes a path for FromStates: its configuration and, for a
// counterexample, the property it violates (Property "" for a plain path).
type Meta struct {
	Spec     string
	Params   map[string]string
	Property string
	// Kind is "invariant", "deadlock", "liveness" or, for a witness of
	// a sometimes property, "sometimes".
	Kind string
	// Loop is a lasso's loop start (see Page.Loop), or -1.
	Loop int
	// Starving is the node a lasso starves.
	Starving string
}

// FromStates builds the page of a path of sys: states[0] an initial state,
// steps[i-1] the transition from states[i-1] to states[i]. sys must
// describe its states (model.Describer) and list their messages
// (model.Picturer).
func FromStates(sys model.System, states []model.State, steps []model.Transition, m Meta, o Options) (*Page, error) {
	desc, ok := sys.(model.Describer)
	if !ok {
		return nil, fmt.Errorf("spec %s cannot describe its states", m.Spec)
	}
	pic, ok := sys.(model.Picturer)
	if !ok {
		return nil, fmt.Errorf("spec %s cannot list its messages in transit", m.Spec)
	}
	if len(states) == 0 || len(steps) != len(states)-1 {
		return nil, fmt.Errorf("a path of %d states needs %d steps, got %d", len(states), max(len(states)-1, 0), len(steps))
	}
	p := &Page{
		Verdict:  "violated",
		Property: m.Property,
		Kind:     m.Kind,
		Spec:     m.Spec,
		Params:   flags(m.Params),
		Loop:     m.Loop,
		Starving: m.Starving,
	}
	p.Command = command(o.Command, p.Spec, p.Params)
	p.Check = command("", p.Spec, p.Params)
	p.Porcupine = o.Porcupine
	if p.Property == "" {
		p.Verdict = "path"
		p.Title = fmt.Sprintf("%s: a path of %d steps", p.Spec, len(steps))
	} else {
		p.Meaning = Meaning(p.Property, p.Kind)
		p.Title = fmt.Sprintf("%s: %s violated after %d steps", p.Spec, p.Property, len(steps))
		if p.Kind == "sometimes" {
			p.Verdict = "reached"
			p.Title = fmt.Sprintf("%s: %s reached after %d steps", p.Spec, p.Property, len(steps))
		}
	}
	if p.Loop >= 0 {
		p.LoopText = loopText(p.Starving, p.Loop, len(steps))
	}
	last := states[len(states)-1]
	if ex, ok := sys.(model.Explainer); ok && p.Property != "" {
		p.Explanation = ex.Explain(last, p.Property)
		if dot := ex.DOT(last, p.Property); dot != "" {
			g, err := ParseDOT(dot)
			if err != nil {
				return nil, err
			}
			p.Graph = g
		}
	}
	p.Nodes = nodeNames(desc.ITF(states[0]), pic, states)
	for i, s := range states {
		st := Step{Label: "initial state", Actor: -1, State: desc.Dump(s), Adjacency: adjacency(desc.ITF(s))}
		if i > 0 {
			tr := steps[i-1]
			st.Label = desc.DescribeStep(states[i-1], tr)
			st.Kind = tr.Kind.String()
			st.Changes = desc.Changes(states[i-1], s)
			if tr.Kind != model.AdversaryStep {
				st.Actor = int(tr.Node)
			} else {
				p.Marks = append(p.Marks, Mark{Step: i, Nodes: touched(tr), Text: st.Label})
			}
		}
		for _, m := range pic.InTransit(s) {
			st.Transit = append(st.Transit, m.Text)
		}
		for _, u := range pic.InCS(s).All() {
			st.InCS = append(st.InCS, int(u))
		}
		if fair, ok := sys.(model.Fair); ok {
			for _, u := range fair.Hungry(s).All() {
				st.Hungry = append(st.Hungry, int(u))
			}
		}
		if st.Changes == nil {
			st.Changes = []string{}
		}
		p.Steps = append(p.Steps, st)
	}
	p.Arrows = Arrows(transits(pic, states), p.Steps)
	p.Bars = Bars(p.Steps, len(p.Nodes))
	p.Waits = Intervals(p.Steps, len(p.Nodes), func(s *Step) []int { return s.Hungry })
	if p.Marks == nil {
		p.Marks = []Mark{}
	}
	return p, nil
}

// transits lists the messages in transit of every state.
func transits(pic model.Picturer, states []model.State) [][]model.InFlight {
	out := make([][]model.InFlight, len(states))
	for i, s := range states {
		out[i] = pic.InTransit(s)
	}
	return out
}

// touched returns the lanes an adversary move touches: its first node and,
// for moves between two nodes, the second.
func touched(t model.Transition) []int {
	if t.Action == model.MoveCrash {
		return []int{int(t.Node)}
	}
	u, v := int(t.Node), int(t.Arg[1])
	if u == v {
		return []int{u}
	}
	return []int{u, v}
}

// nodeNames names the lifelines: one per entry of the ITF "nodes" list, or,
// failing that, up to the largest node a message mentions.
func nodeNames(itf map[string]any, pic model.Picturer, states []model.State) []string {
	n := 0
	if ns, ok := itf["nodes"].([]any); ok {
		n = len(ns)
	}
	for _, s := range states {
		for _, m := range pic.InTransit(s) {
			n = max(n, int(m.From)+1, int(m.To)+1)
		}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = model.NodeID(i).String()
	}
	return out
}

// adjacency renders each node's links and membership list from the ITF
// variables "engine" and "members".
func adjacency(itf map[string]any) []string {
	engine, _ := itf["engine"].([]any)
	members, _ := itf["members"].([]any)
	var out []string
	for i := 0; i < max(len(engine), len(members)); i++ {
		var b strings.Builder
		b.WriteString(model.NodeID(i).String())
		b.WriteByte(':')
		if i < len(engine) {
			if e, ok := engine[i].(map[string]any); ok {
				if links, ok := e["links"].([]any); ok && len(links) > 0 {
					b.WriteString(" ports")
					for p, l := range links {
						fmt.Fprintf(&b, " %d→%v", p+1, l)
					}
				}
			}
		}
		if i < len(members) {
			b.WriteString(" members {")
			b.WriteString(strings.Join(setMembers(members[i]), ","))
			b.WriteByte('}')
		}
		out = append(out, b.String())
	}
	return out
}

// setMembers renders an ITF set of node ids as node names.
func setMembers(v any) []string {
	m, _ := v.(map[string]any)
	xs, _ := m["#set"].([]any)
	out := []string{}
	for _, x := range xs {
		out = append(out, "n"+fmt.Sprint(x))
	}
	return out
}

// flags renders parameters as sorted "--name=value" flags, skipping empty
// values.
func flags(params map[string]string) []string {
	out := []string{}
	for k, v := range params {
		if v != "" {
			out = append(out, "--"+k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

// command is cmd, or "mxcheck check SPEC FLAGS" when cmd is "".
func command(cmd, spec string, params []string) string {
	if cmd != "" {
		return cmd
	}
	return strings.TrimSpace("mxcheck check " + spec + " " + strings.Join(params, " "))
}

// Meaning says in one line what a property requires. Properties the checker
// itself defines (deadlock and liveness) and the common names of the mutual
// exclusion literature have a fixed sentence; any other invariant gets its
// kind's.
func Meaning(property, kind string) string {
	switch property {
	case "mutual-exclusion":
		return "at most one node is in the critical section at any time"
	case explore.Deadlock:
		return "no reachable state has a node with unfinished work and no step but stutters and adversary moves"
	case "starvation-freedom":
		return "every node that requests the critical section eventually enters it"
	case "lockout-freedom":
		return "every node that calls LOCK eventually locks"
	}
	switch kind {
	case "sometimes":
		return "a reachability witness: some reachable state satisfies " + property
	case "liveness":
		return "every request is eventually served on every fair run"
	case "deadlock":
		return "no reachable state is a deadlock"
	}
	return "an invariant: every reachable state satisfies " + property
}

// loopText says what a lasso means: which node starves, and which steps
// repeat forever.
func loopText(node string, loop, last int) string {
	if loop >= last {
		return fmt.Sprintf("%s starves: the system may stay in the last state forever (bracketed on the left)", node)
	}
	return fmt.Sprintf("%s starves: steps %d..%d (bracketed on the left) repeat forever, back to the state after step %d", node, loop+1, last, loop)
}

// kindWord is the word trace files use for kind ("invariant", "deadlock",
// "liveness", "sometimes").
func kindWord(kind model.Expectation) string {
	b, err := kind.MarshalText()
	if err != nil {
		return kind.String()
	}
	return string(b)
}
