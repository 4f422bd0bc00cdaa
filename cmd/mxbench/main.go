// Command mxbench measures the search engine: for each benchmark
// configuration it runs `mxcheck check` as a separate process with 1 and
// with 2 workers, alternating, several times, and prints the distinct
// states, median wall time, states/s, the speedup of 2 workers over 1,
// peak RSS and the seen-set + parent-link bytes per state; then where a
// speedup short of the worker count goes: the processor time the run took
// against the baseline's (cpu x, the median of the rounds' ratios: more
// work, or the same work slowed by the other core) and how busy its
// workers were (busy: processor time over workers × wall time, the
// median of the runs; what is left is waiting). In one round, speedup =
// workers × busy / cpu x.
//
// Each round runs every worker count once, in turn, the order reversed
// every other round; the speedup is the median over the rounds of each
// round's ratio (the baseline's time over this one's), with the least and
// greatest of those ratios beside it. Runs next to each other see the
// same machine: the ratio of one round moves less with the machine's
// drift than a ratio of medians taken over all of them.
//
// Before each round and after the last it reads how far apart two cores
// are (coreDistance: the time a cache line takes between them), and after
// each benchmark it prints that distance's range and the speedup of the
// rounds whose two readings were both near (at most -near), both far, or
// neither. On a virtual machine the host moves the virtual processors,
// and the workers of a shared search, which exchange many cache lines,
// are slower when theirs are far apart.
//
//	go run ./cmd/mxbench [-mxcheck bin/mxcheck] [-runs 5] [-workers 1,2] [-near 100ns] [NAME...]
//
// `make bench` runs it. Timings on a shared machine are noisy: read the
// medians and the ratios, never a single run.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// config is one benchmark: a name and the check command's arguments.
type config struct {
	name string
	args []string
}

var configs = []config{
	{"ra-n4", []string{"ra", "--nodes", "4"}},
	{"lme-n3-path", []string{"lme", "--nodes", "3", "--continue", "--symmetry=false"}},
	{"lme-n3-path-sym", []string{"lme", "--nodes", "3", "--continue", "--symmetry"}},
}

// sample is one run.
type sample struct {
	wall     time.Duration
	cpu      time.Duration // user and system time of the process
	rssKB    int64
	distinct int64
	perState float64
	verdict  string
}

func main() {
	bin := flag.String("mxcheck", "bin/mxcheck", "the mxcheck binary to measure")
	runs := flag.Int("runs", 5, "runs per configuration and worker count")
	workers := flag.String("workers", "1,2", "worker counts to compare (the first is the baseline)")
	nearLimit := flag.Duration("near", 100*time.Nanosecond, "the greatest core distance (one-way cache-line trip) counted as near")
	flag.Parse()
	var ws []int
	for _, f := range strings.Split(*workers, ",") {
		w, err := strconv.Atoi(f)
		if err != nil || w < 1 {
			fmt.Fprintf(os.Stderr, "mxbench: bad worker count %q\n", f)
			os.Exit(2)
		}
		ws = append(ws, w)
	}
	if *nearLimit <= 0 {
		fmt.Fprintln(os.Stderr, "mxbench: -near must be positive")
		os.Exit(2)
	}
	if *runs < 1 {
		fmt.Fprintln(os.Stderr, "mxbench: -runs must be at least 1")
		os.Exit(2)
	}
	if _, err := os.Stat(*bin); err != nil {
		fmt.Fprintf(os.Stderr, "mxbench: %v (make build)\n", err)
		os.Exit(2)
	}
	chosen := configs
	if flag.NArg() > 0 {
		chosen = nil
		for _, n := range flag.Args() {
			i := slices.IndexFunc(configs, func(c config) bool { return c.name == n })
			if i < 0 {
				fmt.Fprintf(os.Stderr, "mxbench: unknown benchmark %q\n", n)
				os.Exit(2)
			}
			chosen = append(chosen, configs[i])
		}
	}
	fmt.Printf("%-16s %7s %11s %9s %12s %8s %13s %9s %8s %9s %7s %6s\n", "benchmark", "workers", "distinct", "median s", "states/s", "speedup", "range", "peak MiB", "RSS x", "B/state", "cpu x", "busy")
	for _, c := range chosen {
		samples, dist, err := measure(*runs, ws, func(w int) (sample, error) { return runOnce(*bin, c.args, w) },
			func() time.Duration { return coreDistance(distanceTrips) })
		if err != nil {
			fmt.Fprintf(os.Stderr, "mxbench: %s %v\n", c.name, err)
			os.Exit(1)
		}
		baseRSS := median(samples[0], func(s sample) float64 { return float64(s.rssKB) })
		for i, w := range ws {
			ss := samples[i]
			wall := median(ss, func(s sample) float64 { return s.wall.Seconds() })
			rss := median(ss, func(s sample) float64 { return float64(s.rssKB) })
			sp, lo, hi := speedup(samples[0], ss)
			fmt.Printf("%-16s %7d %11d %9.2f %12.0f %7.2fx %13s %9.0f %7.2fx %9.1f %6.2fx %5.0f%%\n", c.name, w, ss[0].distinct, wall,
				float64(ss[0].distinct)/wall, sp, fmt.Sprintf("%.2f–%.2f", lo, hi), rss/1024, rss/baseRSS, ss[0].perState,
				work(samples[0], ss), 100*busy(ss, w))
		}
		for i, w := range ws[1:] {
			fmt.Printf("  %s\n", distanceLine(c.name, w, samples[0], samples[i+1], dist, *nearLimit))
		}
	}
}

