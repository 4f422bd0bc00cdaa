package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Checkpoints of the BFS (Options.Checkpoint, Options.Resume), after TLC's
// -checkpoint and -recover.
//
// A checkpoint is taken at a level boundary, when every partition has
// settled its new states: it holds everything the rest of the search
// depends on, and nothing else. It is laid out per partition so that the
// distributed search (issue #19) can write and load one partition without
// the others:
//
//	DIR/ckpt-NNNNNNNN/         one checkpoint; NNNNNNNN is the next level to expand
//	    part-PPPP.bin          partition P of W: its seen-set (every
//	                           fingerprint it owns) and its next frontier
//	                           (each state's id and encoding, in id order)
//	    links.bin              the parent link of every state, by id
//	    manifest.json          counters, property tracker, identity of the
//	                           run, and each file's size and CRC-32C
//
// Every file ends with a CRC-32C of its contents; the manifest is written
// last and names the size and checksum of every other file. A checkpoint is
// written into DIR/.tmp-NNNNNNNN, each file and the directory are synced,
// then the directory is renamed to ckpt-NNNNNNNN (atomic) and DIR is synced;
// only then are older checkpoints removed. A process killed at any moment
// leaves the previous checkpoint whole; a resume loads the newest ckpt-*.
//
// A resume may use another number of workers: each fingerprint goes to its
// owner among the new partitions, and the frontiers are merged by id and
// re-split (ids are those of a sequential BFS, whatever the partitioning).

// checkpointVersion is the format of the files; a reader refuses others.
// Version 2: the specs key states by their bytes (model.Protocol.RawKey),
// so the fingerprints in a version 1 seen-set are not theirs. Version 3:
// fingerprints are model.Fingerprint's folded-multiply hash, no longer
// XXH64.
const checkpointVersion = 3

// DefaultCheckpointEvery is the CLI's default interval between checkpoints
// (--checkpoint-every).
const DefaultCheckpointEvery = 5 * time.Minute

// CheckpointStats describes the checkpoints of a run (Result.Checkpoint).
// Sizes and durations depend on the machine; the rest is deterministic.
type CheckpointStats struct {
	// Dir is the directory checkpoints are written to ("" when the run only
	// resumed and wrote none).
	Dir string `json:"dir,omitempty"`
	// ResumedFrom is the level the run resumed at (0: a fresh run) and
	// ResumedStates the distinct states the checkpoint held.
	ResumedFrom   int   `json:"resumed_from_level,omitempty"`
	ResumedStates int64 `json:"resumed_states,omitempty"`
	// Written is the number of checkpoints this run wrote.
	Written int `json:"written"`
	// Level is the level the last one written resumes at, States its
	// distinct states, Bytes its size on disk and WriteTime how long it
	// took to write (all 0 when none was written).
	Level     int           `json:"level,omitempty"`
	States    int64         `json:"states,omitempty"`
	Bytes     int64         `json:"bytes,omitempty"`
	WriteTime time.Duration `json:"write_ns,omitempty"`
	// TotalWriteTime is the time spent writing every checkpoint.
	TotalWriteTime time.Duration `json:"total_write_ns,omitempty"`
	// Error is the last write that failed ("" when none); the search goes
	// on without that checkpoint.
	Error string `json:"error,omitempty"`
}

// checkpointDirs returns the names of the checkpoints in dir (ckpt-*), the
// newest last.
func checkpointDirs(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if name := e.Name(); e.IsDir() && strings.HasPrefix(name, "ckpt-") {
			if _, err := strconv.Atoi(strings.TrimPrefix(name, "ckpt-")); err == nil {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out) // fixed width: lexical order is numeric order
	return out, nil
}

func checkpointName(level int) string { return fmt.Sprintf("ckpt-%08d", level) }

func partName(p int) string { return fmt.Sprintf("part-%04d.bin", p) }

const (
	linksName    = "links.bin"
	manifestName = "manifest.json"
)

// identity is what a run's checkpoint must share with the run resuming it:
// the caller's label (spec and parameters) and every option that changes
// the state space, the properties or the verdict. The number of workers,
// the limits and the level storage may differ.
func (c *Checker) identity() map[string]string {
	id := map[string]string{}
	for k, v := range c.opt.CheckpointLabel {
		id[k] = v
	}
	var props []string
	for _, iv := range c.inv {
		props = append(props, iv.Name+":"+iv.Expect.String())
	}
	id["search.properties"] = strings.Join(props, ",")
	id["search.deadlock"] = strconv.FormatBool(c.worker != nil)
	id["search.continue"] = strconv.FormatBool(c.opt.Continue)
	id["search.symmetry"] = strconv.FormatBool(c.sym != nil)
	id["search.por"] = strconv.FormatBool(c.opt.POR)
	id["search.fingerprint"] = strconv.Itoa(c.fingerprintBits())
	return id
}

// identityDiff says how two identities differ, one "key: a there, b here"
// per key, sorted; "" when they are equal.
func identityDiff(there, here map[string]string) string {
	keys := map[string]bool{}
	for k := range there {
		keys[k] = true
	}
	for k := range here {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		a, okA := there[k]
		b, okB := here[k]
		if okA && okB && a == b {
			continue
		}
		if !okA {
			a = "(unset)"
		}
		if !okB {
			b = "(unset)"
		}
		diffs = append(diffs, fmt.Sprintf("%s: %q there, %q here", k, a, b))
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

// checkpointCheck validates the checkpoint options in New: one error line.
func (c *Checker) checkpointCheck() error {
	o := &c.opt
	if o.Checkpoint == "" && o.Resume == "" {
		return nil
	}
	what := "--checkpoint"
	if o.Checkpoint == "" {
		what = "--resume"
	}
	switch {
	case o.Strategy != BFS:
		return fmt.Errorf("%s applies to the BFS only (a DFS cannot be checkpointed)", what)
	case o.Liveness:
		return fmt.Errorf("%s cannot be combined with liveness checking (the liveness graph is not checkpointed)", what)
	case c.codec == nil:
		return fmt.Errorf("%s needs states that can be written to disk, and this system cannot encode its states (model.Codec)", what)
	case o.CheckpointEvery < 0:
		return fmt.Errorf("checkpoint-every must not be negative")
	}
	if o.Resume != "" {
		m, err := c.verifyCheckpoint(o.Resume)
		if err != nil {
			return err
		}
		c.resume = m
	}
	if o.Checkpoint != "" && filepath.Clean(o.Checkpoint) != filepath.Clean(o.Resume) {
		if err := os.MkdirAll(o.Checkpoint, 0o777); err != nil {
			return fmt.Errorf("--checkpoint: %v", unwrapPathErr(err))
		}
		names, err := checkpointDirs(o.Checkpoint)
		if err != nil {
			return fmt.Errorf("--checkpoint: %v", unwrapPathErr(err))
		}
		if len(names) > 0 {
			return fmt.Errorf("--checkpoint %s already holds a checkpoint (%s): resume it with --resume %s, or remove it", o.Checkpoint, names[len(names)-1], o.Checkpoint)
		}
	}
	return nil
}

// unwrapPathErr drops the operation from an *os.PathError, keeping the
// path and the cause.
func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
