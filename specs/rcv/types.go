package rcv

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// MaxN is the largest number of nodes the spec's fixed-size tables hold.
const MaxN = 4

// MaxList is the capacity of a tuple list (MNL, NONL, MONL). Lemma 1 bounds
// an MNL by N; an ordered list holds at most one tuple per outstanding
// request plus outdated ones. A list that would grow past MaxList sets the
// ghost Node.Overflow instead of losing a tuple silently, and the
// `lists-bounded` invariant reports it.
const MaxList = 8

// Tuple is ⟨NodeID, TS⟩ (Section 3): the requesting node and the timestamp
// at which its request message was first initialised. TS ≥ 1 for every
// real tuple; the zero Tuple marks an unused slot.
type Tuple struct {
	ID model.NodeID
	TS uint8
}

// String renders ⟨1,3⟩ as "1:3".
func (t Tuple) String() string { return fmt.Sprintf("%d:%d", t.ID, t.TS) }

// List is a sequence of tuples: an MNL (a row's requests in arrival
// order, the top first), or an ordered list NONL/MONL (the top enters the
// CS first). Slots at and beyond Len are always zero, so == and AppendKey
// agree.
type List struct {
	Len uint8
	T   [MaxList]Tuple
}

// String renders the list as "[1:3 0:2]".
func (l List) String() string {
	s := make([]string, l.Len)
	for i := range s {
		s[i] = l.T[i].String()
	}
	return "[" + strings.Join(s, " ") + "]"
}

// Index returns the position of t in l, or -1.
func (l *List) Index(t Tuple) int {
	for i := 0; i < int(l.Len); i++ {
		if l.T[i] == t {
			return i
		}
	}
	return -1
}

// Has reports whether t is in l.
func (l *List) Has(t Tuple) bool { return l.Index(t) >= 0 }

// Append adds t at the end; it reports false (and leaves l unchanged) when
// l is full.
func (l *List) Append(t Tuple) bool {
	if int(l.Len) == MaxList {
		return false
	}
	l.T[l.Len] = t
	l.Len++
	return true
}

// Delete removes t from l if present.
func (l *List) Delete(t Tuple) {
	if i := l.Index(t); i >= 0 {
		copy(l.T[i:], l.T[i+1:l.Len])
		l.Len--
		l.T[l.Len] = Tuple{}
	}
}

// DropThrough deletes the first k+1 tuples (those preceding position k,
// and the tuple at k).
func (l *List) DropThrough(k int) {
	n := int(l.Len) - (k + 1)
	copy(l.T[:], l.T[k+1:l.Len])
	for i := n; i < int(l.Len); i++ {
		l.T[i] = Tuple{}
	}
	l.Len = uint8(n)
}

// Top returns the first tuple and whether l is non-empty.
func (l *List) Top() (Tuple, bool) { return l.T[0], l.Len > 0 }

func (l *List) appendKey(dst []byte) []byte {
	dst = append(dst, l.Len)
	for i := 0; i < int(l.Len); i++ {
		dst = append(dst, byte(l.T[i].ID), l.T[i].TS)
	}
	return dst
}

// Row is one row of an NSIT (Figure 2) or MSIT (Figure 3): what is known of
// one node — how up to date (TS) and which requests it has received (MNL).
// The row's ID is its index in the table.
type Row struct {
	TS  uint8
	MNL List
}

// SIT is a system information table, NSIT or MSIT: one row per node.
type SIT [MaxN]Row

// String renders the rows of the nodes that exist as "0@2[0:1] 1@0[]".
func (s SIT) String() string {
	var b []string
	for i, r := range s {
		if r.TS == 0 && r.MNL.Len == 0 && i > 0 && s.restEmpty(i) {
			break
		}
		b = append(b, fmt.Sprintf("%d@%d%v", i, r.TS, r.MNL))
	}
	return strings.Join(b, " ")
}

func (s *SIT) restEmpty(i int) bool {
	for ; i < MaxN; i++ {
		if s[i] != (Row{}) {
			return false
		}
	}
	return true
}

// DeleteEverywhere removes t from every row's MNL ("delete t from any
// entry of NSIT").
func (s *SIT) DeleteEverywhere(t Tuple) {
	for k := range s {
		s[k].MNL.Delete(t)
	}
}

