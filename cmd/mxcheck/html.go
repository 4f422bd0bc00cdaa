package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/explore/htmlview"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

// writeResultHTML writes the trace page of a search's result to w (--html
// on check).
func writeResultHTML(w io.Writer, sys model.System, spec string, values model.Values, res *explore.Result, command string) error {
	p, err := htmlview.FromResult(sys, spec, values, res, htmlview.Options{Command: command})
	if err != nil {
		return err
	}
	return htmlview.Write(w, p)
}

// writeResultHTMLFile is writeResultHTML to the file at path (simulate's
// --html); the error names the flag and the file.
func writeResultHTMLFile(path string, sys model.System, spec string, values model.Values, res *explore.Result, command string) error {
	var b bytes.Buffer
	if err := writeResultHTML(&b, sys, spec, values, res, command); err != nil {
		return fmt.Errorf("--html %s: %v", path, err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	return nil
}

// writePage renders p to path; the error names the flag and the file.
func writePage(path string, p *htmlview.Page) error {
	var b bytes.Buffer
	if err := htmlview.Write(&b, p); err != nil {
		return fmt.Errorf("--html %s: %v", path, err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	return nil
}

// loadTrace reads a stored trace and builds the system it names. The error
// says in one line what is wrong with the file.
func loadTrace(path string) (*explore.ITFTrace, model.System, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open %s", path)
	}
	defer f.Close()
	t, err := explore.ReadITF(f)
	if err != nil {
		return nil, nil, err
	}
	spec := specs.Lookup(t.Meta.Spec)
	if spec == nil {
		return nil, nil, fmt.Errorf("unknown spec %q", t.Meta.Spec)
	}
	sys, _, err := spec.Compile(t.Meta.Params)
	if err != nil {
		return nil, nil, err
	}
	return t, sys, nil
}

// tracePage builds the page of the stored trace at path.
func tracePage(path string) (*htmlview.Page, error) {
	t, sys, err := loadTrace(path)
	if err != nil {
		return nil, err
	}
	return htmlview.FromITF(sys, t, htmlview.Options{Command: "mxcheck replay " + shellQuote(path)})
}

// commandLine renders a command line to paste into a shell.
func commandLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replayHTML writes the page of the stored trace at path (--html on replay).
// A trace that no longer executes in the current model has no page.
func replayHTML(out, path string) error {
	p, err := tracePage(path)
	if err != nil {
		return fmt.Errorf("--html %s: %v", out, err)
	}
	return writePage(out, p)
}

// withoutFlag drops --name VALUE and --name=VALUE from args.
func withoutFlag(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--"+name:
			i++
		case strings.HasPrefix(args[i], "--"+name+"="):
		default:
			out = append(out, args[i])
		}
	}
	return out
}
