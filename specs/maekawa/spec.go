package maekawa

import (
	"fmt"
	"math"
	"strconv"
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

// Variant selects the deadlock handling.
type Variant string

const (
	// Classic is Maekawa without deadlock handling (as seed 003 §III-B
	// describes it): it can deadlock.
	Classic Variant = "classic"
	// YieldVariant adds INQUIRE/FAILED/YIELD as Maekawa (1985) gives it:
	// FAILED when a request of higher priority holds or waits for the
	// vote, else one INQUIRE per lock.
	YieldVariant Variant = "yield"
	// YieldLockOnly is the textbook shortcut (Singhal and Shivaratri
	// 1994, §6.9): FAILED only when the vote's holder has priority, else
	// INQUIRE. It deadlocks.
	YieldLockOnly Variant = "yield-lock-only"
	// YieldFailDisplaced is our repair of YieldVariant: a request that
	// becomes the highest-priority waiting one also sends FAILED to the
	// request it displaces from the head of the queue.
	YieldFailDisplaced Variant = "yield-fail-displaced"
)

// Mutant names a deliberate bug.
type Mutant string

const (
	// Faithful is the algorithm as published.
	Faithful Mutant = "none"
	// VoteTwice grants every REQUEST at once, even while the vote is out.
	VoteTwice Mutant = "vote-twice"
	// YieldInCS answers INQUIRE with YIELD even inside the CS (yield
	// variant).
	YieldInCS Mutant = "yield-in-cs"
	// KeepVote never passes the vote on at RELEASE.
	KeepVote Mutant = "keep-vote"
)

// precedes reports whether request (ts, i) has priority over (ts2, j):
// smaller timestamp, ties broken by the smaller id.
func precedes(ts uint8, i model.NodeID, ts2 uint8, j model.NodeID) bool {
	return ts < ts2 || ts == ts2 && i < j
}

// grantNext passes the vote to the queued request of highest priority, or
// frees it when the queue is empty.
func grantNext(c *model.Ctx[Node, Msg], n *Node) {
	n.Inquiring = false
	if n.Queue.Empty() {
		n.Voted, n.VotedFor, n.VoteTS = false, 0, 0
		return
	}
	best, _ := n.head()
	n.Voted, n.VotedFor, n.VoteTS = true, best, n.QueueTS[best]
	n.Queue = n.Queue.Remove(best)
	n.QueueTS[best] = 0
	c.Send(best, Msg{Kind: Grant})
}

// head returns the queued request of highest priority, if any.
func (n *Node) head() (model.NodeID, bool) {
	best := model.NodeID(0)
	first := true
	for _, j := range n.Queue.All() {
		if first || precedes(n.QueueTS[j], j, n.QueueTS[best], best) {
			best, first = j, false
		}
	}
	return best, !first
}

// yieldTo gives voter j's vote back.
func yieldTo(c *model.Ctx[Node, Msg], n *Node, j model.NodeID) {
	n.Awaiting = n.Awaiting.Add(j)
	n.Yielded = n.Yielded.Add(j)
	n.Inquired = n.Inquired.Remove(j)
	c.Send(j, Msg{Kind: Yield})
}

// Protocol returns Maekawa's algorithm in the given variant, with the given
// mutant. Only the nodes in requesters call request-CS.
func Protocol(variant Variant, mut Mutant, requesters model.NodeSet) *model.Protocol[Node, Msg] {
	isKind := func(k Kind) func(Msg) bool { return func(m Msg) bool { return m.Kind == k } }
	actions := []model.Action[Node, Msg]{
		{
			// RequestCS: send REQUEST(HSN+1) to every member of V_i,
			// itself included.
			Name: "RequestCS",
			Kind: model.Request,
			Guard: func(c *model.Ctx[Node, Msg], n *Node) bool {
				return n.State == Released && requesters.Has(c.Self())
			},
			Do: func(c *model.Ctx[Node, Msg], n *Node) {
				n.State = Wanted
				n.TS = n.HSN + 1
				n.Asked = c.Members()
				n.Awaiting = n.Asked
				for _, j := range n.Asked.All() {
					c.Send(j, Msg{Kind: Request, TS: n.TS})
				}
			},
		},
		{
			// Enter: every voter asked has granted its vote.
			Name:  "Enter",
			Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Wanted && n.Awaiting.Empty() },
			Do: func(_ *model.Ctx[Node, Msg], n *Node) {
				n.State = Held
				n.Failed, n.Yielded, n.Inquired = 0, 0, 0
			},
		},
		{
			// ExitCS: send RELEASE to every voter asked.
			Name:  "ExitCS",
			Kind:  model.Exit,
			Guard: func(_ *model.Ctx[Node, Msg], n *Node) bool { return n.State == Held },
			Do: func(c *model.Ctx[Node, Msg], n *Node) {
				for _, j := range n.Asked.All() {
					c.Send(j, Msg{Kind: Release})
				}
				n.State, n.TS, n.Asked = Released, 0, 0
			},
		},
		{
			// ReceiveRequest: vote for the requester if the vote is
			// free; otherwise queue the request (and, in the yield
			// variant, answer FAILED or INQUIRE the holder).
			Name: "ReceiveRequest",
			Kind: model.Receive,
			On:   isKind(Request),
			Do: func(c *model.Ctx[Node, Msg], n *Node) {
				m, j := c.Msg(), c.From()
				n.HSN = max(n.HSN, m.TS)
				if !n.Voted || mut == VoteTwice {
					n.Voted, n.VotedFor, n.VoteTS = true, j, m.TS
					c.Send(j, Msg{Kind: Grant})
					return
				}
				if variant == Classic {
					n.Queue = n.Queue.Add(j)
					n.QueueTS[j] = m.TS
					return
				}
				beaten := precedes(n.VoteTS, n.VotedFor, m.TS, j)
				head, queued := n.head()
				if variant != YieldLockOnly && queued {
					beaten = beaten || precedes(n.QueueTS[head], head, m.TS, j)
				}
				n.Queue = n.Queue.Add(j)
				n.QueueTS[j] = m.TS
				if variant == YieldFailDisplaced && !beaten && queued && !precedes(n.VoteTS, n.VotedFor, n.QueueTS[head], head) {
					// The displaced head was not sent FAILED when it
					// arrived (it beat the holder); it is beaten now.
					c.Send(head, Msg{Kind: Failed})
				}
				switch {
				case beaten:
					c.Send(j, Msg{Kind: Failed})
				case variant == YieldLockOnly:
					c.Send(n.VotedFor, Msg{Kind: Inquire})
				case !n.Inquiring:
					n.Inquiring = true
					c.Send(n.VotedFor, Msg{Kind: Inquire})
				}
			},
		},
		{
			// ReceiveGrant: one more vote held.
			Name: "ReceiveGrant",
			Kind: model.Receive,
			On:   isKind(Grant),
			Do: func(c *model.Ctx[Node, Msg], n *Node) {
				j := c.From()
				n.Awaiting = n.Awaiting.Remove(j)
				n.Failed = n.Failed.Remove(j)
				n.Yielded = n.Yielded.Remove(j)
			},
		},
		{
			// ReceiveRelease: pass the vote to the next queued request.
			Name: "ReceiveRelease",
			Kind: model.Receive,
			On:   isKind(Release),
			Do: func(c *model.Ctx[Node, Msg], n *Node) {
				if mut == KeepVote || !n.Voted || n.VotedFor != c.From() {
					return
				}
				grantNext(c, n)
			},
		},
	}
	if variant != Classic {
		actions = append(actions,
			model.Action[Node, Msg]{
				// ReceiveInquire: yield the vote if this node has seen a
				// FAILED or yielded before; otherwise wait for a FAILED.
				// Ignored in the CS (RELEASE follows) and when the vote
				// is not held.
				Name: "ReceiveInquire",
				Kind: model.Receive,
				On:   isKind(Inquire),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					j := c.From()
					if n.Awaiting.Has(j) {
						return
					}
					if n.State == Held && mut == YieldInCS {
						yieldTo(c, n, j)
						return
					}
					if n.State != Wanted {
						return
					}
					if !n.Failed.Empty() || !n.Yielded.Empty() {
						yieldTo(c, n, j)
						return
					}
					n.Inquired = n.Inquired.Add(j)
				},
			},
			model.Action[Node, Msg]{
				// ReceiveFailed: note the FAILED and answer every
				// deferred INQUIRE with YIELD.
				Name: "ReceiveFailed",
				Kind: model.Receive,
				On:   isKind(Failed),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					if n.State != Wanted {
						return
					}
					n.Failed = n.Failed.Add(c.From())
					for _, k := range n.Inquired.All() {
						if !n.Awaiting.Has(k) {
							yieldTo(c, n, k)
						}
					}
					n.Inquired = 0
				},
			},
			model.Action[Node, Msg]{
				// ReceiveYield: queue the yielder's request again and
				// vote for the queued request of highest priority.
				Name: "ReceiveYield",
				Kind: model.Receive,
				On:   isKind(Yield),
				Do: func(c *model.Ctx[Node, Msg], n *Node) {
					j := c.From()
					if !n.Voted || n.VotedFor != j {
						return
					}
					n.Queue = n.Queue.Add(j)
					n.QueueTS[j] = n.VoteTS
					grantNext(c, n)
				},
			},
		)
	}
	return &model.Protocol[Node, Msg]{
		Name:    "maekawa",
		Init:    func(model.NodeID, *model.Config) Node { return Node{} },
		Actions: actions,
		Invariants: []model.Property[Node, Msg]{
			{Name: "mutual-exclusion", Holds: func(w *model.World[Node, Msg]) bool {
				return w.Count(func(n *Node) bool { return n.State == Held }) <= 1
			}},
		},
		Pending: func(n *Node) bool { return n.State != Released },
		Hungry:  func(n *Node) bool { return n.State == Wanted },
		FIFO:    true,
		Notes:   func(c *model.Config) []string { return notes(c, requesters) },
	}
}

