package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs"
)

const serveUsage = `usage: mxcheck serve [DIR] [--addr HOST:PORT] [--spec SPEC [spec flags]]

Serves, on the loopback interface by default, a list of the stored traces
under DIR (default counterexamples) with their spec, property and length;
each opens as the page --html writes. With --spec (and that spec's flags,
see mxcheck list), also an interactive explorer of that configuration: start
at the initial state, see every enabled step and the state it leads to,
follow any, go back, and jump along a stored or freshly found
counterexample. Stop it with Ctrl-C.`

// serveFlags are serve's own flags.
type serveFlags struct {
	addr      string
	spec      string
	maxStates int
	timeout   time.Duration
}

func cmdServe(args []string, stdout io.Writer) (int, error) {
	srv, addr, help, err := newServerFromArgs(args, stdout)
	if help || err != nil {
		return exitOK, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return exitUsage, usagef("serve: %v", err)
	}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", srv.dir, ln.Addr())
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		fmt.Fprintf(stdout, "note: %s is not a loopback address: whoever reaches it can read these traces\n", a.IP)
	}
	hs := &http.Server{Handler: srv.handler(), ReadHeaderTimeout: 10 * time.Second}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exitUsage, usagef("serve: %v", err)
	}
	return exitOK, nil
}

// newServerFromArgs parses serve's command line into a server and the
// address to listen on.
func newServerFromArgs(args []string, stdout io.Writer) (*server, string, bool, error) {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	var sf serveFlags
	fs.StringVar(&sf.addr, "addr", "127.0.0.1:8080", "address to listen on (loopback by default; port 0 picks a free one)")
	fs.StringVar(&sf.spec, "spec", "", "also explore this spec interactively (its flags follow, see mxcheck list)")
	fs.IntVar(&sf.maxStates, "max-states", 2000000, "interactive mode: states a search for a counterexample may visit")
	fs.DurationVar(&sf.timeout, "timeout", 30*time.Second, "interactive mode: time a search for a counterexample may take")
	name := specArg(args)
	var spec *model.Spec
	var given func() model.Values
	if name != "" {
		if spec = specs.Lookup(name); spec == nil {
			return nil, "", false, usagef("serve: unknown spec %q (known: %s)", name, specNames())
		}
		var err error
		if given, err = specFlags(fs, spec); err != nil {
			return nil, "", false, err
		}
	}
	if help, err := parse(fs, args, stdout, serveUsage); help || err != nil {
		return nil, "", help, err
	}
	if fs.NArg() > 1 {
		return nil, "", false, usagef("serve takes at most one directory, got %q", fs.Args())
	}
	if sf.maxStates < 1 || sf.timeout <= 0 {
		return nil, "", false, usagef("serve: --max-states and --timeout must be positive")
	}
	srv := &server{maxStates: sf.maxStates, timeout: sf.timeout}
	if spec != nil {
		sys, bound, err := spec.Compile(given())
		if err != nil {
			return nil, "", false, usagef("serve: %v", err)
		}
		srv.spec, srv.values, srv.sys = spec, bound.Values(), sys
	}
	dir := "counterexamples"
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, "", false, usagef("serve: %s is not a directory", dir)
	}
	srv.dir = dir
	return srv, sf.addr, false, nil
}

// specArg finds the value of --spec in args, before the flags are parsed
// (the spec decides which other flags exist).
func specArg(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "--spec" && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--spec="); ok {
			return v
		}
	}
	return ""
}
