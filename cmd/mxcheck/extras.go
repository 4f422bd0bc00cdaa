package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// checkExtras are check's flags for minimisation and CS-history pictures.
type checkExtras struct {
	minimize    bool
	minStates   int
	historyHTML string
}

func (x *checkExtras) register(fs *pflag.FlagSet) {
	fs.BoolVar(&x.minimize, "minimize", false, "shrink each counterexample (greedy deletion, then a bounded BFS): for DFS traces")
	fs.IntVar(&x.minStates, "minimize-states", 0, "states the BFS of --minimize may explore (0: 1000000; -1: greedy deletion only)")
	fs.StringVar(&x.historyHTML, "history-html", "", "write porcupine's picture of the first counterexample's CS history to this file (HTML)")
}

// apply minimises res's violations (with --minimize, saying so on stderr)
// and writes the CS-history picture of the first one (--history-html).
func (x *checkExtras) apply(sys model.System, res *explore.Result, interrupt <-chan struct{}, stderr io.Writer) error {
	if x.minimize {
		for i, v := range res.Violations {
			if v.Kind == model.Eventually {
				continue
			}
			m, err := explore.MinimizeViolation(sys, v, explore.MinimizeOptions{States: x.minStates, Interrupt: interrupt})
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "mxcheck: %s: counterexample minimised from %d to %d steps (greedy deletion: %d; bounded BFS: %s)\n",
				v.Property, m.Original, m.Violation.Trace.Len(), m.Greedy, m.BFS)
			res.Violations[i] = m.Violation
		}
	}
	if x.historyHTML == "" {
		return nil
	}
	for _, v := range res.Violations {
		if v.Kind != model.Eventually {
			return writeHistoryHTML(x.historyHTML, sys, v.Trace, stderr)
		}
	}
	fmt.Fprintf(stderr, "mxcheck: --history-html %s: no safety counterexample, so nothing was written\n", x.historyHTML)
	return nil
}

// replayHistoryHTML writes the CS-history picture of the stored trace at
// tracePath (already replayed, so well-formed); notes go to note.
func replayHistoryHTML(path, tracePath string, note io.Writer) error {
	f, err := os.Open(tracePath)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	defer f.Close()
	t, err := explore.ReadITF(f)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	spec := specs.Lookup(t.Meta.Spec)
	if spec == nil {
		return fmt.Errorf("--history-html: unknown spec %q", t.Meta.Spec)
	}
	sys, _, err := spec.Compile(t.Meta.Params)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	states, steps, err := explore.ExecuteITF(sys, t)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	return writeStatesHTML(path, sys, states, steps, note)
}
