package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// swarmFlags are swarm's flags: the member, its storage and output, and
// the search flags of check that apply to one sequential DFS.
type swarmFlags struct {
	index        int
	of           int
	seed         string
	out          string
	storage      string
	bitstateBits int
	maxStates    int
	maxDepth     int
	timeout      time.Duration
	memory       int
	noDeadlock   bool
	cont         bool
	por          bool
	symmetry     bool
	fingerprint  int
	quiet        bool
}

func (f *swarmFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.index, "index", 0, "this member's number, 0..of-1 (default: $JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it); member 0 searches in the plain DFS order")
	fs.IntVar(&f.of, "of", 0, "the number of members of the swarm (required)")
	fs.StringVar(&f.seed, "seed", "1", "the swarm's seed (an unsigned 64-bit integer): each member's order derives from (seed, index, of)")
	fs.StringVar(&f.out, "out", "", "directory for the member's result, DIR/member-I-of-N.json (required; created if needed)")
	fs.StringVar(&f.storage, "storage", "exact", "seen-set: exact (fingerprints, as check) or bitstate (a fixed bit array, 3 bits per state: may miss states)")
	fs.IntVar(&f.bitstateBits, "bitstate-bits", 0, fmt.Sprintf("with --storage bitstate: an array of 2^K bits, K in %d..%d (0: 27, 16 MiB)", explore.MinBitstateBits, explore.MaxBitstateBits))
	fs.IntVar(&f.maxStates, "max-states", 0, "stop after this many distinct states (0: no limit)")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "do not expand states at this depth (0: no limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop after this long, e.g. 30s or 10m (0: no limit)")
	fs.IntVar(&f.memory, "memory", 0, "stop when the heap exceeds this many MiB (0: no limit)")
	fs.BoolVar(&f.noDeadlock, "no-deadlock", false, "do not check deadlock freedom")
	fs.BoolVar(&f.cont, "continue", false, "keep searching after a violation to find one of every property")
	fs.BoolVar(&f.por, "por", false, "partial-order reduction")
	fs.BoolVar(&f.symmetry, "symmetry", false, "symmetry reduction; on by default where the spec's nodes are interchangeable (--symmetry=false: off)")
	fs.IntVar(&f.fingerprint, "fingerprint", 64, "bits per state fingerprint: 64 or 128")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
}

const swarmHelp = `usage: mxcheck swarm SPEC --index I --of N --out DIR [flags]

Runs member I of a swarm of N diversified depth-first searches of one
configuration, with no coordination: any job runner can start the members
(a shell loop, xargs -P, a Kubernetes Indexed Job, which sets
JOB_COMPLETION_INDEX). Member 0 searches in the plain DFS order; each other
member orders successors by step-class and action weights and a random key
drawn from (seed, I, N). The member writes DIR/member-I-of-N.json (its
configuration, figures and every violation with its trace) and prints a
summary; mxcheck swarm-report DIR merges the members. A swarm finds bugs
and proves nothing.

exit codes: 0 no violation found (the member's search ran to its end),
1 a violation, 2 bad usage, 3 incomplete (stopped by a limit, or bitstate
storage)`

