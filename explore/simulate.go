package explore

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mxcheck/mxcheck/model"
)

// SimOptions configures a simulation. The zero value means: 1,000 runs of
// at most 1,000 steps, seed 0, one goroutine, no time limit, deadlock
// checked, violations minimised with a BFS bounded to
// DefaultMinimizeStates states.
type SimOptions struct {
	// Runs is the number of random walks; 0 means 1,000, negative means no
	// bound (until Timeout or Interrupt, which one of must then be set).
	Runs int
	// Depth bounds each walk's steps; 0 means 1,000.
	Depth int
	// Seed is the simulation's seed; run i uses RunSeed(Seed, i).
	Seed uint64
	// Workers is the number of goroutines running walks; 0 or 1 means one.
	// The result does not depend on it.
	Workers int
	// Timeout stops the simulation after this long (0: none).
	Timeout time.Duration
	// Interrupt, once closed, stops the simulation like a timeout.
	Interrupt <-chan struct{}
	// NoDeadlock turns deadlock detection off.
	NoDeadlock bool
	// Properties, when not empty, restricts the check to these properties
	// (invariant names, or Deadlock): walks then run past violations of
	// the others.
	Properties []string
	// MinimizeStates bounds the BFS of minimisation (0: the default;
	// negative: greedy deletion only).
	MinimizeStates int
	// Progress receives a progress line every ProgressEvery; nil for none.
	Progress io.Writer
	// ProgressEvery is the progress interval; 0 means 3 seconds.
	ProgressEvery time.Duration
}

// SimOutcome is what a simulation established. It is never "verified": a
// simulation that finds nothing proves nothing.
type SimOutcome uint8

const (
	// NoneFound: every requested run finished without a violation (or,
	// with unbounded runs, the time limit ended the simulation).
	NoneFound SimOutcome = iota
	// SimViolated: a run reached a violation.
	SimViolated
	// SimIncomplete: a limit stopped the simulation before its runs were
	// done, and no violation was found.
	SimIncomplete
)

// String renders the outcome.
func (o SimOutcome) String() string {
	switch o {
	case SimViolated:
		return "violated"
	case SimIncomplete:
		return "incomplete"
	}
	return "no violation found"
}

