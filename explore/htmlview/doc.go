// Package htmlview renders a counterexample as one self-contained HTML page:
// a header (verdict, property, spec, parameters, the command that
// reproduces it), a space-time diagram in SVG (one lifeline per node and an
// adversary lane; message arrows from send to delivery, lost messages ending
// in a cross, messages still in transit dangling to the bottom, critical
// section bars, the violating step, a lasso's loop) and a step panel with
// each step's changes (the text renderer's diff), the full state, the
// messages in transit and the adjacency.
//
// Building a page is pure: FromITF, FromViolation, FromResult and
// FromStates turn a trace (or any path) and the system it belongs to into a
// Page (plain data); Arrows, Bars and Intervals derive the messages and
// critical-section intervals from consecutive states; Layout computes the
// diagram's geometry; Write renders the page with the embedded script and
// style. The page loads nothing from the network: its
// data sits in a <script type="application/json"> block.
//
// Any command that holds an explore.Violation (check, replay, a future
// simulate) renders it with FromViolation and Write.
package htmlview
