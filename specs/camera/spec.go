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

// Mutant names a deliberate bug.
type Mutant string

const (
	// Faithful is Algorithm 1 as published.
	Faithful Mutant = "none"
	// IgnoreRecentlyOKed drops the recentlyOKed set carried by OK: the
	// requester learns nothing from it (RA plus learning from REQUESTs).
	IgnoreRecentlyOKed Mutant = "ignore-recently-oked"
	// NoLearnOnRequest skips lines 2–6 of receive_request: a REQUEST from
	// an unknown node neither joins the list nor gets our own request.
	NoLearnOnRequest Mutant = "no-learn-on-request"
	// ForgetDeferred drops the deferred requests on exit instead of
	// answering them.
	ForgetDeferred Mutant = "forget-deferred"
)

// Variant selects the protocol.
type Variant string

const (
	// FastPath is Algorithm 1 as published.
	FastPath Variant = "fast-path"
	// AskRecentlyOKed is our repair for churn: enter() also asks every
	// node in the requester's own recentlyOKed set, known or not.
	AskRecentlyOKed Variant = "ask-recently-oked"
)

// learn is what receive_request lines 2–6 and receive_OKs lines 17–21 do
// with an unknown node: add it to Memlist and, while waiting, to
// Pending_OKs, sending it our request.
func learn(c *model.Ctx[Node, Msg], n *Node, j model.NodeID, whileWaiting bool) {
	if c.Members().Has(j) {
		return
	}
	if !whileWaiting || n.State == Wait {
		n.PendingOKs = n.PendingOKs.Add(j)
		c.Send(j, Msg{Kind: Request, TS: n.TS})
	}
	c.AddMember(j)
}

// Protocol returns Camera's fast path (Algorithm 1), with the given mutant.
func Protocol(variant Variant, mut Mutant) *model.Protocol[Node, Msg] {
	isKind := func(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }
	return &model.Protocol[Node, Msg]{
		Name: "camera",
		Init: func(model.NodeID, *model.Config) Node { return Node{} },
		Actions: []model.Action[Node, Msg]{
			{
				// RequestCS is enter() lines 11–17: WAIT, stamp the
				// request, ask every other member.
				Name:  "RequestCS",
				Kind:  model.Request,
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == None },
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					n.State = Wait
					n.HSN++
					n.TS = n.HSN
					n.PendingOKs = c.Members().Remove(c.Self())
					if variant == AskRecentlyOKed {
						n.PendingOKs |= n.RecentlyOKed.IDs().Remove(c.Self())
					}
					for _, j := range n.PendingOKs.All() {
						c.Send(j, Msg{Kind: Request, TS: n.TS})
					}
				},
			},
			{
				// Enter is enter() lines 18–19: WAITFOR(Pending_OKs
				// empty), then HELD.
				Name:  "Enter",
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Wait && n.PendingOKs.Empty() },
				Do:    func(_ *model.Ctx[Node, Msg], n *Node) { n.State = Held },
			},
			{
				// ExitCS is exit(): multicast RELEASE(myRequest), answer
				// every deferred request with OK(recentlyOKed) and note
				// it in recentlyOKed.
				Name:  "ExitCS",
				Kind:  model.Exit,
				Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Held },
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					n.State = None
					for j := 0; j < c.Nodes(); j++ {
						if model.NodeID(j) != c.Self() {
							c.Send(model.NodeID(j), Msg{Kind: Release, TS: n.TS})
						}
					}
					if mut != ForgetDeferred {
						for _, j := range n.Deferred.All() {
							c.Send(j, Msg{Kind: OK, Recent: n.RecentlyOKed.IDs()})
							n.RecentlyOKed.Insert(Req{TS: n.DeferredTS[j], ID: j})
						}
					}
					n.Deferred, n.DeferredTS = 0, Stamps{}
				},
			},
			{
				// ReceiveRequest is receive_request.
				Name: "ReceiveRequest",
				Kind: model.Receive,
				On:   isKind(Request),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					m, j := c.Msg(), c.From()
					if mut != NoLearnOnRequest {
						learn(c, n, j, true)
					}
					n.HSN = max(n.HSN, m.TS)
					req := Req{TS: m.TS, ID: j}
					if n.State == Held || n.State == Wait && (Req{TS: n.TS, ID: c.Self()}).less(req) {
						n.Deferred = n.Deferred.Add(j)
						n.DeferredTS[j] = m.TS
						return
					}
					c.Send(j, Msg{Kind: OK, Recent: n.RecentlyOKed.IDs()})
					n.RecentlyOKed.Insert(req)
				},
			},
			{
				// ReceiveRelease is receive_release.
				Name: "ReceiveRelease",
				Kind: model.Receive,
				On:   isKind(Release),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					n.RecentlyOKed.Remove(Req{TS: c.Msg().TS, ID: c.From()})
				},
			},
			{
				// ReceiveOK is receive_OKs: request every unknown node
				// in the sender's recentlyOKed, then one fewer OK to
				// wait for.
				Name: "ReceiveOK",
				Kind: model.Receive,
				On:   isKind(OK),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					if mut != IgnoreRecentlyOKed {
						for _, k := range c.Msg().Recent.All() {
							learn(c, n, k, false)
						}
					}
					n.PendingOKs = n.PendingOKs.Remove(c.From())
				},
			},
		},
		Invariants: []model.Property[Node, Msg]{
			{Name: "mutual-exclusion", Holds: func(w *model.World[Node, Msg]) bool {
				return w.Count(func(n *Node) bool { return n.State == Held }) <= 1
			}},
		},
		Pending: func(n *Node) bool { return n.State != None },
		Hungry:  func(n *Node) bool { return n.State == Wait },
		Notes:   notes,
	}
}

