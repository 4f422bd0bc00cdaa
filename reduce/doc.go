// Package reduce holds the state-space reductions explore can switch on.
//
// Symmetry reduction (symmetry.go): for systems whose nodes are
// interchangeable (model.Symmetric), each state is fingerprinted by a
// canonical key under node permutations, so a search keeps one state per
// orbit. Searches still expand the actual states they reach, so every trace
// is a real execution of the full model.
//
// Partial-order reduction: explore/por.go computes ample sets; this package
// checks what they rest on (independence.go: CheckIndependence verifies, on
// a full search, that every step a spec declares independent commutes with
// every other step of its node). CheckSymmetry (checksym.go) verifies a
// declared symmetry: renaming a state and its successors gives the
// successors of the renamed state.
//
// Every reduction is cross-checked against the plain search in the tests of
// explore and of each spec: same verdicts, same shortest counterexample
// lengths.
package reduce
