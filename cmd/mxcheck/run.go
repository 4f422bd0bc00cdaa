package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// Exit codes.
const (
	exitOK         = 0
	exitViolated   = 1
	exitUsage      = 2
	exitIncomplete = 3
	exitUnreached  = 4
)

const usage = `mxcheck: a model checker for mutual exclusion over dynamic message passing

usage:
  mxcheck list                  list the specs and their flags
  mxcheck check SPEC [flags]    explore every behaviour of one configuration
  mxcheck simulate SPEC [flags] random walks, violations minimised (too big to exhaust)
  mxcheck replay FILE           re-run a stored counterexample (ITF JSON)
  mxcheck history FILE          check a recorded lock history (JSON Lines) with porcupine
  mxcheck suite FILE            run rows "SPEC FLAGS... => VERDICT", print one table
  mxcheck serve [DIR]           browse stored traces (and --spec: explore one) in a browser
  mxcheck swarm SPEC --index I --of N --out DIR [flags]
                                member I of N diversified DFS runs, no coordination (finds bugs, proves nothing)
  mxcheck swarm-report DIR      merge a swarm's member files: violations found, shortest traces
  mxcheck worker --nats URL     serve a distributed search (check SPEC --distributed --workers N ...)
  mxcheck COMMAND --help        flags of a command

exit codes: 0 verified / reproduced, 1 violated / not reproduced,
            2 bad usage or input, 3 incomplete (a limit stopped the search),
            4 unreached (check: the search finished, nothing is violated,
              but a sometimes property holds in no reachable state, e.g.
              "some node enters the CS" with --requests 0)
output files (--trace-out, --trace-out-all, --dot-out) are created before
the search (exit 2 if they cannot be); a write that fails after it is
reported on stderr, the result is still printed and the exit code is the
verdict's
`

// usageError is bad input: one line on stderr, exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// run is the whole command line: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	code, err := dispatch(args, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mxcheck: %v\n", err)
		return exitUsage
	}
	return code
}

func dispatch(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return exitUsage, nil
	}
	switch args[0] {
	case "-h", "--help", "help":
		_, err := io.WriteString(stdout, usage)
		return exitOK, err
	case "list":
		return cmdList(args[1:], stdout)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "replay":
		return cmdReplay(args[1:], stdout)
	case "suite":
		return cmdSuite(args[1:], stdout)
	case "serve":
		return cmdServe(args[1:], stdout)
	}
	if cmd := extraCommands[args[0]]; cmd != nil {
		return cmd(args[1:], stdout, stderr)
	}
	return exitUsage, usagef("unknown command %q (want list, check, simulate, replay, suite, serve, history, swarm, swarm-report or worker; see mxcheck --help)", args[0])
}

// parse parses fs, turning pflag's errors into one-line usage errors. It
// reports help=true when --help was asked for (usage is then printed).
func parse(fs *pflag.FlagSet, args []string, stdout io.Writer, head string) (help bool, err error) {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(stdout, "%s\n\nflags:\n%s", head, fs.FlagUsages())
			return true, nil
		}
		return false, usageError{err.Error()}
	}
	return false, nil
}

func cmdList(args []string, stdout io.Writer) (int, error) {
	fs := pflag.NewFlagSet("list", pflag.ContinueOnError)
	if help, err := parse(fs, args, stdout, "usage: mxcheck list"); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() > 0 {
		return exitUsage, usagef("list takes no arguments")
	}
	var b strings.Builder
	all := specs.All()
	nameW, flagW := 0, 0
	for _, s := range all {
		nameW = max(nameW, len(s.Name))
		for _, p := range s.Params {
			flagW = max(flagW, len(p.Name)+2)
		}
	}
	for _, s := range all {
		fmt.Fprintf(&b, "%-*s  %s\n", nameW, s.Name, s.Summary)
		for _, p := range s.Params {
			def := p.Default
			if def == "" {
				def = `""`
			}
			fmt.Fprintf(&b, "    %-*s  %s (default %s)\n", flagW, "--"+p.Name, p.Help(), def)
		}
	}
	_, err := io.WriteString(stdout, b.String())
	return exitOK, err
}

