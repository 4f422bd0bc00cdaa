package explore

import "github.com/mxcheck/mxcheck/model"

// isProgress reports whether step t, from the state whose key is self to the
// state whose key is next, counts as progress for deadlock detection: a node
// or environment step that changes the state. Stutters and adversary moves
// do not; a state with pending work and no progress step is a deadlock. The
// BFS/DFS, replay and simulation all decide deadlock with it.
func isProgress(t model.Transition, self, next []byte) bool {
	return t.Kind != model.AdversaryStep && string(next) != string(self)
}