func (s *SIT) appendKey(dst []byte) []byte {
	for k := range s {
		dst = append(dst, s[k].TS)
		dst = s[k].MNL.appendKey(dst)
	}
	return dst
}

// Phase is where a node stands with respect to the CS. The paper keeps no
// such field (it reads "in the CS or not" off NONL); the spec needs it to
// state mutual exclusion, to bound requests to one outstanding (Section 3)
// and to know when the environment may release.
type Phase uint8

const (
	// Idle: no outstanding request.
	Idle Phase = iota
	// Waiting: the RM is roaming or the node waits for its EM.
	Waiting
	// InCS: executing the critical section.
	InCS
)

// String renders the phase.
func (p Phase) String() string {
	switch p {
	case Idle:
		return "idle"
	case Waiting:
		return "waiting"
	case InCS:
		return "in-cs"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// NoNext is Next = NULL.
const NoNext = 0xff

// Node is a node's system information SI (Figure 2): Next, NONL and NSIT,
// plus the phase and the timestamp of its own current request (the tuple
// ⟨i, ti⟩ that MPM line 26 looks for), and ghosts for the properties.
type Node struct {
	Phase Phase
	// ReqTS is ti, the timestamp of this node's current (or last) request;
	// 0 before the first request.
	ReqTS uint8
	// Next is the node that enters the CS right after this one, or NoNext.
	Next uint8
	NONL List
	NSIT SIT
	// Overflow (ghost) is set when a list would have grown past MaxList.
	Overflow bool
	// Stranded (ghost) is set when this node had to forward an unordered
	// RM whose UL was empty: the RM is dropped (Lemma 3 says it cannot
	// happen).
	Stranded bool
	// Cost (ghost) is the number of messages spent on the request this
	// node last entered the CS for: its RMs, the IM naming it if any, and
	// the EM that let it in (Section 6.1.1's message complexity).
	Cost uint8
	// NextCost (ghost) is the Cost so far of Next's request (its RMs and
	// the IM), to which the EM this node sends it adds one.
	NextCost uint8
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(n.Phase), n.ReqTS, n.Next, b2u(n.Overflow)|b2u(n.Stranded)<<1, n.Cost, n.NextCost)
	dst = n.NONL.appendKey(dst)
	return n.NSIT.appendKey(dst)
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Kind is a message type (Section 3: only three).
type Kind uint8

const (
	// RM is the Request Message.
	RM Kind = iota
	// EM is the Enter Message.
	EM
	// IM is the Inform Message.
	IM
)

// String renders the kind as the paper does.
func (k Kind) String() string {
	switch k {
	case RM:
		return "rm"
	case EM:
		return "em"
	case IM:
		return "im"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Msg is a message (Figure 3). Every message carries MONL and MSIT; an RM
// also Host, the request's timestamp HostTS and UL; an IM also Next.
type Msg struct {
	Kind Kind
	// Host is the RM's home node; HostTS the timestamp of its request, so
	// the visited node can register ⟨Host, HostTS⟩ (MPM line 35; the paper
	// writes ⟨k, tk⟩ without saying where tk comes from).
	Host   model.NodeID
	HostTS uint8
	// UL is the set of nodes the RM has not visited (RM only).
	UL model.NodeSet
	// Next is the node an IM names.
	Next model.NodeID
	MONL List
	MSIT SIT
	// Cost (ghost, EM and IM) is the number of messages spent so far on
	// the request the EM admits or the IM names, this one included.
	Cost uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(m.Kind), byte(m.Host), m.HostTS, byte(m.UL), byte(m.UL>>8), byte(m.Next), m.Cost)
	dst = m.MONL.appendKey(dst)
	return m.MSIT.appendKey(dst)
}

// String renders the message for traces, e.g.
// "rm(host=0:1 ul={2} monl=[] msit=0@1[0:1] 1@0[] 2@0[])".
func (m Msg) String() string {
	tail := fmt.Sprintf("monl=%v msit=%v", m.MONL, m.MSIT)
	switch m.Kind {
	case RM:
		return fmt.Sprintf("rm(host=%d:%d ul=%v %s)", m.Host, m.HostTS, m.UL, tail)
	case IM:
		return fmt.Sprintf("im(next=%d cost=%d %s)", m.Next, m.Cost, tail)
	}
	return fmt.Sprintf("em(cost=%d %s)", m.Cost, tail)
}
