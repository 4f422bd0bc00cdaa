package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/specs"
)

// extraCommands are the commands beyond list, check, replay and suite, by
// name (dispatch falls through to them).
var extraCommands = map[string]func(args []string, stdout, stderr io.Writer) (int, error){
	"simulate":     cmdSimulate,
	"history":      cmdHistory,
	"swarm":        cmdSwarm,       // swarm.go
	"swarm-report": cmdSwarmReport, // swarm_report.go
	"worker":       cmdWorker,      // dist.go
}

// simFlags are simulate's own flags.
type simFlags struct {
	runs        int
	depth       int
	seed        string
	workers     int
	timeout     time.Duration
	noDeadlock  bool
	properties  []string
	minStates   int
	traceOut    string
	historyHTML string
	html        string
	json        bool
	quiet       bool
}

func (f *simFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.runs, "runs", 1000, "random walks to run (0: until --timeout)")
	fs.IntVar(&f.depth, "depth", 1000, "steps per walk at most")
	fs.StringVar(&f.seed, "seed", "1", "seed (an unsigned 64-bit integer); a violating run prints the seed that repeats it with --runs 1")
	fs.IntVar(&f.workers, "workers", 1, "goroutines running walks (0: one per core); the result does not depend on it")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop after this long, e.g. 5m (0: no limit)")
	fs.BoolVar(&f.noDeadlock, "no-deadlock", false, "do not check deadlock freedom")
	fs.StringSliceVar(&f.properties, "property", nil, "check only these properties (comma-separated names; default all): walks run past the others")
	fs.IntVar(&f.minStates, "minimize-states", 0, "states the BFS of minimisation may explore (0: 1000000; -1: greedy deletion only)")
	fs.StringVar(&f.traceOut, "trace-out", "", "write the minimised counterexample to this file (ITF JSON, for replay)")
	fs.StringVar(&f.historyHTML, "history-html", "", "write porcupine's picture of the counterexample's CS history to this file (HTML)")
	fs.StringVar(&f.html, "html", "", "write the minimised counterexample as one self-contained HTML page to this file")
	fs.BoolVar(&f.json, "json", false, "print the full result as JSON")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
}

func cmdSimulate(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return exitUsage, usagef("simulate needs a spec name: mxcheck simulate SPEC [flags] (see mxcheck list)")
	}
	if args[0] == "-h" || args[0] == "--help" {
		fs := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
		new(simFlags).register(fs)
		fmt.Fprintf(stdout, "usage: mxcheck simulate SPEC [flags]\n\nRandom walks for configurations too big to exhaust. Exit 0 means no violation\nwas found in the runs (nothing is proven), 1 a violation (minimised), 3 a limit\nstopped the runs first. Each sometimes property is reported with the number of\nruns that reached it and the fewest steps; those no run reached are listed.\n\nspecs: %s (mxcheck list shows their flags)\n\nflags:\n%s", specNames(), fs.FlagUsages())
		return exitOK, nil
	}
	spec := specs.Lookup(args[0])
	if spec == nil {
		return exitUsage, usagef("unknown spec %q (known: %s)", args[0], specNames())
	}
	fs := pflag.NewFlagSet("simulate "+spec.Name, pflag.ContinueOnError)
	var sf simFlags
	sf.register(fs)
	given, err := specFlags(fs, spec)
	if err != nil {
		return exitUsage, err
	}
	if help, err := parse(fs, args[1:], stdout, "usage: mxcheck simulate "+spec.Name+" [flags]\n\n"+spec.Summary); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() > 0 {
		return exitUsage, usagef("unexpected argument %q", fs.Arg(0))
	}
	opt, err := sf.options()
	if err != nil {
		return exitUsage, err
	}
	sys, bound, err := spec.Compile(given())
	if err != nil {
		return exitUsage, usageError{err.Error()}
	}
	values := bound.Values()
	if !sf.quiet && isTerminal(stderr) {
		opt.Progress = stderr
	}
	stop, release := interruptOnSignal(stderr)
	defer release()
	opt.Interrupt = stop
	res, err := explore.Simulate(sys, opt)
	if err != nil {
		return exitUsage, usageError{err.Error()}
	}
	if res.Violation != nil {
		if sf.traceOut != "" {
			if err := writeITF(sf.traceOut, "--trace-out", explore.NewITF(spec.Name, values, res.Violation.Violation)); err != nil {
				return exitUsage, err
			}
		}
		if sf.historyHTML != "" {
			if err := writeHistoryHTML(sf.historyHTML, sys, res.Violation.Violation.Trace, stderr); err != nil {
				return exitUsage, err
			}
		}
		if sf.html != "" {
			page := &explore.Result{Verdict: explore.Violated, Strategy: "simulate", Violations: []explore.Violation{res.Violation.Violation}}
			if err := writeResultHTMLFile(sf.html, sys, spec.Name, values, page, commandLine(append([]string{"mxcheck", "simulate"}, withoutFlag(args, "html")...)), historyLink(sf.html, sf.historyHTML)); err != nil {
				return exitUsage, err
			}
		}
	} else {
		for _, p := range []string{sf.traceOut, sf.historyHTML, sf.html} {
			if p != "" {
				fmt.Fprintf(stderr, "mxcheck: %s: no violation, so nothing was written\n", p)
			}
		}
	}
	if sf.json {
		err = explore.WriteSimJSON(stdout, res)
	} else {
		runs := strconv.Itoa(sf.runs)
		if sf.runs == 0 {
			runs = "unbounded"
		}
		header := fmt.Sprintf("simulating %s %s (runs %s, depth %d, seed %d, %d workers)", spec.Name, strings.Join(values.Flags(nil), " "), runs, opt.Depth, opt.Seed, opt.Workers)
		if _, err = fmt.Fprintln(stdout, header); err == nil {
			err = explore.WriteSimText(stdout, res)
		}
	}
	if err != nil {
		return exitUsage, err
	}
	switch res.Outcome {
	case explore.SimViolated:
		return exitViolated, nil
	case explore.SimIncomplete:
		return exitIncomplete, nil
	}
	return exitOK, nil
}

// options checks the flags and turns them into simulation options.
func (f *simFlags) options() (explore.SimOptions, error) {
	seed, err := strconv.ParseUint(strings.TrimSpace(f.seed), 0, 64)
	if err != nil {
		return explore.SimOptions{}, usagef("--seed: %q is not an unsigned 64-bit integer", f.seed)
	}
	switch {
	case f.runs < 0:
		return explore.SimOptions{}, usagef("--runs must not be negative")
	case f.runs == 0 && f.timeout == 0:
		return explore.SimOptions{}, usagef("--runs 0 (until the time limit) needs --timeout")
	case f.depth < 1:
		return explore.SimOptions{}, usagef("--depth must be at least 1")
	case f.workers < 0:
		return explore.SimOptions{}, usagef("--workers must not be negative")
	case f.timeout < 0:
		return explore.SimOptions{}, usagef("--timeout must not be negative")
	}
	opt := explore.SimOptions{Runs: f.runs, Depth: f.depth, Seed: seed, Workers: f.workers, Timeout: f.timeout, NoDeadlock: f.noDeadlock, Properties: f.properties, MinimizeStates: f.minStates}
	if f.runs == 0 {
		opt.Runs = -1
	}
	if f.workers == 0 {
		opt.Workers = numCPU()
	}
	return opt, nil
}

// writeITF writes trace t to path; flag names the flag for errors.
func writeITF(path, flag string, t *explore.ITFTrace) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	err = t.Write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", flag, path, err)
	}
	return nil
}