// notes reports the voting sets and whether every pair of requesters'
// voting sets intersects (Maekawa's safety condition).
func notes(c *model.Config, requesters model.NodeSet) []string {
	sets := make([]string, c.Nodes)
	for i, m := range c.Members {
		sets[i] = fmt.Sprintf("%v=%v", model.NodeID(i), m)
	}
	out := []string{"voting sets: " + strings.Join(sets, " ")}
	rs := requesters.All()
	for a, i := range rs {
		for _, j := range rs[a+1:] {
			if c.Members[i]&c.Members[j] == 0 {
				return append(out, fmt.Sprintf("voting-sets-intersect: fails for %v and %v (disjoint voting sets)", i, j))
			}
		}
	}
	return append(out, "voting-sets-intersect: holds for every pair of requesters")
}

// Grid returns the voting sets of n = k×k nodes: node r·k+c votes with its
// row r and its column c, itself included. It fails when n is not a square.
func Grid(n int) ([]model.NodeSet, error) {
	k := int(math.Round(math.Sqrt(float64(n))))
	if k*k != n {
		return nil, fmt.Errorf("--nodes: maekawa's voting sets need a k×k grid (1, 4, 9 or 16 nodes), got %d", n)
	}
	sets := make([]model.NodeSet, n)
	for i := range sets {
		r, c := i/k, i%k
		for x := 0; x < k; x++ {
			sets[i] = sets[i].Add(model.NodeID(r*k + x)).Add(model.NodeID(x*k + c))
		}
	}
	return sets, nil
}

