package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// outFile is an output file of a search (--trace-out, --dot-out), made
// ready before the search so that a path that cannot be written is a usage
// error in the first second, not after hours of work.
//
// A regular file (or one that does not exist yet) is written to a temporary
// file beside it, created up front, and renamed over it only when every
// byte was written: a full disk never leaves a truncated or empty file at
// the path. An existing non-regular file (/dev/stdout, a FIFO) is opened up
// front and written in place.
type outFile struct {
	flag, path string
	f          *os.File
	tmp        string // the temporary file renamed to path, "" when writing in place
}

// openOutput prepares path for flag; "" means the flag was not given (nil).
func openOutput(flag, path string) (*outFile, error) {
	if path == "" {
		return nil, nil
	}
	o := &outFile{flag: flag, path: path}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, usagef("%s %s: is a directory", flag, path)
	case err == nil && !st.Mode().IsRegular():
		if o.f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err != nil {
			return nil, usagef("%s: %v", flag, err)
		}
		return o, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, usagef("%s: %v", flag, err)
	}
	if o.f, err = os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp"); err != nil {
		return nil, usagef("%s %s: cannot create the file: %v", flag, path, unwrapPath(err))
	}
	o.tmp = o.f.Name()
	return o, nil
}

// unwrapPath drops the temporary file's name from an error, so messages
// name the user's path only.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit writes the output with write and puts it in place. On any error
// the path is left as it was (for a regular file) and the error says so.
func (o *outFile) commit(write func(io.Writer) error) error {
	err := write(o.f)
	if err == nil && o.tmp != "" {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && o.tmp != "" {
		err = os.Rename(o.tmp, o.path)
	}
	if err != nil {
		if o.tmp != "" {
			os.Remove(o.tmp)
		}
		return fmt.Errorf("%s %s: not written: %v", o.flag, o.path, unwrapPath(err))
	}
	return nil
}

// discard drops a prepared output that has nothing to hold (the path is
// left as it was).
func (o *outFile) discard() {
	if o == nil {
		return
	}
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
	}
}

// checkOutputs are the output files of one check, opened before the search.
type checkOutputs struct {
	trace, dot *outFile
	html       *outFile // --html, written by cmdCheck
	allDir     string   // --trace-out-all, checked writable
}

// openOutputs prepares --trace-out and --dot-out; on error nothing is left
// behind.
func openOutputs(cf checkFlags) (*checkOutputs, error) {
	trace, err := openOutput("--trace-out", cf.traceOut)
	if err != nil {
		return nil, err
	}
	dot, err := openOutput("--dot-out", cf.dotOut)
	if err != nil {
		trace.discard()
		return nil, err
	}
	html, err := openOutput("--html", cf.html)
	if err != nil {
		trace.discard()
		dot.discard()
		return nil, err
	}
	if cf.traceOutAll != "" {
		if err := writableDir(cf.traceOutAll); err != nil {
			trace.discard()
			dot.discard()
			html.discard()
			return nil, usagef("--trace-out-all %s: %v", cf.traceOutAll, err)
		}
	}
	return &checkOutputs{trace: trace, dot: dot, html: html, allDir: cf.traceOutAll}, nil
}

// writableDir creates dir if needed and checks that a file can be created
// in it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return unwrapPath(err)
	}
	f, err := os.CreateTemp(dir, ".mxcheck-probe-*")
	if err != nil {
		return unwrapPath(err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// finish writes the output files of res, reporting each failure or empty
// output in one line on stderr. It never changes the verdict.
func (o *checkOutputs) finish(spec *model.Spec, values model.Values, res *explore.Result, stderr io.Writer) {
	if o.trace != nil {
		if len(res.Violations) == 0 {
			o.trace.discard()
			fmt.Fprintf(stderr, "mxcheck: --trace-out %s: no violation, so no trace was written\n", o.trace.path)
		} else if err := o.trace.commit(explore.NewITF(spec.Name, values, res.Violations[0]).Write); err != nil {
			fmt.Fprintf(stderr, "mxcheck: %v\n", err)
		}
	}
	if o.allDir != "" {
		if len(res.Violations) == 0 {
			fmt.Fprintf(stderr, "mxcheck: --trace-out-all %s: no violation, so no trace was written\n", o.allDir)
		}
		// Witnesses of sometimes properties too: they replay like
		// counterexamples ("still reaches").
		for _, v := range append(res.Violations[:len(res.Violations):len(res.Violations)], res.Witnesses...) {
			path := filepath.Join(o.allDir, v.Property+".itf.json")
			f, err := openOutput("--trace-out-all", path)
			if err == nil {
				err = f.commit(explore.NewITF(spec.Name, values, v).Write)
			}
			if err != nil {
				fmt.Fprintf(stderr, "mxcheck: %v\n", err)
			}
		}
	}
	if o.dot != nil {
		dot := ""
		for _, v := range res.Violations {
			if v.DOT != "" {
				dot = v.DOT
				break
			}
		}
		if dot == "" {
			o.dot.discard()
			fmt.Fprintf(stderr, "mxcheck: --dot-out %s: no violated property has a graph, so nothing was written\n", o.dot.path)
		} else if err := o.dot.commit(func(w io.Writer) error { _, err := io.WriteString(w, dot); return err }); err != nil {
			fmt.Fprintf(stderr, "mxcheck: %v\n", err)
		}
	}
}

// discard drops every prepared output (the search did not finish).
func (o *checkOutputs) discard() {
	o.trace.discard()
	o.dot.discard()
	o.html.discard()
}
