package lme

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Lock is the lock variable of Table 1: ⊥ (None), 0 (locked by the node
// itself) or the port ℓ of the node that holds the lock.
type Lock int8

// None is ⊥: the node is unlocked.
const None Lock = -1

// String renders the lock as "⊥" or the port number.
func (l Lock) String() string {
	if l == None {
		return "⊥"
	}
	return strconv.Itoa(int(l))
}

// State is the lock state of an initiator (Table 1, state).
type State uint8

// The lock states, in the order an initiator goes through them.
const (
	Idle State = iota // ⊥
	Prepare
	Compete
	Win
	Locked
	Unlock
)

// String renders the state as in the paper.
func (s State) String() string {
	switch s {
	case Idle:
		return "⊥"
	case Prepare:
		return "PREPARE"
	case Compete:
		return "COMPETE"
	case Win:
		return "WIN"
	case Locked:
		return "LOCKED"
	case Unlock:
		return "UNLOCK"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Phase is the algorithm phase of a participant (Table 1, phase).
type Phase uint8

// The participant phases.
const (
	NoPhase Phase = iota // ⊥
	PhasePrepare
	PhaseCompete
)

// String renders the phase as in the paper.
func (p Phase) String() string {
	switch p {
	case NoPhase:
		return "⊥"
	case PhasePrepare:
		return "PREPARE"
	case PhaseCompete:
		return "COMPETE"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// WSet is W of Table 1: a set of (port, outcome) pairs of received win()
// messages, as two bitsets (T: win(TRUE) ports, F: win(FALSE) ports). A port
// may be in both, as in a set of pairs.
type WSet struct{ T, F model.Ports }

// Len is |W|, the number of pairs.
func (w WSet) Len() int { return w.T.Len() + w.F.Len() }

// String renders W as "{(0,T),(1,F)}".
func (w WSet) String() string {
	var parts []string
	for p := model.Port(0); p < model.MaxPorts; p++ {
		if w.T.Has(p) {
			parts = append(parts, fmt.Sprintf("(%d,T)", p))
		}
		if w.F.Has(p) {
			parts = append(parts, fmt.Sprintf("(%d,F)", p))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// MaxPriorities bounds K, the number of priorities (--priorities).
const MaxPriorities = 8

// PSet is P of Table 1: a set of (port, priority) pairs. PSet[ℓ] has bit p
// set when (ℓ, p) ∈ P; several priorities per port are representable, as in
// a set of pairs.
type PSet [model.MaxPorts]uint8

// Len is |P|, the number of pairs.
func (s *PSet) Len() int {
	n := 0
	for _, b := range s {
		n += bits.OnesCount8(b)
	}
	return n
}

// Ports is the set of ports with at least one pair.
func (s *PSet) Ports() model.Ports {
	var out model.Ports
	for p, b := range s {
		if b != 0 {
			out = out.Add(model.Port(p))
		}
	}
	return out
}

// String renders P as "{(0,1),(2,0)}".
func (s PSet) String() string {
	var parts []string
	for p, b := range s {
		for k := 0; k < 8; k++ {
			if b&(1<<k) != 0 {
				parts = append(parts, fmt.Sprintf("(%d,%d)", p, k))
			}
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Node is one node's local state: the variables of Table 1 plus one ghost
// variable. All sets are bitsets over the ports 0..Δ (0 is the self-port).
type Node struct {
	Lock  Lock
	State State
	Phase Phase
	L     model.Ports
	R     model.Ports
	W     WSet
	H     model.Ports
	A     model.Ports
	C     model.Ports
	P     PSet
	// Decided is used by the late-joiners-lose repair only (always false
	// in the published algorithm): a trial of the current competition has
	// been decided.
	Decided bool
	// Persist is a ghost variable (not part of the algorithm): the ports
	// that have stayed connected since the node's last InitLock, i.e. N[u]
	// at InitLock minus every disconnection snapshot D seen since. It is
	// updated on every action, whatever the action does.
	Persist model.Ports
}

// AppendKey appends the canonical encoding of n: 11 bytes plus one byte per
// port that has a priority in P.
func (n Node) AppendKey(dst []byte) []byte {
	pp := n.P.Ports()
	dst = append(dst, byte(n.Lock), byte(n.State)<<4|b2u(n.Decided)<<3|byte(n.Phase),
		byte(n.L), byte(n.R), byte(n.W.T), byte(n.W.F), byte(n.H), byte(n.A), byte(n.C),
		byte(n.Persist), byte(pp))
	for _, b := range n.P {
		if b != 0 {
			dst = append(dst, b)
		}
	}
	return dst
}

// Kind is a message type.
type Kind uint8

// The message types of Algorithms 1–3.
const (
	MsgPrepare Kind = iota
	MsgReady
	MsgRequestLock
	MsgWin
	MsgSetLock
	MsgAckLock
	MsgReleaseLock
	MsgAckUnlock
)

var kindNames = [...]string{"prepare", "ready", "request-lock", "win", "set-lock", "ack-lock", "release-lock", "ack-unlock"}

// Msg is a message: its kind and, for request-lock the priority p, for win
// the outcome b (1 = TRUE).
type Msg struct {
	Kind Kind
	Arg  uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind), m.Arg) }

// String renders the message as "prepare", "request-lock(p=1)" or
// "win(TRUE)".
func (m Msg) String() string {
	name := "msg?"
	if int(m.Kind) < len(kindNames) {
		name = kindNames[m.Kind]
	}
	switch m.Kind {
	case MsgRequestLock:
		return fmt.Sprintf("%s(p=%d)", name, m.Arg)
	case MsgWin:
		if m.Arg != 0 {
			return name + "(TRUE)"
		}
		return name + "(FALSE)"
	}
	return name
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
