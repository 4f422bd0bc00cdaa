// Package counterexamples holds the stored minimal traces of known
// violations, one directory per spec, as ITF JSON written by
// `mxcheck check --trace-out` or by the specs' tests (make golden). Its test
// replays every file against the current code.
package counterexamples
