package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/model"
)

// paramValue is a spec parameter as a pflag value: it keeps the text, and
// Spec.Bind checks it against the declaration (one error line for every
// spec, whatever the parameter's type).
type paramValue struct {
	p   *model.Param
	val string
}

func (v *paramValue) String() string { return v.val }

func (v *paramValue) Set(s string) error { v.val = s; return nil }

func (v *paramValue) Type() string {
	switch v.p.Kind {
	case model.KindInt:
		return "int"
	case model.KindBool:
		return "bool"
	case model.KindPairs:
		return "I:J,..."
	case model.KindTopology:
		return "topology"
	}
	return "string"
}

// specFlags registers a flag per parameter of spec and returns a function
// that collects the values given on the command line (defaults are filled
// in by Spec.Bind).
func specFlags(fs *pflag.FlagSet, spec *model.Spec) (func() model.Values, error) {
	for i := range spec.Params {
		p := &spec.Params[i]
		if fs.Lookup(p.Name) != nil {
			return nil, fmt.Errorf("spec %s: parameter --%s clashes with a checker flag", spec.Name, p.Name)
		}
		f := fs.VarPF(&paramValue{p: p, val: p.Default}, p.Name, "", p.Help())
		if p.Kind == model.KindBool {
			f.NoOptDefVal = "true"
		}
	}
	return func() model.Values {
		v := model.Values{}
		fs.Visit(func(f *pflag.Flag) {
			if pv, ok := f.Value.(*paramValue); ok {
				v[f.Name] = pv.val
			}
		})
		return v
	}, nil
}
