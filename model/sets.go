package model

import (
	"math/bits"
	"strconv"
	"strings"
)

// MaxNodes is the largest number of nodes a configuration may have.
const MaxNodes = 16

// MaxPorts is the number of port slots per node: port 0 (self) and ports
// 1..MaxPorts-1, so Δ ≤ MaxPorts-1.
const MaxPorts = 8

// NodeID names a node: 0..N-1. Traces print it as n0, n1, ...
type NodeID uint8

// String renders the id as "n<i>".
func (id NodeID) String() string { return "n" + strconv.Itoa(int(id)) }

// NodeSet is a set of node ids as a bitset. The zero value is empty.
type NodeSet uint16

// Has reports whether id is in the set.
func (s NodeSet) Has(id NodeID) bool { return s&(1<<id) != 0 }

// Add returns the set with id added.
func (s NodeSet) Add(id NodeID) NodeSet { return s | 1<<id }

// Remove returns the set with id removed.
func (s NodeSet) Remove(id NodeID) NodeSet { return s &^ (1 << id) }

// Len is the number of members.
func (s NodeSet) Len() int { return bits.OnesCount16(uint16(s)) }

// Empty reports whether the set has no member.
func (s NodeSet) Empty() bool { return s == 0 }

// All returns the members in increasing order.
func (s NodeSet) All() []NodeID {
	out := make([]NodeID, 0, MaxNodes) // constant size: stays on the caller's stack when inlined
	for x := uint16(s); x != 0; x &= x - 1 {
		out = append(out, NodeID(bits.TrailingZeros16(x)))
	}
	return out
}

// FullSet is the set {0, ..., n-1}.
func FullSet(n int) NodeSet { return NodeSet(uint16(1)<<n - 1) }

// String renders the set as "{n0,n2}".
func (s NodeSet) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range s.All() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(id.String())
	}
	b.WriteByte('}')
	return b.String()
}

// Port is a port number of a node: 0 is the self-port, 1..Δ lead to
// neighbours.
type Port uint8

// Ports is a set of ports as a bitset over 0..MaxPorts-1. The zero value is
// empty.
type Ports uint8

// Has reports whether p is in the set.
func (s Ports) Has(p Port) bool { return s&(1<<p) != 0 }

// Add returns the set with p added.
func (s Ports) Add(p Port) Ports { return s | 1<<p }

// Remove returns the set with p removed.
func (s Ports) Remove(p Port) Ports { return s &^ (1 << p) }

// Len is the number of ports in the set.
func (s Ports) Len() int { return bits.OnesCount8(uint8(s)) }

// Empty reports whether the set has no port.
func (s Ports) Empty() bool { return s == 0 }

// Rename returns the set with every port p replaced by perm[p].
func (s Ports) Rename(perm *[MaxPorts]Port) Ports {
	var out Ports
	for x := uint8(s); x != 0; x &= x - 1 {
		out |= 1 << perm[bits.TrailingZeros8(x)]
	}
	return out
}

// All returns the ports in increasing order.
func (s Ports) All() []Port {
	out := make([]Port, 0, MaxPorts) // constant size: stays on the caller's stack when inlined
	for x := uint8(s); x != 0; x &= x - 1 {
		out = append(out, Port(bits.TrailingZeros8(x)))
	}
	return out
}

// String renders the set as "{0,2}".
func (s Ports) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range s.All() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(p)))
	}
	b.WriteByte('}')
	return b.String()
}
