package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
)

// The distributed search's command lines (docs/distributed.md):
//
//	mxcheck check SPEC ... --distributed --workers N [--listen ADDR | --nats URL]
//	mxcheck worker --nats URL
//
// The coordinator starts a NATS server on ADDR (or uses the one at URL),
// waits for N workers to join on subject mxcheck.join, sends each the check
// command line and its index, then runs the search.

// joinSubject is where workers ask a coordinator for a job.
const joinSubject = "mxcheck.join"

// defaultListen is where a coordinator's NATS server listens by default.
const defaultListen = "127.0.0.1:4222"

// distFlags are check's flags for a distributed search.
type distFlags struct {
	on_      bool
	listen   string
	url      string
	timeout  time.Duration
	compress bool
}

func (d *distFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&d.on_, "distributed", false, "run the BFS over worker processes (mxcheck worker --nats URL), --workers of them, through NATS")
	fs.StringVar(&d.listen, "listen", "", "with --distributed: the address of the embedded NATS server (default "+defaultListen+")")
	fs.StringVar(&d.url, "nats", "", "with --distributed: use the NATS server at this URL instead of starting one")
	fs.BoolVar(&d.compress, "compress", false, "with --distributed: compress the batches of states between workers (S2, about 5x smaller): for workers on other machines")
	fs.DurationVar(&d.timeout, "worker-timeout", explore.DefaultWorkerTimeout, "with --distributed: a worker silent this long is lost; its partitions move to the others, which go back to the last checkpoint")
}

func (d *distFlags) on() bool { return d.on_ }

// validate checks the distributed flags against the others.
func (d *distFlags) validate(fs *pflag.FlagSet, cf *checkFlags) error {
	switch {
	case !d.on_ && (fs.Changed("listen") || fs.Changed("nats") || fs.Changed("worker-timeout") || fs.Changed("compress")):
		return usagef("--listen, --nats, --compress and --worker-timeout apply to a distributed search: add --distributed")
	case d.timeout < time.Second:
		return usagef("--worker-timeout must be at least 1s")
	case !d.on_:
		return nil
	case fs.Changed("listen") && fs.Changed("nats"):
		return usagef("--listen starts a NATS server, --nats uses one: give one of them")
	case cf.workers < 1:
		return usagef("--distributed needs --workers N: the number of worker processes to wait for")
	case cf.strategy != "bfs":
		return usagef("the distributed search is a BFS: drop --strategy %s", cf.strategy)
	case cf.liveness:
		return usagef("the liveness check does not run distributed: drop --liveness")
	case cf.por:
		return usagef("partial-order reduction runs sequentially: not with --distributed")
	}
	if d.listen == "" {
		d.listen = defaultListen
	}
	if _, port, err := net.SplitHostPort(d.listen); err != nil {
		return usagef("--listen: want HOST:PORT, got %q", d.listen)
	} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return usagef("--listen: bad port %q", port)
	}
	return nil
}

// job is what a joining worker receives.
type job struct {
	Run     string   `json:"run"`
	Index   int      `json:"index"`
	Workers int      `json:"workers"`
	Args    []string `json:"args"` // the check command line: SPEC [flags]
	Error   string   `json:"error,omitempty"`
}

// start connects the coordinator (starting its NATS server unless --nats
// names one) and waits until every worker has joined; close releases what
// it started.
func (d *distFlags) start(p *preparedCheck, stop <-chan struct{}, stderr io.Writer) (*explore.Cluster, func(), error) {
	var ns *natsserver.Server
	url := d.url
	closeAll := func() {}
	if url == "" {
		host, port, _ := net.SplitHostPort(d.listen)
		pn, _ := strconv.Atoi(port)
		var err error
		ns, err = natsserver.NewServer(&natsserver.Options{Host: host, Port: pn, NoLog: true, NoSigs: true})
		if err != nil {
			return nil, nil, fmt.Errorf("--listen %s: %v", d.listen, err)
		}
		go ns.Start()
		if !ns.ReadyForConnections(10 * time.Second) {
			ns.Shutdown()
			return nil, nil, fmt.Errorf("--listen %s: the NATS server did not start (is the port in use?)", d.listen)
		}
		url = ns.ClientURL()
		closeAll = ns.Shutdown
	}
	nc, err := nats.Connect(url, nats.Name("mxcheck coordinator"))
	if err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("--nats %s: %v", url, err)
	}
	stopServer := closeAll
	closeAll = func() {
		if ns != nil {
			// What the run cost the network, from the server's counters.
			if v, err := ns.Varz(nil); err == nil {
				fmt.Fprintf(stderr, "mxcheck: the NATS server carried %d messages, %.1f MiB\n", v.InMsgs, float64(v.InBytes)/(1<<20))
			}
		}
		nc.Close()
		stopServer()
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	cl := &explore.Cluster{Conn: nc, Run: "mxcheck.run." + hex.EncodeToString(id[:]), Workers: p.cf.workers, Timeout: d.timeout, Compress: d.compress}
	fmt.Fprintf(stderr, "mxcheck: waiting for %d workers: mxcheck worker --nats %s\n", cl.Workers, url)
	if err := waitForWorkers(nc, cl, p.args, stop, p.opt.Timeout); err != nil {
		closeAll()
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "mxcheck: %d workers joined\n", cl.Workers)
	return cl, closeAll, nil
}

