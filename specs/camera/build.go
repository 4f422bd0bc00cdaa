package camera

import "github.com/mxcheck/mxcheck/model"

// keepMFP is a Machine whose adversary may only remove a membership entry
// when the Mutual Friend Property still holds afterwards: the hypothesis of
// Corollary 5.1 ("as long as MFP holds") imposed on churn.
type keepMFP struct {
	*model.Machine[Node, Msg]
	req model.NodeSet
}

// Successors is the machine's, less the removals that break MFP.
func (k keepMFP) Successors(s model.State, yield func(model.Transition, model.State) bool) {
	k.Machine.Successors(s, func(t model.Transition, next model.State) bool {
		if t.Kind == model.AdversaryStep && t.Action == model.MoveRemove {
			w := next.(*model.World[Node, Msg])
			ls := make([]model.NodeSet, len(w.Meta))
			for i := range w.Meta {
				ls[i] = w.Meta[i].Members
			}
			if ok, _, _ := MFP(ls, k.req); !ok {
				return true
			}
		}
		return yield(t, next)
	})
}

// Notes adds the restriction to the machine's notes.
func (k keepMFP) Notes() []string {
	return append(k.Machine.Notes(), "churn-keeps-mfp: the adversary only removes entries after which the Mutual Friend Property still holds")
}

// Spec is the registry entry for camera.
var Spec = &model.Spec{
	Name:    "camera",
	Summary: "Camera, churn-tolerant Ricart–Agrawala, fast path (seed 003 Algorithm 1)",
	Params: []model.Param{
		model.NodesParam(3),
		model.RequestsParam(1),
		model.MissingParam(),
		model.ChurnParam(),
		model.BoolParam("churn-keeps-mfp", false, "the adversary only removes entries after which the Mutual Friend Property still holds"),
		Variants.Param("variant", "algorithm version"),
		Mutants.Param("mutant", "deliberate bug"),
	},
	Build: Build,
}

// Build compiles a configuration of camera.
func Build(a *model.Args) (model.System, error) {
	n, r := a.Int("nodes"), a.Int("requests")
	if n*r > MaxReqs {
		return nil, a.Errorf("requests", "nodes × requests must be at most %d (the recentlyOKed bound), got %d×%d", MaxReqs, n, r)
	}
	members := a.Members("missing")
	cfg := model.Config{Nodes: n, Requests: r, Members: members, Budget: model.Budget{Removes: uint8(a.Int("churn"))}}
	m, err := model.Compile(model.Apply(&Protocol, Variants.Get(a.String("variant")), Mutants.Get(a.String("mutant"))), cfg)
	if err != nil {
		return nil, err
	}
	if a.Bool("churn-keeps-mfp") {
		if ok, i, j := MFP(members, requesters(&cfg)); !ok {
			return nil, a.Errorf("churn-keeps-mfp", "the initial lists already break the Mutual Friend Property (%v and %v share no node)", i, j)
		}
		return keepMFP{m, requesters(&cfg)}, nil
	}
	return m, nil
}
