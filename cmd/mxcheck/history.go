package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/history"
	"github.com/mxcheck/mxcheck/model"
)

func numCPU() int { return runtime.NumCPU() }

const historyHead = `usage: mxcheck history FILE [flags]

Checks a lock history recorded from a running system (JSON Lines, one event
a line: {"process": 1, "type": "invoke|ok|fail|info", "f": "acquire|release",
"key": "k", "time": NANOSECONDS, "token": N}) for linearizability against a
sequential lock, with porcupine. Exit 0 linearizable, 1 not, 2 bad input,
3 undecided within --timeout.`

func cmdHistory(args []string, stdout, stderr io.Writer) (int, error) {
	fs := pflag.NewFlagSet("history", pflag.ContinueOnError)
	modelName := fs.String("model", "mutex", "sequential model: mutex, fenced-mutex (acquire tokens increase) or semaphore=K")
	by := fs.String("by", "", `"key": one lock per key (default: one lock for the whole history)`)
	skew := fs.Duration("clock-skew", 0, "widen every operation by this much on both sides (can hide violations, never invent them)")
	html := fs.String("html", "", "write porcupine's picture of the history to this file (HTML)")
	timeout := fs.Duration("timeout", time.Minute, "give up (exit 3) after this long")
	if help, err := parse(fs, args, stdout, historyHead); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		return exitUsage, usagef("history needs exactly one history file")
	}
	m, err := history.ParseModel(*modelName)
	if err != nil {
		return exitUsage, usagef("--model: %v", err)
	}
	if *by != "" && *by != "key" {
		return exitUsage, usagef(`--by: only "key" is supported, got %q`, *by)
	}
	if *timeout <= 0 {
		return exitUsage, usagef("--timeout must be positive")
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return exitUsage, usagef("history %s: cannot open the file", path)
	}
	events, err := history.ReadJSONL(f)
	f.Close()
	if err != nil {
		return exitUsage, usagef("history %s: %v", path, err)
	}
	ops, err := history.Operations(events, *skew)
	if err != nil {
		return exitUsage, usagef("history %s: %v", path, err)
	}
	if m.Kind == "fenced-mutex" {
		for _, op := range ops {
			in := op.Input.(history.Input)
			if in.F == history.Acquire && !in.HasToken && !op.Output.(history.Output).Indeterminate {
				return exitUsage, usagef("history %s: --model fenced-mutex: process %s's acquire at time %d returned no token", path, in.Process, op.Call+int64(*skew))
			}
		}
	}
	res := history.Check(ops, m, *by == "key", *timeout)
	if *html != "" && res.Verdict != history.Unknown {
		if err := writeHTML(*html, "--html", res); err != nil {
			return exitUsage, err
		}
	}
	if _, err := fmt.Fprintf(stdout, "%s: %d events, %d operations checked against %s: %s\n", path, len(events), res.Ops, m, res.Verdict); err != nil {
		return exitUsage, err
	}
	switch res.Verdict {
	case history.NotLinearizable:
		return exitViolated, nil
	case history.Unknown:
		if *html != "" {
			fmt.Fprintf(stderr, "mxcheck: --html %s: undecided, so no picture was written\n", *html)
		}
		return exitIncomplete, nil
	}
	return exitOK, nil
}

// writeHTML writes porcupine's picture of a checked history.
func writeHTML(path, flag string, res *history.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	err = res.WriteHTML(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return nil
}

// writeHistoryHTML re-executes trace t and writes porcupine's picture of its
// CS history, adversary moves as annotations.
func writeHistoryHTML(path string, sys model.System, t explore.Trace, note io.Writer) error {
	states, steps, err := explore.Execute(sys, t)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	return writeStatesHTML(path, sys, states, steps, note)
}

// writeStatesHTML writes the CS-history picture of a re-executed trace. When
// porcupine cannot decide the history in time (incomplete) it says so on
// note and writes nothing.
func writeStatesHTML(path string, sys model.System, states []model.State, steps []model.Transition, note io.Writer) error {
	res, err := history.CheckTrace(sys, states, steps, history.DefaultTimeout)
	if err != nil {
		return fmt.Errorf("--history-html: %v", err)
	}
	if res.Verdict == history.Unknown {
		_, err := fmt.Fprintf(note, "mxcheck: --history-html %s: porcupine could not decide the CS history within %v (incomplete), so no picture was written\n", path, history.DefaultTimeout)
		return err
	}
	return writeHTML(path, "--history-html", res)
}
