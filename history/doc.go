// Package history checks lock histories for linearizability with porcupine
// (github.com/anishathalye/porcupine): histories recorded from running lock
// services (JSON Lines with Jepsen-style fields, written by Recorder) and
// the critical-section histories of model traces (FromTrace), against a
// sequential lock model: a mutex, a fenced mutex (tokens increase) or a
// semaphore of K permits.
//
// An operation is an interval from its invocation to its completion; a
// history is linearizable when every operation can be given one instant in
// its interval so that the instants, in order, are a legal run of the
// sequential model. Failed operations did not happen and are dropped;
// indeterminate ones ("info", or an invocation never completed) may or may
// not have happened, at any time after their invocation (porcupine issue
// #8): the model branches on both.
//
// Checking is NP-complete in general: every check takes a timeout, and a
// check that runs out of time says Unknown, never linearizable.
package history