// MarshalText renders the outcome for JSON.
func (o SimOutcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// ActionCount is how often a simulation took one action.
type ActionCount struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// SimResult is the outcome of a simulation. Everything but Elapsed and the
// rates is a function of the options (with no time limit hit).
type SimResult struct {
	Outcome SimOutcome `json:"outcome"`
	// Limit names what stopped the simulation early ("timeout",
	// "interrupt"), if anything.
	Limit string `json:"limit,omitempty"`
	Seed  uint64 `json:"seed,string"`
	// Runs is the number of runs done, up to and including the first
	// violating one.
	Runs int64 `json:"runs"`
	// Steps is the number of steps those runs took.
	Steps int64 `json:"steps"`
	// Ends counts how runs ended: "violation", "terminated" (no enabled
	// step changed the state), "depth" (the depth bound).
	Ends map[string]int64 `json:"ends"`
	// MinLen, MaxLen and MeanLen are statistics of the runs' lengths.
	MinLen  int     `json:"min_length"`
	MaxLen  int     `json:"max_length"`
	MeanLen float64 `json:"mean_length"`
	// Classes counts steps per class (node, delivery, env, adversary).
	Classes map[string]int64 `json:"classes"`
	// Coverage counts each action taken, in the system's action order;
	// Never lists the actions no run took.
	Coverage []ActionCount `json:"coverage"`
	Never    []string      `json:"never_taken"`
	// Elapsed is the time the walks took; MinimizeElapsed the time
	// minimisation took after them.
	Elapsed         time.Duration `json:"elapsed_ns"`
	MinimizeElapsed time.Duration `json:"minimize_elapsed_ns,omitempty"`
	// Violation is the first violating run's violation, minimised.
	Violation *SimViolation `json:"violation,omitempty"`
	// Witnesses says, for each sometimes property of the system (by
	// name), how many runs reached it and how soon (sometimes.go);
	// Unreached names those no run reached (not an error: random walks
	// prove nothing either way, but a witness never reached is
	// suspicious).
	Witnesses []SimWitness `json:"sometimes"`
	Unreached []string     `json:"sometimes_unreached"`
}

// SimViolation is the violation of the first violating run.
type SimViolation struct {
	Minimized
	// Run is the run's index and Seed its seed: `--runs 1 --seed Seed`
	// repeats it.
	Run  int    `json:"run"`
	Seed uint64 `json:"seed,string"`
}

// Simulate runs random walks over sys. Walk i starts from a seeded random
// initial state, draws per-run weights for the step classes, then repeats:
// pick a class by weight among those with an enabled state-changing step,
// pick one of its steps uniformly, take it, check every invariant; deadlock
// (pending work, no progress step) is checked in every state it leaves. The
// first violating run (lowest index) is minimised and reported.
func Simulate(sys model.System, opt SimOptions) (*SimResult, error) {
	if sys == nil {
		return nil, errors.New("no system to simulate")
	}
	switch {
	case opt.Depth < 0:
		return nil, errors.New("depth must not be negative")
	case opt.Workers < 0:
		return nil, errors.New("workers must not be negative")
	case opt.Timeout < 0:
		return nil, errors.New("timeout must not be negative")
	case opt.Runs < 0 && opt.Timeout == 0 && opt.Interrupt == nil:
		return nil, errors.New("unbounded runs need a timeout")
	}
	if opt.Runs == 0 {
		opt.Runs = 1000
	}
	if opt.Depth == 0 {
		opt.Depth = 1000
	}
	if opt.Workers == 0 {
		opt.Workers = 1
	}
	if opt.ProgressEvery == 0 {
		opt.ProgressEvery = 3 * time.Second
	}
	inv, deadlock, err := simProperties(sys, opt)
	if err != nil {
		return nil, err
	}
	names := actionNames(sys)
	s := &simulation{sys: sys, opt: opt, names: names, start: time.Now(), lastTick: time.Now()}
	s.res = &SimResult{Seed: opt.Seed, Ends: map[string]int64{}, MinLen: -1, Classes: map[string]int64{}, Witnesses: newSimWitnesses(sys)}
	s.counts = make([]int64, len(names)+1)
	if opt.Timeout > 0 {
		s.deadline = s.start.Add(opt.Timeout)
	}
	walkers := make([]*walker, opt.Workers)
	for i := range walkers {
		walkers[i] = newWalker(sys, inv, names, deadlock, opt.Depth)
	}
	var first *walk
	batch := 64 * opt.Workers
	for base := 0; first == nil && (opt.Runs < 0 || base < opt.Runs); base += batch {
		n := batch
		if opt.Runs > 0 {
			n = min(n, opt.Runs-base)
		}
		out := s.runBatch(walkers, base, n)
		for _, r := range out {
			if r == nil {
				break // stopped by a limit: runs are counted in order
			}
			s.merge(r)
			if r.end == endViolation {
				first = r
				break
			}
		}
		if s.limit != "" {
			break
		}
		s.progress()
	}
	return s.finish(first)
}

// simulation is the state of one Simulate call.
type simulation struct {
	sys      model.System
	opt      SimOptions
	names    []string
	res      *SimResult
	counts   []int64
	lenSum   int64
	start    time.Time
	deadline time.Time
	lastTick time.Time
	limit    string
	stopped  atomic.Bool
}

// runBatch runs walks base..base+n-1 on the walkers' goroutines; a walk not
// started because a limit was hit is nil.
func (s *simulation) runBatch(walkers []*walker, base, n int) []*walk {
	out := make([]*walk, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var limitMu sync.Mutex
	for _, w := range walkers {
		wg.Add(1)
		go func(w *walker) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if lim := s.checkLimits(); lim != "" {
					limitMu.Lock()
					if s.limit == "" {
						s.limit = lim
					}
					limitMu.Unlock()
					return
				}
				run := base + i
				out[i] = w.run(run, RunSeed(s.opt.Seed, run))
			}
		}(w)
	}
	wg.Wait()
	return out
}

