package maekawa

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Phase is where a node stands, as a requester, with respect to the CS.
type Phase uint8

const (
	// Released: not interested in the CS.
	Released Phase = iota
	// Wanted: requested, collecting votes.
	Wanted
	// Held: in the CS.
	Held
)

// String renders the phase as in the paper.
func (p Phase) String() string {
	switch p {
	case Released:
		return "RELEASED"
	case Wanted:
		return "WANTED"
	case Held:
		return "HELD"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Stamps holds one request timestamp per node id; 0 means none.
type Stamps [model.MaxNodes]uint8

// String renders the non-zero entries as "{n1:2,n3:1}".
func (s Stamps) String() string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for i, ts := range s {
		if ts == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%v:%d", model.NodeID(i), ts)
	}
	b.WriteByte('}')
	return b.String()
}

// Node is one node's local state: its requester role (State..Inquired) and
// its voter role (Voted..QueueTS).
type Node struct {
	State Phase
	// HSN is the highest request timestamp this node has seen.
	HSN uint8
	// TS is the timestamp of this node's own request (0 when Released).
	TS uint8
	// Asked is the voting set the current request went to; RELEASE goes
	// to the same nodes.
	Asked model.NodeSet
	// Awaiting holds the voters whose vote this node does not hold.
	Awaiting model.NodeSet
	// Failed holds the voters that answered FAILED since their last GRANT
	// (yield variant).
	Failed model.NodeSet
	// Yielded holds the voters this node yielded to and that have not
	// granted again (yield variant).
	Yielded model.NodeSet
	// Inquired holds the voters whose INQUIRE waits for a FAILED (yield
	// variant).
	Inquired model.NodeSet
	// Voted says whether this node's vote is out, to VotedFor for the
	// request stamped VoteTS.
	Voted    bool
	VotedFor model.NodeID
	VoteTS   uint8
	// Inquiring says whether an INQUIRE went to the vote's holder since
	// the vote was last given (yield variant).
	Inquiring bool
	// Queue holds the requests waiting for this node's vote, with their
	// timestamps in QueueTS.
	Queue   model.NodeSet
	QueueTS Stamps
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	var voted byte
	if n.Voted {
		voted = 1
	}
	if n.Inquiring {
		voted |= 2
	}
	dst = append(dst, byte(n.State), n.HSN, n.TS,
		byte(n.Asked), byte(n.Asked>>8), byte(n.Awaiting), byte(n.Awaiting>>8),
		byte(n.Failed), byte(n.Failed>>8), byte(n.Yielded), byte(n.Yielded>>8),
		byte(n.Inquired), byte(n.Inquired>>8),
		voted, byte(n.VotedFor), n.VoteTS, byte(n.Queue), byte(n.Queue>>8))
	for _, j := range n.Queue.All() {
		dst = append(dst, n.QueueTS[j])
	}
	return dst
}

// Kind is a message type.
type Kind uint8

const (
	// Request asks a voter for its vote.
	Request Kind = iota
	// Grant gives the vote (the paper's OK, Maekawa's LOCKED).
	Grant
	// Release returns the vote after the CS.
	Release
	// Inquire asks the vote's holder whether it can give it back (yield).
	Inquire
	// Failed tells a requester that a request of higher priority holds or
	// waits for the vote (yield).
	Failed
	// Yield gives the vote back before the CS (yield).
	Yield
)

var kindNames = [...]string{"request", "grant", "release", "inquire", "failed", "yield"}

// Msg is a protocol message.
type Msg struct {
	Kind Kind
	// TS is the request's timestamp (Request only).
	TS uint8
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte { return append(dst, byte(m.Kind), m.TS) }

// String renders the message as "request(ts=2)", "grant", "release", ...
func (m Msg) String() string {
	if m.Kind == Request {
		return fmt.Sprintf("request(ts=%d)", m.TS)
	}
	if int(m.Kind) < len(kindNames) {
		return kindNames[m.Kind]
	}
	return fmt.Sprintf("Kind(%d)", m.Kind)
}
