// Package specs is the registry of every protocol mxcheck knows.
package specs

import (
	"sort"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/akw"
	"github.com/mxcheck/mxcheck/specs/akw2"
	"github.com/mxcheck/mxcheck/specs/camera"
	"github.com/mxcheck/mxcheck/specs/lkcs"
	"github.com/mxcheck/mxcheck/specs/lme"
	"github.com/mxcheck/mxcheck/specs/lmutin"
	"github.com/mxcheck/mxcheck/specs/maekawa"
	"github.com/mxcheck/mxcheck/specs/ra"
	"github.com/mxcheck/mxcheck/specs/rcv"
	"github.com/mxcheck/mxcheck/specs/tokenlock"
)

// All returns every spec, sorted by name.
func All() []*model.Spec {
	all := []*model.Spec{akw.Spec, akw2.Spec, camera.Spec, lkcs.Spec, lme.Spec, lmutin.Spec, maekawa.Spec, ra.Spec, rcv.Spec, tokenlock.Spec}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Lookup returns the spec called name, or nil.
func Lookup(name string) *model.Spec {
	for _, s := range All() {
		if s.Name == name {
			return s
		}
	}
	return nil
}
