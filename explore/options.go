package explore

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Strategy is the order in which states are explored.
type Strategy uint8

const (
	// BFS explores by increasing depth; its counterexamples are shortest.
	BFS Strategy = iota
	// DFS explores depth-first; its frontier is usually smaller.
	DFS
)

// String renders the strategy as "bfs" or "dfs".
func (s Strategy) String() string {
	if s == DFS {
		return "dfs"
	}
	return "bfs"
}

// Options configures a search. The zero value means: BFS, no limits,
// invariants and deadlock checked, stop at the first violation, no progress
// output.
type Options struct {
	// Strategy is BFS or DFS.
	Strategy Strategy
	// MaxStates stops the search once this many distinct states are known
	// (0: no limit). The verdict is then Incomplete unless a property was
	// already violated.
	MaxStates int
	// MaxDepth leaves states at this depth unexpanded (0: no limit); the
	// initial states have depth 0. Incomplete if anything was cut off.
	MaxDepth int
	// Timeout stops the search after this much wall-clock time (0: none).
	Timeout time.Duration
	// MemoryMB stops the search when the Go heap exceeds this many MiB
	// (0: no limit).
	MemoryMB int
	// Interrupt, once closed, stops the search like a limit ("interrupt"):
	// the verdict is Incomplete unless a property was already violated.
	// The CLI closes it on Ctrl-C.
	Interrupt <-chan struct{}
	// NoDeadlock turns deadlock detection off.
	NoDeadlock bool
	// Continue keeps searching after a violation, to find the first
	// (shortest, under BFS) violation of every property.
	Continue bool
	// Workers is the number of goroutines of the search (0 means 1, at
	// most MaxWorkers). In a BFS they share the seen-set, each expands a
	// share of every level, and the result — counts, verdicts and traces — is identical whatever the
	// number. A DFS with several workers is the parallel DFS: the same
	// states, transitions and verdicts when it runs to the end, traces
	// that depend on the scheduling.
	Workers int
	// Cluster, when set, runs the BFS distributed over worker processes
	// (dist.go); Workers is then ignored.
	Cluster *Cluster
	// Fingerprint is the width of state fingerprints in bits: 64 (the
	// default, also 0) or 128, for runs of 10^8 states and more.
	Fingerprint int
	// POR turns on partial-order reduction (package reduce).
	POR bool
	// Symmetry turns on symmetry reduction (package reduce); the system
	// must declare its symmetries.
	Symmetry bool
	// Liveness adds the liveness check: no fair cycle on which some node
	// stays hungry forever (lockout/starvation freedom).
	Liveness bool
	// Choices says how random choices count for liveness: Probabilistic
	// (the default: a property must hold with probability 1) or
	// Adversarial (the scheduler also picks every random outcome).
	Choices Choices
	// LevelInMemory is how many states of a BFS level are held in memory;
	// the rest are written to a temporary file and read back in order when
	// the level is expanded (systems that can encode their states only,
	// see model.Codec). 0 means 4,194,304; negative, no limit.
	LevelInMemory int
	// Progress receives a progress line every ProgressEvery; nil for none.
	Progress io.Writer
	// ProgressEvery is the progress interval; 0 means 3 seconds.
	ProgressEvery time.Duration
	// Checkpoint, when not empty, is a directory the BFS writes a
	// checkpoint to after a level, at most every CheckpointEvery (see
	// checkpoint.go); it must not hold a checkpoint already, unless it is
	// the Resume directory. BFS only, without liveness, for systems that
	// can encode their states (model.Codec).
	Checkpoint string
	// CheckpointEvery is the least time between two checkpoints; 0 means
	// after every level.
	CheckpointEvery time.Duration
	// Resume, when not empty, is a directory whose newest checkpoint the
	// search resumes from, instead of starting at the initial states; the
	// result is that of an uninterrupted run. New refuses a checkpoint of
	// another configuration, or a corrupt one. The number of workers may
	// differ from the run that wrote it.
	Resume string
	// CheckpointLabel names the configuration in a checkpoint (the CLI puts
	// the spec and its parameters there): a resume must have the same.
	CheckpointLabel map[string]string

	levelHook func(depth int) // tests: called after each BFS level
}

// MaxWorkers bounds Options.Workers: each worker holds its own buffers,
// and beyond a few per core they only add memory and scheduling.
const MaxWorkers = 256

// Choices is how liveness treats the outcomes of random choices.
type Choices uint8

const (
	// Probabilistic: random outcomes follow a distribution with full
	// support; liveness must hold with probability 1.
	Probabilistic Choices = iota
	// Adversarial: the scheduler picks random outcomes too.
	Adversarial
)

// String renders the mode as "probabilistic" or "adversarial".
func (c Choices) String() string {
	if c == Adversarial {
		return "adversarial"
	}
	return "probabilistic"
}

// validate checks o once; the error is one line.
func (o *Options) validate() error {
	switch {
	case o.Strategy > DFS:
		return errors.New("unknown search strategy")
	case o.MaxStates < 0:
		return errors.New("max-states must not be negative")
	case o.MaxDepth < 0:
		return errors.New("max-depth must not be negative")
	case o.Timeout < 0:
		return errors.New("timeout must not be negative")
	case o.MemoryMB < 0:
		return errors.New("memory must not be negative")
	case o.Choices > Adversarial:
		return errors.New("unknown choices mode")
	case o.Workers < 0:
		return errors.New("workers must not be negative")
	case o.Workers > MaxWorkers:
		return fmt.Errorf("workers must be at most %d (a few per core is plenty), got %d", MaxWorkers, o.Workers)
	case o.Workers > 1 && o.POR:
		return errors.New("partial-order reduction runs sequentially: use --workers 1 with --por")
	case o.LevelInMemory != 0 && o.Strategy != BFS:
		return errors.New("level-states applies to the BFS only (the DFS keeps just its stack)")
	case o.Cluster != nil && o.Strategy != BFS:
		return errors.New("the distributed search is a BFS: drop --strategy dfs")
	case o.Cluster != nil && o.POR:
		return errors.New("partial-order reduction runs sequentially: not with a distributed search")
	case o.Cluster != nil && o.Liveness:
		return errors.New("the liveness check does not run distributed: drop --liveness")
	case o.Fingerprint != 0 && o.Fingerprint != 64 && o.Fingerprint != 128:
		return fmt.Errorf("fingerprint must be 64 or 128 bits, got %d", o.Fingerprint)
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = 3 * time.Second
	}
	return nil
}
