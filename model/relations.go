package model

// Relation is one tie between a node and another node in a state, by kind
// (a link, a membership entry, a message in transit), naming neither node
// nor port: what symmetry reduction refines node orders with (see
// NodeRelations).
type Relation struct {
	Kind RelationKind
	Node NodeID // the other node
}

// RelationKind is the kind of a Relation.
type RelationKind uint8

// The relations a Machine reports.
const (
	RelLink    RelationKind = iota + 1 // a link from one of the node's ports
	RelMember                          // an entry of the node's membership list
	RelRemoved                         // an entry the adversary removed from it
	RelMsgTo                           // a message in transit from the node
	RelMsgFrom                         // a message in transit to the node
)

// NodeRelations is an optional capability of a Symmetric system: node i's
// relations to other nodes in s. Renaming the nodes of s by π must rename
// the related nodes of π(i)'s relations and change nothing else; then two
// nodes whose relations, by kind, go to differently placed nodes cannot be
// swapped, and symmetry reduction need not try swapping them.
type NodeRelations interface {
	AppendRelations(dst []Relation, s State, i NodeID) []Relation
}

// AppendRelations appends node i's links, membership entries (present and
// removed) and messages in transit, in no particular order.
func (m symMachine[N, M]) AppendRelations(dst []Relation, s State, i NodeID) []Relation {
	w := s.(*World[N, M])
	meta := &w.Meta[i]
	for q := 1; q <= m.cfg.Delta; q++ {
		if l := meta.Links[q]; l.Up() {
			dst = append(dst, Relation{RelLink, l.Node()})
		}
	}
	for _, j := range meta.Members.All() {
		dst = append(dst, Relation{RelMember, j})
	}
	for _, j := range meta.Removed.All() {
		dst = append(dst, Relation{RelRemoved, j})
	}
	for k := range w.Msgs {
		e := &w.Msgs[k]
		if e.From == i {
			dst = append(dst, Relation{RelMsgTo, e.To})
		}
		if e.To == i {
			dst = append(dst, Relation{RelMsgFrom, e.From})
		}
	}
	return dst
}

// PortLinker is an optional capability of a Symmetric system with port
// symmetry: which node a node's port links to. Once symmetry reduction has
// ordered the nodes, it keeps only the port renamings of each node that
// list its neighbours (by their new names) least, port by port, instead of
// trying every combination of the nodes' tied port renamings.
type PortLinker interface {
	// PortLink returns the node linked to node i's port q in s, if any.
	PortLink(s State, i NodeID, q Port) (NodeID, bool)
}

// PortLink returns the node at the other end of node i's port q.
func (m symMachine[N, M]) PortLink(s State, i NodeID, q Port) (NodeID, bool) {
	l := s.(*World[N, M]).Meta[i].Links[q]
	if !l.Up() {
		return 0, false
	}
	return l.Node(), true
}
