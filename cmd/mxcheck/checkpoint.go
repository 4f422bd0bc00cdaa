package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// checkpointFlags are check's --checkpoint, --checkpoint-every and
// --resume (not a suite row's: a checkpoint belongs to one long run).
type checkpointFlags struct {
	dir    string
	every  time.Duration
	resume string
}

func (f *checkpointFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.dir, "checkpoint", "", "BFS: write a checkpoint to this directory after a level, at most every --checkpoint-every (resume with --resume)")
	fs.DurationVar(&f.every, "checkpoint-every", explore.DefaultCheckpointEvery, "least time between two checkpoints (0: after every level)")
	fs.StringVar(&f.resume, "resume", "", "BFS: resume from the newest checkpoint in this directory, with the same spec, parameters and search options, and go on checkpointing there")
}

// apply sets the checkpoint options: the label ties a checkpoint to the
// spec and every parameter value (defaults included).
func (f *checkpointFlags) apply(opt *explore.Options, spec string, values model.Values) error {
	if f.every < 0 {
		return usagef("--checkpoint-every must not be negative")
	}
	if f.dir == "" && f.resume == "" {
		return nil
	}
	opt.Checkpoint, opt.Resume, opt.CheckpointEvery = f.dir, f.resume, f.every
	if f.dir == "" {
		opt.Checkpoint = f.resume
	}
	opt.CheckpointLabel = map[string]string{"spec": spec}
	for k, v := range values {
		opt.CheckpointLabel["--"+k] = v
	}
	return nil
}

// report says on stderr what was resumed and written, and, when a limit
// that a resume can lift stopped the run, the command that resumes it.
func (f *checkpointFlags) report(stderr io.Writer, spec string, args []string, res *explore.Result) {
	ck := res.Checkpoint
	if ck == nil {
		return
	}
	if ck.ResumedFrom > 0 {
		fmt.Fprintf(stderr, "mxcheck: resumed at level %d from a checkpoint of %d states in %s\n", ck.ResumedFrom, ck.ResumedStates, f.resume)
	}
	if ck.Written > 0 {
		fmt.Fprintf(stderr, "mxcheck: %d checkpoints written to %s; the last, at level %d: %d states, %.1f MiB (%.1f bytes/state), written in %.2fs\n",
			ck.Written, ck.Dir, ck.Level, ck.States, float64(ck.Bytes)/(1<<20), float64(ck.Bytes)/float64(max(ck.States, 1)), ck.WriteTime.Seconds())
	}
	resumable := res.Limit == "interrupt" || res.Limit == "timeout" || res.Limit == "memory"
	if res.Verdict != explore.Incomplete || !resumable || (ck.Written == 0 && ck.ResumedFrom == 0) {
		return
	}
	level := ck.Level
	if ck.Written == 0 {
		level = ck.ResumedFrom
	}
	rest := withoutFlag(withoutFlag(withoutFlag(args[1:], "checkpoint"), "resume"), "checkpoint-every")
	cmd := append([]string{"mxcheck", "check", spec}, rest...)
	if f.every != explore.DefaultCheckpointEvery {
		cmd = append(cmd, "--checkpoint-every", f.every.String())
	}
	cmd = append(cmd, "--resume", ck.Dir)
	fmt.Fprintf(stderr, "mxcheck: stopped by %s; the checkpoint at level %d is in %s; to go on from there:\n  %s\n", res.Limit, level, ck.Dir, commandLine(cmd))
}