// Replace applies "I:J=K[,I:J=K...]" to the voting sets, in order: in node
// I's voting set, member J is replaced by K.
func Replace(sets []model.NodeSet, text string) (int, error) {
	if strings.TrimSpace(text) == "" {
		return 0, nil
	}
	n := len(sets)
	items := strings.Split(text, ",")
	for _, item := range items {
		item = strings.TrimSpace(item)
		var i, j, k int
		var rest string
		if c, _ := fmt.Sscanf(item, "%d:%d=%d%s", &i, &j, &k, &rest); c != 3 || !strings.Contains(item, "=") {
			return 0, fmt.Errorf("--replace: %q is not of the form I:J=K", item)
		}
		if i < 0 || i >= n || j < 0 || j >= n || k < 0 || k >= n {
			return 0, fmt.Errorf("--replace: %q names a node outside 0..%d", item, n-1)
		}
		vi := sets[i]
		switch {
		case i == j:
			return 0, fmt.Errorf("--replace: %q: a node's voting set always contains itself", item)
		case !vi.Has(model.NodeID(j)):
			return 0, fmt.Errorf("--replace: %q: n%d is not in n%d's voting set %v", item, j, i, vi)
		case vi.Has(model.NodeID(k)):
			return 0, fmt.Errorf("--replace: %q: n%d is already in n%d's voting set %v", item, k, i, vi)
		}
		sets[i] = vi.Remove(model.NodeID(j)).Add(model.NodeID(k))
	}
	return len(items), nil
}

