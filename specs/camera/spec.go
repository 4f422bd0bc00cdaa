package camera

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Phase is Algorithm 1's State.
type Phase uint8

const (
	// None: not interested in the CS.
	None Phase = iota
	// Wait: requested, waiting for OKs.
	Wait
	// Held: in the CS.
	Held
)

// String renders the phase as in Algorithm 1.
func (p Phase) String() string {
	switch p {
	case None:
		return "NONE"
	case Wait:
		return "WAIT"
	case Held:
		return "HELD"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// Req is a request (timestamp, id); the zero Req is no request (timestamps
// start at 1).
type Req struct {
	TS uint8
	ID model.NodeID
}

// less orders requests by timestamp, ties broken by the smaller id.
func (r Req) less(o Req) bool { return r.TS < o.TS || r.TS == o.TS && r.ID < o.ID }

// MaxReqs bounds the requests a node's recentlyOKed set can hold at once:
// nodes × requests per node.
const MaxReqs = model.MaxNodes

// Reqs is a set of requests, sorted, zero entries last.
type Reqs [MaxReqs]Req

// Len is the number of requests in the set.
func (s *Reqs) Len() int {
	k := 0
	for k < len(s) && s[k].TS != 0 {
		k++
	}
	return k
}

// Has reports whether r is in the set.
func (s *Reqs) Has(r Req) bool {
	for _, x := range s[:s.Len()] {
		if x == r {
			return true
		}
	}
	return false
}

// Insert adds r, keeping the set sorted; it panics when the set is full
// (Build keeps nodes × requests within MaxReqs).
func (s *Reqs) Insert(r Req) {
	if s.Has(r) {
		return
	}
	k := s.Len()
	if k == len(s) {
		panic("camera: recentlyOKed overflow")
	}
	s[k] = r
	sort.Slice(s[:k+1], func(a, b int) bool { return s[a].less(s[b]) })
}

// Remove deletes r if present.
func (s *Reqs) Remove(r Req) {
	k := s.Len()
	for i := 0; i < k; i++ {
		if s[i] == r {
			copy(s[i:k], s[i+1:k])
			s[k-1] = Req{}
			return
		}
	}
}

// IDs is the set of nodes with a request in the set.
func (s *Reqs) IDs() model.NodeSet {
	var out model.NodeSet
	for _, x := range s[:s.Len()] {
		out = out.Add(x.ID)
	}
	return out
}

// String renders the set as "{n0:1,n2:3}" (node:timestamp).
func (s Reqs) String() string {
	parts := make([]string, 0, s.Len())
	for _, x := range s[:s.Len()] {
		parts = append(parts, fmt.Sprintf("%v:%d", x.ID, x.TS))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Stamps holds one timestamp per node id; 0 means none.
type Stamps [model.MaxNodes]uint8

// String renders the non-zero entries as "{n1:2,n3:1}".
func (s Stamps) String() string {
	var parts []string
	for i, ts := range s {
		if ts != 0 {
			parts = append(parts, fmt.Sprintf("%v:%d", model.NodeID(i), ts))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Node is one node's local state: Algorithm 1's variables. Memlist is the
// engine's membership list (Ctx.Members).
type Node struct {
	State Phase
	// HSN is max_timestamp_seen.
	HSN uint8
	// TS is myRequest's timestamp (0 when the node has no request).
	TS uint8
	// PendingOKs is Pending_OKs.
	PendingOKs model.NodeSet
	// Deferred is the set of deferred requests: their senders, with the
	// timestamps in DeferredTS.
	Deferred   model.NodeSet
	DeferredTS Stamps
	// RecentlyOKed is the set of requests this node answered OK whose
	// RELEASE it has not received.
	RecentlyOKed Reqs
}

// AppendKey appends the canonical encoding of n.
func (n Node) AppendKey(dst []byte) []byte {
	dst = append(dst, byte(n.State), n.HSN, n.TS,
		byte(n.PendingOKs), byte(n.PendingOKs>>8), byte(n.Deferred), byte(n.Deferred>>8))
	for _, j := range n.Deferred.All() {
		dst = append(dst, n.DeferredTS[j])
	}
	k := n.RecentlyOKed.Len()
	dst = append(dst, byte(k))
	for _, r := range n.RecentlyOKed[:k] {
		dst = append(dst, r.TS, byte(r.ID))
	}
	return dst
}

// Kind is a message type.
type Kind uint8

const (
	// Request is REQUEST(myRequest).
	Request Kind = iota
	// OK is OK(recentlyOKed).
	OK
	// Release is RELEASE(myRequest).
	Release
)

// Msg is a protocol message. The request's id is the sender.
type Msg struct {
	Kind Kind
	// TS is the request's timestamp (Request, Release).
	TS uint8
	// Recent is the ids in the sender's recentlyOKed set (OK only).
	Recent model.NodeSet
}

// AppendKey appends the canonical encoding of m.
func (m Msg) AppendKey(dst []byte) []byte {
	return append(dst, byte(m.Kind), m.TS, byte(m.Recent), byte(m.Recent>>8))
}

// String renders the message as "request(ts=2)", "ok(recent={n2})" or
// "release(ts=2)".
func (m Msg) String() string {
	switch m.Kind {
	case Request:
		return fmt.Sprintf("request(ts=%d)", m.TS)
	case OK:
		return fmt.Sprintf("ok(recent=%v)", m.Recent)
	case Release:
		return fmt.Sprintf("release(ts=%d)", m.TS)
	}
	return fmt.Sprintf("Kind(%d)", m.Kind)
}
