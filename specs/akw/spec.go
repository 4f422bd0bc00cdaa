package akw

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// MaxNodes bounds the configurations of akw: a view of the recoloring
// subgraph is a 4×4 adjacency matrix in one uint16.
const MaxNodes = 4

// Phase is the application state of §2.
type Phase uint8

// The three states of §2.
const (
	Thinking Phase = iota
	Hungry
	Eating
)

// String renders the phase as in the paper.
func (p Phase) String() string {
	switch p {
	case Thinking:
		return "thinking"
	case Hungry:
		return "hungry"
	case Eating:
		return "eating"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Doors is a set of the four doorways of Figure 3 a node is behind: the
// asynchronous and synchronous doorways of the recoloring module (AD^r,
// SD^r) and of the fork collection module (AD^f, SD^f). The empty set is
// exit_all.
type Doors uint8

// The doorways.
const (
	ADr Doors = 1 << iota
	SDr
	ADf
	SDf
)

// String renders the set as "{ADr,SDr}" or "exit_all".
func (d Doors) String() string {
	if d == 0 {
		return "exit_all"
	}
	var parts []string
	for i, name := range []string{"ADr", "SDr", "ADf", "SDf"} {
		if d&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Stage is where a node's control stands in Figure 3: which entry code it
// executes, or which module it runs.
type Stage uint8

// The stages, in the order a hungry node that moved goes through them.
const (
	// Out: outside every doorway, not executing an entry code.
	Out Stage = iota
	// EntryADr: executing the entry code of AD^r.
	EntryADr
	// EntrySDr: executing the entry code of SD^r.
	EntrySDr
	// Coloring: behind SD^r, running new-color().
	Coloring
	// EntryADf: executing the entry code of AD^f (still behind the first
	// double doorway when it recolored: the interleaving of Figure 3).
	EntryADf
	// ExitR: behind AD^f, executing the exit code of the first double
	// doorway.
	ExitR
	// EntrySDf: executing the entry code of SD^f.
	EntrySDf
	// Forks: behind SD^f, running the fork collection module.
	Forks
)

var stageNames = [...]string{"out", "entry-ADr", "entry-SDr", "coloring", "entry-ADf", "exit-r", "entry-SDf", "forks"}

// String renders the stage.
func (s Stage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", uint8(s))
}

// Color is a node's color: an integer, or ⊥ (Bot) when unknown.
type Color int8

// Bot is ⊥, the color of a neighbour that has not announced one yet.
const Bot Color = -128

// String renders the color or "⊥".
func (c Color) String() string {
	if c == Bot {
		return "⊥"
	}
	return strconv.Itoa(int(c))
}

// less is color a < color b; ⊥ is comparable with nothing, so a neighbour
// of unknown color is neither low nor high (reconstruction, doc.go).
func less(a, b Color) bool { return a != Bot && b != Bot && a < b }

// View is a view of the recoloring subgraph (§4.4): the nodes whose rows
// are known and a 4×4 adjacency matrix, row x in bits 4x..4x+3.
type View struct {
	Known model.NodeSet
	Adj   uint16
}

// Row is the neighbour set of node x in the view.
func (v View) Row(x model.NodeID) model.NodeSet { return model.NodeSet(v.Adj>>(4*x)) & 0xf }

// SetRow sets the neighbour set of node x and marks x known.
func (v View) SetRow(x model.NodeID, s model.NodeSet) View {
	v.Adj = v.Adj&^(0xf<<(4*x)) | uint16(s&0xf)<<(4*x)
	v.Known = v.Known.Add(x)
	return v
}

// Merge adds the rows of o that v does not know.
func (v View) Merge(o View) View {
	for _, x := range o.Known.All() {
		if !v.Known.Has(x) {
			v = v.SetRow(x, o.Row(x))
		}
	}
	return v
}

// Node is one node's local state: the variables of §4.2, indexed by port
// (N, the neighbours, is the set of ports whose link the node has been
// told about: kept by the LinkUp and LinkDown handlers), plus
// the control state the pseudocode leaves implicit (Stage, Pos, Moved, the
// doorway and new-color bookkeeping; doc.go).
type Node struct {
	State Phase
	Stage Stage
	// N is the set of neighbours (§4.2): the ports whose LinkUp the node
	// has received and whose LinkDown it has not. With atomic
	// notifications it is always the set of connected ports.
	N model.Ports
	// Pos is the set of doorways the node is behind; it is what the node's
	// last cross/exit message said (L[i] of L46).
	Pos Doors
	// Moved: the node moved since it last ate, so it recolors before the
	// fork collection module (§4, "depending on whether or not it moved").
	Moved bool
	// Color is color[i]; C[p] is color[j] of the neighbour on port p.
	Color Color
	C     [model.MaxPorts]Color
	// L[p] is the last doorway message received from the neighbour on
	// port p: the doorways it said it is behind.
	L [model.MaxPorts]Doors
	// At is {p : at[j]}; S the suspended requests; R the recoloring set.
	At, S, R model.Ports
	// Seen: neighbours found outside the asynchronous doorway being
	// entered, at least once since the entry began.
	Seen model.Ports
	// Wait: new static neighbours whose ⟨update-color, L⟩ (L46) has not
	// arrived yet (L53).
	Wait model.Ports
	// Round and Got are new-color()'s round and the ports whose view of
	// this round arrived; Vw is the view gathered so far.
	Round uint8
	Got   model.Ports
	Vw    View
	// Mover is a ghost variable (--starvation=static): the node certainly
	// moved at some time (model.Notifications.Moved).
	Mover bool
	// Par, Blk and BlkPar are ghost variables (ghost.go).
	Par         Doors
	Blk, BlkPar [4]model.Ports
}

// AppendKey appends the canonical encoding of n (ports 1..4 only: Δ ≤ 3
// at four nodes).
func (n Node) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(n.State)|byte(n.Stage)<<2|b2u(n.Moved)<<5|b2u(n.Mover)<<6, byte(n.N), byte(n.Pos), byte(n.Color),
		byte(n.At), byte(n.S), byte(n.R), byte(n.Seen), byte(n.Wait), n.Round, byte(n.Got),
		byte(n.Vw.Known), byte(n.Vw.Adj), byte(n.Vw.Adj>>8), byte(n.Par))
	for k := range n.Blk {
		dst = append(dst, byte(n.Blk[k]), byte(n.BlkPar[k]))
	}
	for p := 1; p < model.MaxPorts; p++ {
		dst = append(dst, byte(n.C[p]), byte(n.L[p]))
	}
	return dst
}

// Kind is a message type.
type Kind uint8

// The messages of Algorithm 1 and of the reconstructed doorways and
// new-color().
const (
	// UpdateColor is update-color(c) (L7, L39).
	UpdateColor Kind = iota
	// Hello is ⟨update-color(c), L[i]⟩ (L46).
	Hello
	// Door is a doorway cross/exit message: the doorways the sender is
	// now behind (exit_all when empty).
	Door
	// Req asks for the shared fork (L26, L29).
	Req
	// Fork is ⟨fork, flag⟩ (L31).
	Fork
	// ViewMsg is one round of new-color() (§4.4).
	ViewMsg
	// Nack is NACK (L41).
	Nack
	// Link is a link notification from the link layer, delivered
	// asynchronously (--notify=async).
	Link
)

var kindNames = [...]string{"update-color", "hello", "door", "req", "fork", "view", "nack", "link"}

// Msg is a message of Algorithm 1.
type Msg struct {
	Kind  Kind
	Color Color
	Doors Doors
	Flag  bool
	Round uint8
	View  View
	// Notice is the notification a Link message carries.
	Notice model.Notice
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte {
	return append(dst, byte(m.Kind), byte(m.Color), byte(m.Doors), b2u(m.Flag), m.Round,
		byte(m.View.Known), byte(m.View.Adj), byte(m.View.Adj>>8), byte(m.Notice))
}

// String renders the message as in the pseudocode.
func (m Msg) String() string {
	name := "msg?"
	if int(m.Kind) < len(kindNames) {
		name = kindNames[m.Kind]
	}
	switch m.Kind {
	case UpdateColor:
		return fmt.Sprintf("%s(%v)", name, m.Color)
	case Hello:
		return fmt.Sprintf("<update-color(%v),%v>", m.Color, m.Doors)
	case Door:
		return fmt.Sprintf("%s(%v)", name, m.Doors)
	case Fork:
		return fmt.Sprintf("<fork,%v>", m.Flag)
	case ViewMsg:
		return fmt.Sprintf("%s(r=%d,%v,%04x)", name, m.Round, m.View.Known, m.View.Adj)
	case Link:
		return m.Notice.String()
	}
	return name
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