// parseNodes parses "I[,I...]" into a set of node ids below n; empty means
// every node.
func parseNodes(param, text string, n int) (model.NodeSet, error) {
	if strings.TrimSpace(text) == "" {
		return model.FullSet(n), nil
	}
	var s model.NodeSet
	for _, item := range strings.Split(text, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || i < 0 || i >= n {
			return 0, fmt.Errorf("--%s: %q is not a node in 0..%d", param, item, n-1)
		}
		s = s.Add(model.NodeID(i))
	}
	return s, nil
}

// Spec is the registry entry for maekawa.
var Spec = &model.Spec{
	Name:    "maekawa",
	Summary: "Maekawa's √N voting algorithm over churning voting sets (seed 003 §III-B)",
	Params: []model.Param{
		model.IntParam("nodes", 4, 1, model.MaxNodes, "number of nodes, a square (1, 4, 9, 16): the voting sets come from a √N×√N grid"),
		model.IntParam("requests", 1, 0, 15, "CS requests per requesting node"),
		model.TextParam("requesters", "", "I[,I...]: the nodes that request the CS (default: every node)"),
		model.TextParam("replace", "", "I:J=K[,I:J=K...]: in node I's voting set, member J is replaced by K (applied in order)"),
		model.IntParam("churn", 0, 0, 255, "voting-set entries the adversary may remove while the protocol runs"),
		model.EnumParam("variant", "deadlock handling",
			model.Option{Name: string(Classic), Usage: "none"},
			model.Option{Name: string(YieldVariant), Usage: "INQUIRE/FAILED/YIELD, Maekawa 1985"},
			model.Option{Name: string(YieldLockOnly), Usage: "the textbook shortcut"},
			model.Option{Name: string(YieldFailDisplaced), Usage: "our repair"}),
		model.EnumParam("mutant", "deliberate bug",
			model.Option{Name: string(Faithful)}, model.Option{Name: string(VoteTwice)},
			model.Option{Name: string(YieldInCS)}, model.Option{Name: string(KeepVote)}),
	},
	Build: Build,
}

// Build compiles a configuration of maekawa.
func Build(a *model.Args) (model.System, error) {
	n := a.Int("nodes")
	sets, err := Grid(n)
	if err != nil {
		return nil, a.Errorf("nodes", "%v", err)
	}
	requesters, err := parseNodes("requesters", a.String("requesters"), n)
	if err != nil {
		return nil, err
	}
	if _, err := Replace(sets, a.String("replace")); err != nil {
		return nil, err
	}
	variant, mut := Variant(a.String("variant")), Mutant(a.String("mutant"))
	if mut == YieldInCS && variant == Classic {
		return nil, a.Errorf("mutant", "yield-in-cs needs --variant=yield")
	}
	cfg := model.Config{Nodes: n, Requests: a.Int("requests"), Members: sets, Budget: model.Budget{Removes: uint8(a.Int("churn"))}}
	return model.Compile(Protocol(variant, mut, requesters), cfg)
}