// distanceLine says how far apart the cores were over a benchmark's rounds
// and what speedup the near, far and mixed rounds had (byDistance).
func distanceLine(name string, w int, base, ss []sample, dist []time.Duration, limit time.Duration) string {
	var read []time.Duration
	for _, d := range dist {
		if d > 0 {
			read = append(read, d)
		}
	}
	if len(read) == 0 {
		return fmt.Sprintf("%s, %d workers: core distance not measured (fewer than 2 processors, or the two threads never ran at once)", name, w)
	}
	line := fmt.Sprintf("%s, %d workers: cores %d–%d ns apart;", name, w, slices.Min(read).Nanoseconds(), slices.Max(read).Nanoseconds())
	near, far, mixed := byDistance(base, ss, dist, limit)
	for _, g := range []struct {
		what string
		r    []float64
	}{{fmt.Sprintf("near (≤ %v)", limit), near}, {"far", far}, {"mixed", mixed}} {
		if len(g.r) > 0 {
			line += fmt.Sprintf(" %s %.2fx in %d rounds,", g.what, medianOf(g.r), len(g.r))
		}
	}
	return strings.TrimSuffix(line, ",")
}

// measure runs rounds rounds of run, each with every worker count of ws
// once, in turn, the order reversed every other round (so that neither
// count always runs first, after the other's exit), and returns the
// samples by worker count, in round order, and probe's readings: one
// before each round and one after the last (none for a nil probe).
func measure(rounds int, ws []int, run func(w int) (sample, error), probe func() time.Duration) ([][]sample, []time.Duration, error) {
	samples := make([][]sample, len(ws))
	var dist []time.Duration
	read := func() {
		if probe != nil {
			dist = append(dist, probe())
		}
	}
	for r := 0; r < rounds; r++ {
		read()
		for k := range ws {
			i := k
			if r%2 == 1 {
				i = len(ws) - 1 - k
			}
			s, err := run(ws[i])
			if err != nil {
				return nil, nil, fmt.Errorf("workers=%d: %v", ws[i], err)
			}
			samples[i] = append(samples[i], s)
		}
	}
	read()
	return samples, dist, nil
}

// speedup is the median over the rounds of base's wall time over ss's in
// the same round, and the least and greatest of those ratios.
func speedup(base, ss []sample) (med, lo, hi float64) {
	r := ratios(base, ss)
	return medianOf(r), slices.Min(r), slices.Max(r)
}

// ratios is, for each round, base's wall time over ss's.
func ratios(base, ss []sample) []float64 {
	return perRound(base, ss, func(b, s sample) float64 { return b.wall.Seconds() / s.wall.Seconds() })
}

// perRound is f of base's and ss's samples of each round.
func perRound(base, ss []sample, f func(b, s sample) float64) []float64 {
	r := make([]float64, len(ss))
	for i := range ss {
		r[i] = f(base[i], ss[i])
	}
	return r
}

// work is the median over the rounds of ss's processor time over base's
// in the same round.
func work(base, ss []sample) float64 {
	return medianOf(perRound(base, ss, func(b, s sample) float64 { return s.cpu.Seconds() / b.cpu.Seconds() }))
}

// busy is the median over ss of the processor time over w workers' wall
// time: the share of the time the workers were running.
func busy(ss []sample, w int) float64 {
	return median(ss, func(s sample) float64 { return s.cpu.Seconds() / (float64(w) * s.wall.Seconds()) })
}

// runOnce runs one check and measures it.
func runOnce(bin string, args []string, workers int) (sample, error) {
	cmd := exec.Command(bin, append(append([]string{"check"}, args...), "--workers", strconv.Itoa(workers), "--json", "--quiet")...)
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		return sample{}, err
	}
	var r struct {
		Verdict string `json:"verdict"`
		Stats   struct {
			Distinct      int64   `json:"distinct"`
			BytesPerState float64 `json:"bytes_per_state"`
		} `json:"stats"`
	}
	if jerr := json.Unmarshal(out, &r); jerr != nil {
		return sample{}, fmt.Errorf("%v; output: %.200s", jerr, out)
	}
	s := sample{wall: wall, distinct: r.Stats.Distinct, perState: r.Stats.BytesPerState, verdict: r.Verdict}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKB = ru.Maxrss
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return s, nil
}

// median of f over ss.
func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}