// checkFlags are the flags every spec shares.
type checkFlags struct {
	strategy    string
	maxStates   int
	maxDepth    int
	timeout     time.Duration
	memory      int
	noDeadlock  bool
	cont        bool
	json        bool
	traceOut    string
	traceOutAll string
	dotOut      string
	quiet       bool
	por         bool
	symmetry    bool
	liveness    bool
	choices     string
	workers     int
	fingerprint int
	levels      int
	html        string
	extra       checkExtras // simulate.go's additions: --minimize, --history-html
	dist        distFlags   // dist.go's: --distributed, --listen, --nats
}

func (f *checkFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.strategy, "strategy", "bfs", "search order: bfs (shortest counterexamples) or dfs")
	fs.IntVar(&f.maxStates, "max-states", 0, "stop after this many distinct states (0: no limit)")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "do not expand states at this depth (0: no limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop after this long, e.g. 30s or 10m (0: no limit)")
	fs.IntVar(&f.memory, "memory", 0, "stop when the heap exceeds this many MiB (0: no limit)")
	fs.BoolVar(&f.noDeadlock, "no-deadlock", false, "do not check deadlock freedom")
	fs.BoolVar(&f.cont, "continue", false, "keep searching after a violation to check every property")
	fs.BoolVar(&f.json, "json", false, "print the full result as JSON")
	fs.StringVar(&f.traceOut, "trace-out", "", "write the counterexample to this file (ITF JSON, for replay)")
	fs.StringVar(&f.traceOutAll, "trace-out-all", "", "write every violation (and sometimes witness) found to this directory, one PROPERTY.itf.json each")
	fs.StringVar(&f.dotOut, "dot-out", "", "write the graph behind a violated graph invariant to this file (DOT)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	fs.BoolVar(&f.por, "por", false, "partial-order reduction")
	fs.BoolVar(&f.symmetry, "symmetry", false, "symmetry reduction; on by default where the spec's nodes are interchangeable (--symmetry=false: off)")
	fs.BoolVar(&f.liveness, "liveness", false, "also check lockout/starvation freedom (fair cycles)")
	fs.IntVar(&f.workers, "workers", 0, "goroutines of the search, each owning a share of the states (0: one per core, 1 with --por; at most 256); counts, verdicts and BFS traces are identical whatever the number")
	fs.IntVar(&f.fingerprint, "fingerprint", 64, "bits per state fingerprint: 64, or 128 for runs of 10^8 states and more (the summary prints the collision estimate)")
	fs.IntVar(&f.levels, "level-states", 0, "BFS: states of a level kept in memory, the rest in a temporary file (0: 4194304; -1: all in memory)")
	fs.StringVar(&f.html, "html", "", "write the counterexample (or the verdict) as one self-contained HTML page to this file")
	fs.StringVar(&f.choices, "choices", "probabilistic", "random choices in liveness: probabilistic (holds with probability 1) or adversarial")
	f.extra.register(fs)
	f.dist.register(fs)
}

// options turns the shared flags into search options.
func (f *checkFlags) options() (explore.Options, error) {
	opt := explore.Options{
		MaxStates:  f.maxStates,
		MaxDepth:   f.maxDepth,
		Timeout:    f.timeout,
		MemoryMB:   f.memory,
		NoDeadlock: f.noDeadlock,
		Continue:   f.cont,
		POR:        f.por,
		Symmetry:   f.symmetry,
		Liveness:   f.liveness,
		Workers:    f.workers,
	}
	opt.LevelInMemory = f.levels
	if f.fingerprint != 64 && f.fingerprint != 128 {
		return opt, usagef("--fingerprint: want 64 or 128 bits, got %d", f.fingerprint)
	}
	opt.Fingerprint = f.fingerprint
	if f.workers == 0 {
		opt.Workers = min(runtime.NumCPU(), explore.MaxWorkers)
		if f.por || f.strategy == "dfs" {
			opt.Workers = 1 // partial-order reduction runs sequentially
		}
	}
	switch f.strategy {
	case "bfs":
	case "dfs":
		opt.Strategy = explore.DFS
	default:
		return opt, usagef("--strategy: unknown strategy %q (want bfs or dfs)", f.strategy)
	}
	switch f.choices {
	case "probabilistic":
	case "adversarial":
		if !f.liveness {
			return opt, usagef("--choices adversarial applies to the liveness check: add --liveness")
		}
		opt.Choices = explore.Adversarial
	default:
		return opt, usagef("--choices: unknown mode %q (want probabilistic or adversarial)", f.choices)
	}
	return opt, nil
}