// waitForWorkers answers join requests until cl.Workers have joined.
func waitForWorkers(nc *nats.Conn, cl *explore.Cluster, args []string, stop <-chan struct{}, timeout time.Duration) error {
	var mu sync.Mutex
	joined := 0
	all := make(chan struct{})
	sub, err := nc.Subscribe(joinSubject, func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		j := job{Run: cl.Run, Index: joined, Workers: cl.Workers, Args: args}
		if joined >= cl.Workers {
			j = job{Error: "the run has all its workers"}
		}
		b, _ := json.Marshal(j)
		if m.Respond(b) == nil && j.Error == "" {
			if joined++; joined == cl.Workers {
				close(all)
			}
		}
	})
	if err != nil {
		return err
	}
	defer func() { _ = sub.Unsubscribe() }()
	var deadline <-chan time.Time
	if timeout > 0 {
		deadline = time.After(timeout)
	}
	select {
	case <-all:
		return nil
	case <-stop:
		return errors.New("interrupted while waiting for workers")
	case <-deadline:
		return fmt.Errorf("timeout: %d of %d workers joined", joined, cl.Workers)
	}
}

// cmdWorker is `mxcheck worker --nats URL`: join a coordinator's run and
// serve it until it ends.
func cmdWorker(args []string, stdout, stderr io.Writer) (int, error) {
	fs := pflag.NewFlagSet("worker", pflag.ContinueOnError)
	url := fs.String("nats", "", "the coordinator's NATS server, e.g. nats://10.0.0.1:4222")
	wait := fs.Duration("wait", time.Minute, "how long to wait for the server and a coordinator")
	if help, err := parse(fs, args, stdout, "usage: mxcheck worker --nats URL\n\nJoins a distributed search (mxcheck check SPEC --distributed ...) and serves it until it ends."); help || err != nil {
		return exitOK, err
	}
	switch {
	case fs.NArg() > 0:
		return exitUsage, usagef("unexpected argument %q", fs.Arg(0))
	case *url == "":
		return exitUsage, usagef("worker needs --nats URL (the coordinator prints it)")
	case *wait <= 0:
		return exitUsage, usagef("--wait must be positive")
	}
	deadline := time.Now().Add(*wait)
	var nc *nats.Conn
	for {
		var err error
		if nc, err = nats.Connect(*url, nats.Name("mxcheck worker")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return exitUsage, fmt.Errorf("--nats %s: %v", *url, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	defer nc.Close()
	var j job
	for {
		m, err := nc.Request(joinSubject, nil, time.Second)
		if err == nil {
			if err := json.Unmarshal(m.Data, &j); err != nil {
				return exitUsage, fmt.Errorf("a coordinator sent a bad job: %v", err)
			}
			break
		}
		if time.Now().After(deadline) {
			return exitUsage, fmt.Errorf("no coordinator answered at %s within %s", *url, *wait)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if j.Error != "" {
		return exitUsage, fmt.Errorf("the coordinator refused: %s", j.Error)
	}
	if len(j.Args) == 0 {
		return exitUsage, errors.New("a coordinator sent an empty job")
	}
	p, _, err := prepareCheck(j.Args, io.Discard)
	if err != nil {
		return exitUsage, fmt.Errorf("the job does not parse here (same mxcheck version?): %v", err)
	}
	opt := p.opt
	opt.Workers = 1
	// The coordinator names the checkpoints to write and load.
	opt.Checkpoint, opt.Resume = "", ""
	chk, err := explore.New(p.sys, opt)
	if err != nil {
		return exitUsage, fmt.Errorf("the job: %v", err)
	}
	fmt.Fprintf(stderr, "mxcheck worker: worker %d of %d: check %s\n", j.Index, j.Workers, joinArgs(j.Args))
	if err := explore.ServeWorker(chk, nc, j.Run, j.Index, j.Workers); err != nil {
		fmt.Fprintf(stderr, "mxcheck worker: worker %d: %v\n", j.Index, err)
		return exitIncomplete, nil
	}
	fmt.Fprintf(stderr, "mxcheck worker: the run is over\n")
	return exitOK, nil
}

func joinArgs(args []string) string { return strings.Join(args, " ") }