// MFP reports whether the Mutual Friend Property (Definition 4) holds for
// the lists: every pair of distinct nodes in requesters shares a member
// (lists contain their owners, so knowing each other counts). When it fails
// it returns the first pair, in id order.
func MFP(lists []model.NodeSet, requesters model.NodeSet) (ok bool, i, j model.NodeID) {
	rs := requesters.All()
	for a, x := range rs {
		for _, y := range rs[a+1:] {
			if lists[x]&lists[y] == 0 {
				return false, x, y
			}
		}
	}
	return true, 0, 0
}

// StronglyConnected reports whether the membership graph (an edge i→j when
// j is in i's list) is strongly connected; when it is not, it returns a
// pair (i, j) such that j is unreachable from i.
func StronglyConnected(lists []model.NodeSet) (ok bool, i, j model.NodeID) {
	n := len(lists)
	for s := 0; s < n; s++ {
		seen := model.NodeSet(0).Add(model.NodeID(s))
		todo := []model.NodeID{model.NodeID(s)}
		for len(todo) > 0 {
			u := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, v := range lists[u].All() {
				if !seen.Has(v) {
					seen = seen.Add(v)
					todo = append(todo, v)
				}
			}
		}
		if seen != model.FullSet(n) {
			return false, model.NodeID(s), (model.FullSet(n) &^ seen).All()[0]
		}
	}
	return true, 0, 0
}

// requesters is the set of nodes that may request under c.
func requesters(c *model.Config) model.NodeSet {
	if c.Requests == 0 {
		return 0
	}
	return model.FullSet(c.Nodes)
}

// lists returns the initial membership lists of c.
func lists(c *model.Config) []model.NodeSet {
	if c.Members != nil {
		return c.Members
	}
	out := make([]model.NodeSet, c.Nodes)
	for i := range out {
		out[i] = model.FullSet(c.Nodes)
	}
	return out
}