// preparedCheck is a check command line, parsed: the spec, its system and
// parameters, the flags and the search options they give.
type preparedCheck struct {
	args   []string
	spec   *model.Spec
	sys    model.System
	values model.Values
	cf     checkFlags
	ckf    checkpointFlags
	opt    explore.Options
}

// prepareCheck parses a check command line (SPEC [flags]) and compiles the
// spec; help reports that --help was asked for (and printed).
func prepareCheck(args []string, stdout io.Writer) (p *preparedCheck, help bool, err error) {
	spec := lookupSpec(args[0])
	if spec == nil {
		return nil, false, usagef("unknown spec %q (known: %s)", args[0], specNames())
	}
	fs := pflag.NewFlagSet("check "+spec.Name, pflag.ContinueOnError)
	p = &preparedCheck{args: args, spec: spec}
	p.cf.register(fs)
	p.ckf.register(fs) // checkpoint.go
	given, err := specFlags(fs, spec)
	if err != nil {
		return nil, false, err
	}
	if help, err := parse(fs, args[1:], stdout, "usage: mxcheck check "+spec.Name+" [flags]\n\n"+spec.Summary); help || err != nil {
		return nil, help, err
	}
	if fs.NArg() > 0 {
		return nil, false, usagef("unexpected argument %q", fs.Arg(0))
	}
	sys, bound, err := spec.Compile(given())
	if err != nil {
		return nil, false, usageError{err.Error()}
	}
	p.sys, p.values = sys, bound.Values()
	if p.opt, err = p.cf.options(); err != nil {
		return nil, false, err
	}
	p.opt.Symmetry = symmetryFor(sys, p.cf.symmetry, fs.Changed("symmetry"))
	if err := p.ckf.apply(&p.opt, spec.Name, p.values); err != nil {
		return nil, false, err
	}
	return p, false, p.cf.dist.validate(fs, &p.cf)
}

func cmdCheck(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return exitUsage, usagef("check needs a spec name: mxcheck check SPEC [flags] (see mxcheck list)")
	}
	if args[0] == "-h" || args[0] == "--help" {
		fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
		new(checkFlags).register(fs)
		new(checkpointFlags).register(fs)
		fmt.Fprintf(stdout, "usage: mxcheck check SPEC [flags]\n\nspecs: %s (mxcheck list shows their flags)\n\nflags:\n%s", specNames(), fs.FlagUsages())
		return exitOK, nil
	}
	p, help, err := prepareCheck(args, stdout)
	if help || err != nil {
		return exitOK, err
	}
	spec, sys, values, cf, opt, ckf := p.spec, p.sys, p.values, p.cf, p.opt, p.ckf
	if !cf.quiet && isTerminal(stderr) {
		opt.Progress = stderr
	}
	stop, release := interruptOnSignal(stderr)
	defer release()
	opt.Interrupt = stop
	if cf.dist.on() {
		cl, closeCluster, err := cf.dist.start(p, stop, stderr)
		if err != nil {
			return exitUsage, err
		}
		defer closeCluster()
		opt.Cluster = cl
	}
	chk, err := explore.New(sys, opt)
	if err != nil {
		return exitUsage, usageError{err.Error()}
	}
	header := fmt.Sprintf("checking %s %s (%s)", spec.Name, strings.Join(values.Flags(nil), " "), describeSearch(opt))
	if n, ok := sys.(model.Noter); ok {
		for _, line := range n.Notes() {
			header += "\nnote: " + line
		}
	}
	outs, err := openOutputs(cf)
	if err != nil {
		return exitUsage, err
	}
	res, err := chk.Check()
	if err != nil {
		outs.discard()
		return reportPanic(stderr, spec.Name, err)
	}
	res.Spec, res.Params = spec.Name, values
	// Minimisation and pictures come after the verdict: their failures go
	// to stderr and never hide the result.
	extraErr := cf.extra.apply(sys, res, stop, stderr)
	if cf.json {
		err = explore.WriteJSON(stdout, res)
	} else {
		if _, err = fmt.Fprintln(stdout, header); err == nil {
			err = explore.WriteText(stdout, res)
		}
	}
	// The result is out; an output file that cannot be written now is
	// reported on stderr and the exit code still follows the verdict.
	outs.finish(spec, values, res, stderr)
	if extraErr != nil {
		fmt.Fprintf(stderr, "mxcheck: %v\n", extraErr)
	}
	ckf.report(stderr, spec.Name, args, res)
	if outs.html != nil {
		cmd := commandLine(append([]string{"mxcheck", "check"}, withoutFlag(args, "html")...))
		link := ""
		if extraErr == nil {
			link = historyLink(cf.html, cf.extra.historyHTML)
		}
		if herr := outs.html.commit(func(w io.Writer) error { return writeResultHTML(w, sys, spec.Name, values, res, cmd, link) }); herr != nil {
			fmt.Fprintf(stderr, "mxcheck: %v\n", herr)
		}
	}
	if err != nil {
		return exitUsage, err
	}
	return verdictExit(res.Verdict), nil
}