func cmdSwarm(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return exitUsage, usagef("swarm needs a spec name: mxcheck swarm SPEC --index I --of N --out DIR (see mxcheck swarm --help)")
	}
	if args[0] == "-h" || args[0] == "--help" {
		fs := pflag.NewFlagSet("swarm", pflag.ContinueOnError)
		new(swarmFlags).register(fs)
		fmt.Fprintf(stdout, "%s\n\nspecs: %s (mxcheck list shows their flags)\n\nflags:\n%s", swarmHelp, specNames(), fs.FlagUsages())
		return exitOK, nil
	}
	spec := specs.Lookup(args[0])
	if spec == nil {
		return exitUsage, usagef("unknown spec %q (known: %s)", args[0], specNames())
	}
	fs := pflag.NewFlagSet("swarm "+spec.Name, pflag.ContinueOnError)
	var sf swarmFlags
	sf.register(fs)
	given, err := specFlags(fs, spec)
	if err != nil {
		return exitUsage, err
	}
	if help, err := parse(fs, args[1:], stdout, swarmHelp+"\n\n"+spec.Summary); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() > 0 {
		return exitUsage, usagef("unexpected argument %q", fs.Arg(0))
	}
	member, err := sf.member(fs.Changed("index"))
	if err != nil {
		return exitUsage, err
	}
	if sf.out == "" {
		return exitUsage, usagef("swarm needs --out DIR (the member writes DIR/member-%d-of-%d.json)", member.Index, member.Of)
	}
	sys, bound, err := spec.Compile(given())
	if err != nil {
		return exitUsage, usageError{err.Error()}
	}
	values := bound.Values()
	opt := explore.Options{
		Strategy:    explore.DFS,
		Workers:     1,
		MaxStates:   sf.maxStates,
		MaxDepth:    sf.maxDepth,
		Timeout:     sf.timeout,
		MemoryMB:    sf.memory,
		NoDeadlock:  sf.noDeadlock,
		Continue:    sf.cont,
		POR:         sf.por,
		Fingerprint: sf.fingerprint,
	}
	if sf.fingerprint != 64 && sf.fingerprint != 128 {
		return exitUsage, usagef("--fingerprint: want 64 or 128 bits, got %d", sf.fingerprint)
	}
	opt.Symmetry = symmetryFor(sys, sf.symmetry, fs.Changed("symmetry"))
	if !sf.quiet && isTerminal(stderr) {
		opt.Progress = stderr
	}
	stop, release := interruptOnSignal(stderr)
	defer release()
	opt.Interrupt = stop
	chk, err := explore.New(sys, opt)
	if err != nil {
		return exitUsage, usageError{err.Error()}
	}
	if err := writableDir(sf.out); err != nil {
		return exitUsage, usagef("--out %s: %v", sf.out, err)
	}
	path := filepath.Join(sf.out, memberFileName(member.Index, member.Of))
	out, err := openOutput("--out", path)
	if err != nil {
		return exitUsage, err
	}
	res, info, err := chk.CheckSwarm(member)
	if err != nil {
		out.discard()
		return reportPanic(stderr, spec.Name, err)
	}
	mf := newMemberFile(spec.Name, values, sf, opt, member, res, info)
	var b bytes.Buffer
	fmt.Fprintf(&b, "swarm member %d of %d: %s %s (%s)\n", member.Index, member.Of, spec.Name, strings.Join(values.Flags(nil), " "), describeMember(opt, mf))
	if n, ok := sys.(model.Noter); ok {
		for _, line := range n.Notes() {
			fmt.Fprintf(&b, "note: %s\n", line)
		}
	}
	for _, v := range res.Violations {
		fmt.Fprintf(&b, "VIOLATION of %s after %d steps (trace in %s; mxcheck swarm-report %s prints it)\n", violationWhat(v.Property, v.Kind), v.Trace.Len(), path, sf.out)
	}
	fmt.Fprintf(&b, "member %d of %d: %s\n", member.Index, member.Of, mf.outcome())
	fmt.Fprintf(&b, "distinct states: %d  transitions: %d  depth: %d  time: %.2fs  states/s: %.0f\n",
		mf.States, mf.Transitions, mf.Depth, mf.Seconds, res.Stats.Rate)
	if bs := info.Bitstate; bs != nil {
		fmt.Fprintf(&b, "bitstate: 2^%d bits (%s), %d hashes, %.4f%% set; a new state is now taken for seen with probability %.1e (states may have been missed)\n",
			member.BitstateBits, sizeOf(bs.Bits/8), bs.Hashes, 100*float64(bs.Set)/float64(bs.Bits), bs.Omission)
	}
	werr := out.commit(func(w io.Writer) error { return mf.write(w) })
	if werr == nil {
		fmt.Fprintf(&b, "wrote %s\n", path)
	}
	_, err = stdout.Write(b.Bytes())
	if werr != nil {
		// Without its file the member is lost to swarm-report: say so and
		// fail, whatever it found.
		fmt.Fprintf(stderr, "mxcheck: %v\n", werr)
		return exitUsage, nil
	}
	if err != nil {
		return exitUsage, err
	}
	switch {
	case len(res.Violations) > 0:
		return exitViolated, nil
	case !mf.Complete:
		return exitIncomplete, nil
	}
	return exitOK, nil
}

