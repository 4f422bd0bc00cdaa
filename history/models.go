package history

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Model names a sequential lock specification.
type Model struct {
	// Kind is "mutex", "fenced-mutex" or "semaphore".
	Kind string
	// Permits is K for a semaphore.
	Permits int
}

// ParseModel reads "mutex", "fenced-mutex" or "semaphore=K" (K ≥ 1).
func ParseModel(s string) (Model, error) {
	switch {
	case s == "mutex" || s == "fenced-mutex":
		return Model{Kind: s}, nil
	case strings.HasPrefix(s, "semaphore="):
		k, err := strconv.Atoi(strings.TrimPrefix(s, "semaphore="))
		if err != nil || k < 1 {
			return Model{}, fmt.Errorf("semaphore=K needs an integer K ≥ 1, got %q", s)
		}
		return Model{Kind: "semaphore", Permits: k}, nil
	}
	return Model{}, fmt.Errorf("unknown model %q (want mutex, fenced-mutex or semaphore=K)", s)
}

// String renders the model as ParseModel reads it.
func (m Model) String() string {
	if m.Kind == "semaphore" {
		return fmt.Sprintf("semaphore=%d", m.Permits)
	}
	return m.Kind
}

// fenced is a fenced mutex's state: the holder (-1: free) and the last
// token handed out.
type fenced struct {
	holder int
	last   int64
}

// Porcupine returns the model for porcupine, partitioned by key when byKey
// (one lock per key; otherwise one lock whatever the key).
func (m Model) Porcupine(byKey bool) porcupine.Model {
	nm := porcupine.NondeterministicModel{
		DescribeOperation: describeOp,
	}
	switch m.Kind {
	case "fenced-mutex":
		nm.Init = func() []any { return []any{fenced{holder: -1, last: -1 << 63}} }
		nm.Step = stepFenced
		nm.DescribeState = func(s any) string {
			f := s.(fenced)
			if f.holder < 0 {
				return "free"
			}
			return fmt.Sprintf("held by client %d (token %d)", f.holder, f.last)
		}
	case "semaphore":
		k := m.Permits
		nm.Init = func() []any { return []any{""} }
		nm.Step = func(s, in, out any) []any { return stepSemaphore(k, s, in, out) }
		nm.DescribeState = func(s any) string {
			if s.(string) == "" {
				return "no holders"
			}
			return "held by clients " + s.(string)
		}
	default:
		nm.Init = func() []any { return []any{-1} }
		nm.Step = stepMutex
		nm.DescribeState = func(s any) string {
			if s.(int) < 0 {
				return "free"
			}
			return fmt.Sprintf("held by client %d", s.(int))
		}
	}
	if byKey {
		nm.Partition = partitionByKey
	}
	return nm.ToModel()
}

func describeOp(in, out any) string {
	i, o := in.(Input), out.(Output)
	s := i.F
	if i.Key != "" {
		s += "(" + i.Key + ")"
	}
	if i.HasToken {
		s += fmt.Sprintf(" token %d", i.Token)
	}
	if o.Indeterminate {
		s += " ?"
	}
	return s
}

// stepMutex: the state is the holder's client index, -1 when free.
func stepMutex(s, in, out any) []any {
	h, i, o := s.(int), in.(Input), out.(Output)
	var next []any
	switch i.F {
	case Acquire:
		if h < 0 {
			next = append(next, i.Client)
		}
	case Release:
		if h == i.Client {
			next = append(next, -1)
		}
	}
	if o.Indeterminate {
		next = append(next, h) // it may not have happened
	}
	return next
}

// stepFenced: a mutex whose acquires return strictly increasing tokens; a
// release carrying a token must carry the holder's.
func stepFenced(s, in, out any) []any {
	f, i, o := s.(fenced), in.(Input), out.(Output)
	var next []any
	switch i.F {
	case Acquire:
		switch {
		case f.holder >= 0:
		case i.HasToken && i.Token > f.last:
			next = append(next, fenced{holder: i.Client, last: i.Token})
		case !i.HasToken && o.Indeterminate:
			next = append(next, fenced{holder: i.Client, last: f.last})
		}
	case Release:
		if f.holder == i.Client && (!i.HasToken || i.Token == f.last) {
			next = append(next, fenced{holder: -1, last: f.last})
		}
	}
	if o.Indeterminate {
		next = append(next, f)
	}
	return next
}

// stepSemaphore: the state is the sorted list of holders' client indices
// ("0,3"), at most k of them.
func stepSemaphore(k int, s, in, out any) []any {
	i, o := in.(Input), out.(Output)
	var holders []int
	if s.(string) != "" {
		for _, x := range strings.Split(s.(string), ",") {
			n, _ := strconv.Atoi(x)
			holders = append(holders, n)
		}
	}
	var next []any
	switch i.F {
	case Acquire:
		if len(holders) < k {
			next = append(next, encodeHolders(append(holders[:len(holders):len(holders)], i.Client)))
		}
	case Release:
		for j, h := range holders {
			if h == i.Client {
				rest := append(append([]int(nil), holders[:j]...), holders[j+1:]...)
				next = append(next, encodeHolders(rest))
				break
			}
		}
	}
	if o.Indeterminate {
		next = append(next, s)
	}
	return next
}

func encodeHolders(h []int) string {
	sort.Ints(h)
	parts := make([]string, len(h))
	for i, x := range h {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// partitionByKey splits a history into one per key, keys in sorted order.
func partitionByKey(ops []porcupine.Operation) [][]porcupine.Operation {
	by := map[string][]porcupine.Operation{}
	for _, op := range ops {
		k := op.Input.(Input).Key
		by[k] = append(by[k], op)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]porcupine.Operation, len(keys))
	for i, k := range keys {
		out[i] = by[k]
	}
	return out
}
