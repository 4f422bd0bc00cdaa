package camera

import "github.com/mxcheck/mxcheck/model"

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
	p := model.Apply(&Protocol, Variants.Get(a.String("variant")), Mutants.Get(a.String("mutant")))
	if a.Bool("churn-keeps-mfp") {
		req := requesters(&cfg)
		if ok, i, j := MFP(members, req); !ok {
			return nil, a.Errorf("churn-keeps-mfp", "the initial lists already break the Mutual Friend Property (%v and %v share no node)", i, j)
		}
		keepMFP(p, req)
	}
	return model.Compile(p, cfg)
}

// keepMFP lets the adversary remove a membership entry only when the Mutual
// Friend Property still holds afterwards: the hypothesis of Corollary 5.1
// ("as long as MFP holds") imposed on churn.
func keepMFP(p *model.Protocol[Node, Msg], req model.NodeSet) {
	p.Assume = func(w *model.World[Node, Msg]) bool {
		lists := make([]model.NodeSet, len(w.Meta))
		for i := range w.Meta {
			lists[i] = w.Meta[i].Members
		}
		ok, _, _ := MFP(lists, req)
		return ok
	}
	notes := p.Notes
	p.Notes = func(c *model.Config) []string {
		return append(notes(c), "churn-keeps-mfp: the adversary only removes entries after which the Mutual Friend Property still holds")
	}
}