// verdictExit is check's exit code for a verdict.
func verdictExit(v explore.Verdict) int {
	switch v {
	case explore.Violated:
		return exitViolated
	case explore.Incomplete:
		return exitIncomplete
	case explore.Unreached:
		return exitUnreached
	}
	return exitOK
}

// symmetryFor decides symmetry reduction: unless asked explicitly, on where
// the system declares interchangeable nodes and off elsewhere; when asked
// explicitly, as asked (explore.New refuses it in one line where the system
// has no symmetry).
func symmetryFor(sys model.System, want, explicit bool) bool {
	if explicit {
		return want
	}
	sp, ok := sys.(model.SymmetryProvider)
	return ok && sp.Symmetric() != nil
}

// describeSearch names the search and the reductions in use.
func describeSearch(o explore.Options) string {
	parts := []string{o.Strategy.String()}
	if o.Strategy == explore.DFS && o.Workers > 1 {
		// The parallel DFS's traces depend on the scheduling: say so. A
		// BFS's result is the same for any number of workers (the summary
		// gives it).
		parts = append(parts, fmt.Sprintf("parallel, %d workers", o.Workers))
	}
	if o.Cluster != nil {
		parts = append(parts, fmt.Sprintf("distributed over %d worker processes", o.Cluster.Workers))
	}
	if o.Symmetry {
		parts = append(parts, "symmetry")
	}
	if o.POR {
		parts = append(parts, "partial-order reduction")
	}
	if o.Liveness {
		parts = append(parts, "liveness with "+o.Choices.String()+" choices")
	}
	return strings.Join(parts, ", ")
}

func cmdReplay(args []string, stdout io.Writer) (int, error) {
	fs := pflag.NewFlagSet("replay", pflag.ContinueOnError)
	htmlOut := fs.String("html", "", "also write the trace as one self-contained HTML page to this file")
	historyHTML := fs.String("history-html", "", "write porcupine's picture of the trace's CS history to this file (HTML)")
	if help, err := parse(fs, args, stdout, "usage: mxcheck replay FILE\n\nRe-runs a stored counterexample step by step against the current model.\nExit 0: it still ends in the same violation; 1: it diverges or no longer violates; 2: bad file."); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		return exitUsage, usagef("replay needs exactly one trace file")
	}
	path := fs.Arg(0)
	res, err := replayFile(path)
	if err != nil {
		return exitUsage, usagef("replay %s: %v", path, err)
	}
	if res.Reproduced && *historyHTML != "" {
		if err := replayHistoryHTML(*historyHTML, path, stdout); err != nil {
			return exitUsage, err
		}
	}
	if *htmlOut != "" {
		if err := replayHTML(*htmlOut, path, historyLink(*htmlOut, *historyHTML)); err != nil {
			return exitUsage, err
		}
	}
	if !res.Reproduced {
		fmt.Fprintf(stdout, "NOT REPRODUCED %s: %s\n", path, res.Reason)
		return exitViolated, nil
	}
	if res.Witness {
		fmt.Fprintf(stdout, "reproduced %s: %d steps, still reaches %s\n", path, res.Steps, res.Property)
		return exitOK, nil
	}
	fmt.Fprintf(stdout, "reproduced %s: %d steps, still violates %s\n", path, res.Steps, res.Property)
	return exitOK, nil
}

// replayFile reads, rebuilds and replays one stored trace. An error means the
// file is malformed or names an unknown spec or configuration.
func replayFile(path string) (explore.ReplayResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return explore.ReplayResult{}, fmt.Errorf("cannot open the file: %v", unwrapPath(err))
	}
	defer f.Close()
	return explore.ReplayReader(f, specs.Lookup)
}

func specNames() string {
	var names []string
	for _, s := range specs.All() {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
