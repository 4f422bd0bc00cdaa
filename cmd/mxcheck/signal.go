package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// interruptOnSignal returns a channel closed at the first Ctrl-C (or
// SIGTERM): the search then stops as a limit would and reports what it
// explored, as Incomplete. A second signal ends the process at once, as
// usual. Call release when the search is over.
func interruptOnSignal(stderr io.Writer) (stop <-chan struct{}, release func()) {
	c := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			signal.Stop(sig)
			fmt.Fprintln(stderr, "mxcheck: interrupted: stopping the search and reporting what it explored (again to quit at once)")
			close(c)
		case <-done:
		}
	}()
	return c, func() {
		signal.Stop(sig)
		close(done)
	}
}
