package model

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// DescribeStep names transition t from state s, e.g.
// "n1 ReceiveRequest n0->n1 request(ts=1)" or "adversary remove n1 forgets n0".
func (m *Machine[N, M]) DescribeStep(s State, t Transition) string {
	w := s.(*World[N, M])
	switch t.Kind {
	case NodeStep, EnvStep:
		a := &m.p.Actions[t.Action]
		var b strings.Builder
		b.WriteString(t.Node.String())
		b.WriteByte(' ')
		b.WriteString(a.Name)
		if a.Kind == Receive && int(t.Msg) < len(w.Msgs) {
			b.WriteByte(' ')
			b.WriteString(m.envString(&w.Msgs[t.Msg]))
		}
		for k := 0; k < int(t.Choices); k++ {
			fmt.Fprintf(&b, " choose=%d", (t.Choice>>(8*k))&0xff)
		}
		return b.String()
	case AdversaryStep:
		u, v := t.Node, NodeID(t.Arg[1])
		switch t.Action {
		case MoveConnect:
			if m.p.Links.LinkUp != nil {
				return fmt.Sprintf("adversary connect %v.%d-%v.%d static=%v", u, t.Arg[0], v, t.Arg[2], [2]NodeID{u, v}[t.Msg&staticArg])
			}
			return fmt.Sprintf("adversary connect %v.%d-%v.%d", u, t.Arg[0], v, t.Arg[2])
		case MoveDisconnect:
			return fmt.Sprintf("adversary disconnect %v.%d-%v.%d", u, t.Arg[0], v, t.Arg[2])
		case MoveRemove:
			return fmt.Sprintf("adversary remove %v forgets %v", u, v)
		case MoveRestore:
			return fmt.Sprintf("adversary restore %v learns %v", u, v)
		case MoveCrash:
			return fmt.Sprintf("adversary crash %v", u)
		}
	}
	return "unknown step"
}

// envString renders a message in transit: "n0->n1 request(ts=1)", with ports
// ("n0.1->n1.2 prepare") when the protocol is port-addressed.
func (m *Machine[N, M]) envString(e *Envelope[M]) string {
	if m.cfg.Delta > 0 {
		return fmt.Sprintf("%v.%d->%v.%d %s", e.From, e.FromPort, e.To, e.ToPort, e.Msg.String())
	}
	return fmt.Sprintf("%v->%v %s", e.From, e.To, e.Msg.String())
}

// Changes lists what changed between two states: node fields ("n1.State:
// Wanted -> Held"), engine bookkeeping, and messages sent (+) or consumed or
// lost (-).
func (m *Machine[N, M]) Changes(from, to State) []string {
	a, b := from.(*World[N, M]), to.(*World[N, M])
	var out []string
	for i := range a.Nodes {
		id := NodeID(i)
		fa, fb := fields(a.Nodes[i]), fields(b.Nodes[i])
		for k := range fa {
			if fa[k].value != fb[k].value {
				out = append(out, fmt.Sprintf("%v.%s: %s -> %s", id, fa[k].name, fa[k].value, fb[k].value))
			}
		}
		ma, mb := a.Meta[i], b.Meta[i]
		if ma.Members != mb.Members {
			out = append(out, fmt.Sprintf("%v.members: %v -> %v", id, ma.Members, mb.Members))
		}
		if ma.Crashed != mb.Crashed {
			out = append(out, fmt.Sprintf("%v.crashed: %v -> %v", id, ma.Crashed, mb.Crashed))
		}
		if ma.D != mb.D {
			out = append(out, fmt.Sprintf("%v.D: %v -> %v", id, ma.D, mb.D))
		}
		for p := 1; p <= m.cfg.Delta; p++ {
			if ma.Links[p] != mb.Links[p] {
				out = append(out, fmt.Sprintf("%v.port%d: %s -> %s", id, p, linkString(ma.Links[p]), linkString(mb.Links[p])))
			}
		}
	}
	gone, sent := diffMsgs(m, a.Msgs, b.Msgs)
	for _, s := range gone {
		out = append(out, "- "+s)
	}
	for _, s := range sent {
		out = append(out, "+ "+s)
	}
	return out
}

func linkString(l Link) string {
	if !l.Up() {
		return "-"
	}
	return fmt.Sprintf("%v.%d", l.Node(), l.Port())
}

// diffMsgs returns the multiset differences a∖b and b∖a as strings, sorted.
func diffMsgs[N Value, M Message](m *Machine[N, M], a, b []Envelope[M]) (gone, sent []string) {
	minus := func(x, y []Envelope[M]) []string {
		count := map[Envelope[M]]int{}
		for _, e := range y {
			count[e]++
		}
		var out []string
		for i := range x {
			if count[x[i]] > 0 {
				count[x[i]]--
				continue
			}
			out = append(out, m.envString(&x[i]))
		}
		sort.Strings(out)
		return out
	}
	return minus(a, b), minus(b, a)
}