// notes reports the preconditions of Camera's theorems on the initial
// lists: the Mutual Friend Property (Definition 4, Theorem 5) and strong
// connectivity of the membership graph (Theorem 1).
func notes(c *model.Config) []string {
	ls := lists(c)
	var out []string
	if ok, i, j := MFP(ls, requesters(c)); ok {
		out = append(out, "mutual-friend-property: holds (every pair of requesting nodes shares a list member)")
	} else {
		out = append(out, fmt.Sprintf("mutual-friend-property: fails for %v and %v (lists %v and %v share no node)", i, j, ls[i], ls[j]))
	}
	if ok, i, j := StronglyConnected(ls); ok {
		out = append(out, "strongly-connected: holds (every node reaches every node through the lists)")
	} else {
		out = append(out, fmt.Sprintf("strongly-connected: fails (%v cannot reach %v through the lists)", i, j))
	}
	if c.Budget.Removes > 0 {
		out = append(out, fmt.Sprintf("churn: the adversary may remove %d list entries while the protocol runs; the lines above hold for the initial lists only", c.Budget.Removes))
	}
	return out
}

// keepMFP is a Machine whose adversary may only remove a membership entry
// when the Mutual Friend Property still holds afterwards: the hypothesis of
// Corollary 5.1 ("as long as MFP holds") imposed on churn.
type keepMFP struct {
	*model.Machine[Node, Msg]
	req model.NodeSet
}

// Successors is the machine's, less the removals that break MFP.
func (k keepMFP) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	k.Machine.Successors(s, func(t model.Transition, next model.State) bool {
		if t.Kind == model.AdversaryStep && t.Action == model.MoveRemove {
			w := next.(*model.World[Node, Msg])
			ls := make([]model.NodeSet, len(w.Meta))
			for i := range w.Meta {
				ls[i] = w.Meta[i].Members
			}
			if ok, _, _ := MFP(ls, k.req); !ok {
				return true
			}
		}
		return yield(t, next)
	})
}

// Notes adds the restriction to the machine's notes.
func (k keepMFP) Notes() []string {
	return append(k.Machine.Notes(), "churn-keeps-mfp: the adversary only removes entries after which the Mutual Friend Property still holds")
}

// Spec is the registry entry for camera.
var Spec = &model.Spec{
	Name:    "camera",
	Summary: "Camera, churn-tolerant Ricart–Agrawala, fast path (seed 003 Algorithm 1)",
	Params: []model.Param{
		model.NodesParam(3),
		model.RequestsParam(1),
		model.MissingParam(),
		model.ChurnParam(),
		model.BoolParam("churn-keeps-mfp", false, "the adversary only removes entries after which the Mutual Friend Property still holds"),
		model.EnumParam("variant", "algorithm version",
			model.Option{Name: string(FastPath), Usage: "Algorithm 1"},
			model.Option{Name: string(AskRecentlyOKed), Usage: "our churn repair"}),
		model.EnumParam("mutant", "deliberate bug",
			model.Option{Name: string(Faithful)}, model.Option{Name: string(IgnoreRecentlyOKed)},
			model.Option{Name: string(NoLearnOnRequest)}, model.Option{Name: string(ForgetDeferred)}),
	},
	Build: Build,
}

// Build compiles a configuration of camera.
func Build(a *model.Args) (model.System, error) {
	n, r := a.Int("nodes"), a.Int("requests")
	if n*r > MaxReqs {
		return nil, a.Errorf("requests", "nodes × requests must be at most %d (the recentlyOKed bound), got %d×%d", MaxReqs, n, r)
	}
	members := a.Members("missing")
	cfg := model.Config{Nodes: n, Requests: r, Members: members, Budget: model.Budget{Removes: uint8(a.Int("churn"))}}
	m, err := model.Compile(Protocol(Variant(a.String("variant")), Mutant(a.String("mutant"))), cfg)
	if err != nil {
		return nil, err
	}
	if a.Bool("churn-keeps-mfp") {
		if ok, i, j := MFP(members, requesters(&cfg)); !ok {
			return nil, a.Errorf("churn-keeps-mfp", "the initial lists already break the Mutual Friend Property (%v and %v share no node)", i, j)
		}
		return keepMFP{m, requesters(&cfg)}, nil
	}
	return m, nil
}