// member builds the member's identity from the flags; indexGiven is whether
// --index was on the command line (else JOB_COMPLETION_INDEX is read).
func (f *swarmFlags) member(indexGiven bool) (explore.SwarmMember, error) {
	var m explore.SwarmMember
	if f.of < 1 {
		return m, usagef("swarm needs --of N, the number of members (at least 1), got %d", f.of)
	}
	m.Of = f.of
	m.Index = f.index
	if !indexGiven {
		env, ok := os.LookupEnv("JOB_COMPLETION_INDEX")
		if !ok {
			return m, usagef("swarm needs --index I (or JOB_COMPLETION_INDEX in the environment)")
		}
		i, err := strconv.Atoi(strings.TrimSpace(env))
		if err != nil {
			return m, usagef("JOB_COMPLETION_INDEX=%q is not a member index (want an integer 0..%d)", env, f.of-1)
		}
		m.Index = i
	}
	if m.Index < 0 || m.Index >= m.Of {
		return m, usagef("member index %d is not in 0..%d (a swarm of %d)", m.Index, m.Of-1, m.Of)
	}
	seed, err := strconv.ParseUint(f.seed, 0, 64)
	if err != nil {
		return m, usagef("--seed %q: want an unsigned 64-bit integer", f.seed)
	}
	m.Seed = seed
	switch f.storage {
	case "exact":
		if f.bitstateBits != 0 {
			return m, usagef("--bitstate-bits applies to --storage bitstate only")
		}
	case "bitstate":
		m.Storage = explore.Bitstate
		m.BitstateBits = f.bitstateBits
		if m.BitstateBits == 0 {
			m.BitstateBits = 27
		}
		if m.BitstateBits < explore.MinBitstateBits || m.BitstateBits > explore.MaxBitstateBits {
			return m, usagef("--bitstate-bits: want %d..%d (2^K bits), got %d", explore.MinBitstateBits, explore.MaxBitstateBits, f.bitstateBits)
		}
	case "hashcompact":
		return m, usagef("--storage hashcompact: exact storage already keeps 64-bit fingerprints, not states (use --fingerprint 128 for fewer collisions, bitstate for less memory)")
	default:
		return m, usagef("--storage: unknown storage %q (want exact or bitstate)", f.storage)
	}
	return m, nil
}

// memberFileName is member i of n's result file.
func memberFileName(i, n int) string { return fmt.Sprintf("member-%d-of-%d.json", i, n) }

// describeMember names a member's search: storage, seeds, order.
func describeMember(o explore.Options, mf *memberFile) string {
	parts := []string{"dfs", mf.Swarm.Storage + " storage"}
	if o.Symmetry {
		parts = append(parts, "symmetry")
	}
	if o.POR {
		parts = append(parts, "partial-order reduction")
	}
	parts = append(parts, "swarm seed "+mf.Swarm.Seed, "member seed "+mf.MemberSeed)
	if mf.Order.Plain {
		parts = append(parts, "order: plain DFS")
	} else {
		var w []string
		for _, c := range explore.ClassNames {
			w = append(w, fmt.Sprintf("%s×%d", c, mf.Order.Classes[c]))
		}
		order := "order: weighted " + strings.Join(w, " ")
		if len(mf.Order.Actions) > 0 {
			order += fmt.Sprintf(", %d actions weighted 1..4", len(mf.Order.Actions))
		}
		parts = append(parts, order)
	}
	return strings.Join(parts, ", ")
}

// violationWhat names a violated property as check's text does.
func violationWhat(prop string, kind model.Expectation) string {
	if kind == model.NoDeadlock {
		return "deadlock (" + prop + ")"
	}
	return "invariant " + prop
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sizeOf renders a power-of-two byte count in KiB, MiB or GiB.
func sizeOf(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20:
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d KiB", b>>10)
}
