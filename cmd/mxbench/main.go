// Command mxbench measures the search engine: for each benchmark
// configuration it runs `mxcheck check` as a separate process with 1 and
// with 2 workers, alternating, several times, and prints the distinct
// states, median wall time, states/s, the speedup of 2 workers over 1
// (medians taken in the same run, so both see the same machine), peak RSS
// and the seen-set + parent-link bytes per state.
//
//	go run ./cmd/mxbench [-mxcheck bin/mxcheck] [-runs 5] [-workers 1,2] [NAME...]
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
	rssKB    int64
	distinct int64
	perState float64
	verdict  string
}

func main() {
	bin := flag.String("mxcheck", "bin/mxcheck", "the mxcheck binary to measure")
	runs := flag.Int("runs", 5, "runs per configuration and worker count")
	workers := flag.String("workers", "1,2", "worker counts to compare (the first is the baseline)")
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
	fmt.Printf("%-16s %7s %11s %9s %12s %8s %9s %8s %9s\n", "benchmark", "workers", "distinct", "median s", "states/s", "speedup", "peak MiB", "RSS x", "B/state")
	for _, c := range chosen {
		samples := make([][]sample, len(ws))
		for r := 0; r < *runs; r++ {
			for i, w := range ws {
				s, err := runOnce(*bin, c.args, w)
				if err != nil {
					fmt.Fprintf(os.Stderr, "mxbench: %s workers=%d: %v\n", c.name, w, err)
					os.Exit(1)
				}
				samples[i] = append(samples[i], s)
			}
		}
		base := median(samples[0], func(s sample) float64 { return s.wall.Seconds() })
		baseRSS := median(samples[0], func(s sample) float64 { return float64(s.rssKB) })
		for i, w := range ws {
			ss := samples[i]
			wall := median(ss, func(s sample) float64 { return s.wall.Seconds() })
			rss := median(ss, func(s sample) float64 { return float64(s.rssKB) })
			fmt.Printf("%-16s %7d %11d %9.2f %12.0f %7.2fx %9.0f %7.2fx %9.1f\n", c.name, w, ss[0].distinct, wall,
				float64(ss[0].distinct)/wall, base/wall, rss/1024, rss/baseRSS, ss[0].perState)
		}
	}
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