// Dump renders the whole state: one line per node, then the messages in
// transit and the adversary's remaining budget.
func (m *Machine[N, M]) Dump(s State) []string {
	w := s.(*World[N, M])
	var out []string
	for i := range w.Nodes {
		var b strings.Builder
		fmt.Fprintf(&b, "%v:", NodeID(i))
		for _, f := range fields(w.Nodes[i]) {
			fmt.Fprintf(&b, " %s=%s", f.name, f.value)
		}
		meta := &w.Meta[i]
		if meta.Members != FullSet(len(w.Nodes)) || meta.Removed != 0 {
			fmt.Fprintf(&b, " members=%v", meta.Members)
		}
		if m.cfg.Delta > 0 {
			fmt.Fprintf(&b, " D=%v ports=[", meta.D)
			for p := 1; p <= m.cfg.Delta; p++ {
				if p > 1 {
					b.WriteByte(' ')
				}
				b.WriteString(linkString(meta.Links[p]))
			}
			b.WriteByte(']')
		}
		if meta.Crashed {
			b.WriteString(" crashed")
		}
		out = append(out, b.String())
	}
	if len(w.Msgs) == 0 {
		out = append(out, "in transit: none")
	}
	for i := range w.Msgs {
		out = append(out, "in transit: "+m.envString(&w.Msgs[i]))
	}
	return out
}

// ITF returns the state as Informal Trace Format variables: "nodes" (a list
// of records), "members" and "links" (per node), "msgs" (a list, since a bag
// may hold duplicates) and "budget".
func (m *Machine[N, M]) ITF(s State) map[string]any {
	w := s.(*World[N, M])
	nodes := make([]any, len(w.Nodes))
	members := make([]any, len(w.Nodes))
	extra := make([]any, len(w.Nodes))
	for i := range w.Nodes {
		rec := map[string]any{}
		for _, f := range fields(w.Nodes[i]) {
			rec[f.name] = f.itf
		}
		nodes[i] = rec
		members[i] = setITF(w.Meta[i].Members.All())
		links := make([]any, 0, m.cfg.Delta)
		for p := 1; p <= m.cfg.Delta; p++ {
			links = append(links, linkString(w.Meta[i].Links[p]))
		}
		extra[i] = map[string]any{
			"D":        setITF(w.Meta[i].D.All()),
			"links":    links,
			"requests": int(w.Meta[i].Requests),
			"crashed":  w.Meta[i].Crashed,
			"removed":  setITF(w.Meta[i].Removed.All()),
		}
	}
	msgs := make([]any, len(w.Msgs))
	for i := range w.Msgs {
		msgs[i] = m.envString(&w.Msgs[i])
	}
	b := w.Budget
	return map[string]any{
		"nodes":   nodes,
		"members": members,
		"engine":  extra,
		"msgs":    msgs,
		"budget": map[string]any{
			"connects": int(b.Connects), "disconnects": int(b.Disconnects),
			"removes": int(b.Removes), "restores": int(b.Restores), "crashes": int(b.Crashes),
		},
	}
}

func setITF[T ~uint8](xs []T) map[string]any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return map[string]any{"#set": out}
}

type field struct {
	name, value string
	itf         any
}

// fields lists the exported fields of a node state for traces, rendering
// each with its String method when it has one.
func fields(v any) []field {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct {
		s := fmt.Sprint(v)
		return []field{{name: "state", value: s, itf: s}}
	}
	rt := rv.Type()
	out := make([]field, 0, rt.NumField())
	for i := 0; i < rt.NumField(); i++ {
		if !rt.Field(i).IsExported() {
			continue
		}
		fv := rv.Field(i)
		f := field{name: rt.Field(i).Name}
		switch x := fv.Interface().(type) {
		case NodeSet:
			f.value, f.itf = x.String(), setITF(x.All())
		case Ports:
			f.value, f.itf = x.String(), setITF(x.All())
		case fmt.Stringer:
			f.value = x.String()
			f.itf = f.value
		default:
			switch fv.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				f.value, f.itf = strconv.FormatInt(fv.Int(), 10), fv.Int()
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				f.value, f.itf = strconv.FormatUint(fv.Uint(), 10), int64(fv.Uint())
			case reflect.Bool:
				f.value, f.itf = strconv.FormatBool(fv.Bool()), fv.Bool()
			default:
				f.value = fmt.Sprint(fv.Interface())
				f.itf = f.value
			}
		}
		out = append(out, f)
	}
	return out
}
