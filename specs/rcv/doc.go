// Package rcv is Relative Consensus Voting (seed 004), a mutual exclusion
// algorithm in which a requester's Request Message roams the network.
package rcv
