package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// badValues are values a declaration must refuse.
func badValues(p *model.Param) []string {
	switch p.Kind {
	case model.KindInt:
		return []string{strconv.Itoa(p.Min - 1), strconv.Itoa(p.Max + 1), "three", ""}
	case model.KindBool:
		return []string{"maybe"}
	case model.KindEnum:
		return []string{"bogus", strings.ToUpper(p.Options[0].Name) + "x"}
	case model.KindPairs:
		return []string{"99:0", "0-1", "a:b"}
	case model.KindTopology:
		return []string{"hexagon", "0.1-1"}
	}
	return nil
}

// TestBadParameterValues: for every spec and every declared parameter, each
// value outside its declaration is refused by the shared binding code with
// one line naming the flag, exit 2.
func TestBadParameterValues(t *testing.T) {
	n := 0
	for _, spec := range specs.All() {
		for i := range spec.Params {
			p := &spec.Params[i]
			for _, bad := range badValues(p) {
				code, out, errs := call("check", spec.Name, "--"+p.Name+"="+bad, "--max-states=1")
				if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--"+p.Name) {
					t.Errorf("%s --%s=%q: exit %d, stdout %q, stderr %q", spec.Name, p.Name, bad, code, out, errs)
				}
				n++
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d bad values tried", n)
	}
}

// TestParamDefaultsValid: every spec builds with its defaults, and every
// enum option of every parameter binds.
func TestParamDefaultsValid(t *testing.T) {
	for _, spec := range specs.All() {
		if _, _, err := spec.Compile(nil); err != nil {
			t.Errorf("%s: defaults do not build: %v", spec.Name, err)
		}
		for _, p := range spec.Params {
			for _, o := range p.Options {
				if _, err := spec.Bind(model.Values{p.Name: o.Name}); err != nil {
					t.Errorf("%s --%s=%s: %v", spec.Name, p.Name, o.Name, err)
				}
			}
		}
	}
}
