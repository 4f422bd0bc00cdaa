// Package reduce holds the state-space reductions explore can switch on.
//
// Symmetry reduction (symmetry.go): for systems whose nodes are
// interchangeable (model.Symmetric), each state is fingerprinted by a
// canonical key under node permutations, so a search keeps one state per
// orbit. Searches still expand the actual states they reach, so every trace
// is a real execution of the full model.
//
// Every reduction is cross-checked against the plain search in the tests of
// explore and of each spec: same verdicts, same shortest counterexample
// lengths.
package reduce