// checkLimits returns the limit that stops the simulation, or "".
func (s *simulation) checkLimits() string {
	if s.stopped.Load() {
		return "stopped"
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped.Store(true)
		return "timeout"
	}
	if s.opt.Interrupt != nil {
		select {
		case <-s.opt.Interrupt:
			s.stopped.Store(true)
			return "interrupt"
		default:
		}
	}
	return ""
}

// merge adds one finished walk to the figures.
func (s *simulation) merge(r *walk) {
	s.res.Runs++
	n := len(r.steps)
	s.res.Steps += int64(n)
	s.lenSum += int64(n)
	s.res.Ends[r.end]++
	if s.res.MinLen < 0 || n < s.res.MinLen {
		s.res.MinLen = n
	}
	s.res.MaxLen = max(s.res.MaxLen, n)
	for i, c := range r.counts {
		s.counts[i] += c
	}
	for c, k := range r.classes {
		if k > 0 {
			s.res.Classes[ClassNames[c]] += k
		}
	}
	mergeWitnesses(s.res.Witnesses, r)
}

func (s *simulation) progress() {
	w := s.opt.Progress
	now := time.Now()
	if w == nil || now.Sub(s.lastTick) < s.opt.ProgressEvery {
		return
	}
	s.lastTick = now
	el := now.Sub(s.start).Seconds()
	fmt.Fprintf(w, "mxcheck: %6.1fs  runs=%d steps=%d runs/s=%.0f steps/s=%.0f\n",
		el, s.res.Runs, s.res.Steps, float64(s.res.Runs)/el, float64(s.res.Steps)/el)
}

// finish fills in the figures and minimises the violation.
func (s *simulation) finish(first *walk) (*SimResult, error) {
	r := s.res
	if r.MinLen < 0 {
		r.MinLen = 0
	}
	if r.Runs > 0 {
		r.MeanLen = float64(s.lenSum) / float64(r.Runs)
	}
	r.Never = []string{}
	r.Unreached = []string{}
	for _, x := range r.Witnesses {
		if x.Runs == 0 {
			r.Unreached = append(r.Unreached, x.Name)
		}
	}
	for i, name := range s.names {
		r.Coverage = append(r.Coverage, ActionCount{name, s.counts[i]})
		if s.counts[i] == 0 {
			r.Never = append(r.Never, name)
		}
	}
	if k := s.counts[len(s.names)]; k > 0 {
		r.Coverage = append(r.Coverage, ActionCount{"(unnamed)", k})
	}
	if s.limit == "stopped" {
		s.limit = "timeout"
	}
	r.Elapsed = time.Since(s.start)
	switch {
	case first != nil:
		r.Outcome = SimViolated
		m, err := Minimize(s.sys, first.init, first.steps, first.prop, first.kind, MinimizeOptions{States: s.opt.MinimizeStates, Interrupt: s.opt.Interrupt})
		if err != nil {
			return nil, err
		}
		r.Violation = &SimViolation{Minimized: *m, Run: first.run, Seed: first.seed}
		r.MinimizeElapsed = time.Since(s.start) - r.Elapsed
	case s.limit != "" && s.opt.Runs > 0:
		r.Outcome, r.Limit = SimIncomplete, s.limit
	default:
		r.Outcome, r.Limit = NoneFound, s.limit
	}
	return r, nil
}

// simProperties returns the invariants to check and whether to check
// deadlock.
func simProperties(sys model.System, opt SimOptions) ([]model.Invariant, bool, error) {
	all := alwaysOnly(sys.Invariants())
	_, worker := sys.(model.WorkPending)
	if len(opt.Properties) == 0 {
		return all, !opt.NoDeadlock, nil
	}
	var inv []model.Invariant
	deadlock := false
	for _, p := range opt.Properties {
		found := false
		if p == Deadlock && worker && !opt.NoDeadlock {
			deadlock, found = true, true
		}
		for _, iv := range all {
			if iv.Name == p {
				inv, found = append(inv, iv), true
			}
		}
		if !found {
			names := make([]string, 0, len(all)+1)
			for _, iv := range all {
				names = append(names, iv.Name)
			}
			if worker && !opt.NoDeadlock {
				names = append(names, Deadlock)
			}
			return nil, false, fmt.Errorf("no property %q to check (this spec has: %s)", p, strings.Join(names, ", "))
		}
	}
	return inv, deadlock, nil
}
