package model

import "fmt"

// Variant is a named change to a protocol, chosen when the spec is built:
// another reading of the paper, a repair, or a mutant (a deliberate bug the
// checker must catch). The faithful action table stays free of variant
// branches: a variant replaces whole actions.
type Variant[N Value, M Message] struct {
	// Name is the value of the spec's enum parameter, e.g. "never-defer".
	Name string
	// Usage is its one-line meaning, shown by --help and `mxcheck list`.
	Usage string
	// Actions replace the protocol's actions of the same Name, in place
	// (so traces keep the paper's names); an action whose name the
	// protocol lacks is appended, in order.
	Actions []Action[N, M]
	// Edit, optional, makes any other change after Actions are applied:
	// wrap an action (Protocol.Action), add an invariant, make channels
	// FIFO.
	Edit func(p *Protocol[N, M])
}

// Variants is a spec's list of alternatives for one parameter (variant or
// mutant); the first is the default, usually the faithful algorithm with no
// change. Each name is written once, here.
type Variants[N Value, M Message] []Variant[N, M]

// Param declares the enum parameter that picks one of vs.
func (vs Variants[N, M]) Param(name, usage string) Param {
	opts := make([]Option, len(vs))
	for i, v := range vs {
		opts[i] = Option{Name: v.Name, Usage: v.Usage}
	}
	return EnumParam(name, usage, opts...)
}

// Get returns the variant called name.
func (vs Variants[N, M]) Get(name string) Variant[N, M] {
	for _, v := range vs {
		if v.Name == name {
			return v
		}
	}
	panic(fmt.Sprintf("model: no variant %q", name))
}

// Apply returns a copy of p changed by each variant in turn. p itself is
// left alone.
func Apply[N Value, M Message](p *Protocol[N, M], vs ...Variant[N, M]) *Protocol[N, M] {
	q := *p
	q.Actions = append([]Action[N, M](nil), p.Actions...)
	q.Invariants = append([]Property[N, M](nil), p.Invariants...)
	for _, v := range vs {
		for _, a := range v.Actions {
			if old := q.Action(a.Name); old != nil {
				*old = a
			} else {
				q.Actions = append(q.Actions, a)
			}
		}
		if v.Edit != nil {
			v.Edit(&q)
		}
	}
	return &q
}

// Action returns the action called name, for a variant's Edit to change, or
// nil.
func (p *Protocol[N, M]) Action(name string) *Action[N, M] {
	for i := range p.Actions {
		if p.Actions[i].Name == name {
			return &p.Actions[i]
		}
	}
	return nil
}
