package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/testfile"
)

// suiteRow is one line of a suite file: `SPEC FLAGS... => VERDICT`.
type suiteRow struct {
	file   string
	line   int
	spec   *model.Spec
	values model.Values
	opt    explore.Options
	flags  string
	want   explore.Verdict
	// symmetry as asked, and whether it was asked explicitly
	symmetry, symExplicit bool
}

// readSuite reads the rows of the suite or test file at path; the error is
// one line naming the file.
func readSuite(path string) ([]suiteRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("suite %s: cannot open the file: %v", path, unwrapPath(err))
	}
	defer f.Close()
	rows, err := parseSuite(f)
	if err != nil {
		return nil, usagef("suite %s: %v", path, err)
	}
	for i := range rows {
		rows[i].file = path
	}
	return rows, nil
}

// parseSuite reads a suite file: one row per line, `#` comments and blank
// lines ignored; or a spec's test file (specs/*/testdata/*.txt), whose check
// and trace blocks become rows expecting the verdict they pin. The error names the
// line.
func parseSuite(r io.Reader) ([]suiteRow, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if testfile.IsTestFile(data) {
		return suiteRowsOfTestFile(data)
	}
	var rows []suiteRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a byte-order mark
		}
		line := strings.TrimSpace(text)
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		lhs, want, ok := strings.Cut(line, "=>")
		if !ok {
			return nil, fmt.Errorf("line %d: want `SPEC FLAGS... => verified|violated|incomplete|unreached`", n)
		}
		row, err := suiteRowOf(n, strings.Fields(lhs), strings.TrimSpace(want))
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	return rows, nil
}

// suiteRowsOfTestFile turns the check blocks of a test file into rows.
func suiteRowsOfTestFile(data []byte) ([]suiteRow, error) {
	blocks, err := testfile.ParseFile(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var rows []suiteRow
	for _, b := range blocks {
		if b.Verdict() == "" {
			continue // liveness: not a verdict of check
		}
		row, err := suiteRowOf(b.Line, append([]string{b.Spec}, b.Flags...), b.Verdict())
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no check commands")
	}
	return rows, nil
}

// suiteRowOf parses one row: the spec, its flags, the expected verdict.
func suiteRowOf(n int, fields []string, want string) (suiteRow, error) {
	if len(fields) == 0 {
		return suiteRow{}, fmt.Errorf("line %d: no spec", n)
	}
	spec := lookupSpec(fields[0])
	if spec == nil {
		return suiteRow{}, fmt.Errorf("line %d: unknown spec %q", n, fields[0])
	}
	row := suiteRow{line: n, spec: spec, flags: strings.Join(fields[1:], " ")}
	switch want {
	case "verified":
		row.want = explore.Verified
	case "violated":
		row.want = explore.Violated
	case "incomplete":
		row.want = explore.Incomplete
	case "unreached":
		row.want = explore.Unreached
	default:
		return suiteRow{}, fmt.Errorf("line %d: unknown verdict %q", n, want)
	}
	fs := pflag.NewFlagSet("suite", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var cf checkFlags
	cf.register(fs)
	get, err := specFlags(fs, spec)
	if err != nil {
		return suiteRow{}, err
	}
	if err := fs.Parse(fields[1:]); err != nil {
		return suiteRow{}, fmt.Errorf("line %d: %v", n, err)
	}
	if err := suiteRowFlagsOK(fs); err != nil {
		return suiteRow{}, fmt.Errorf("line %d: %v", n, err)
	}
	row.values = get()
	row.opt, err = cf.options()
	if err != nil {
		return suiteRow{}, fmt.Errorf("line %d: %v", n, err)
	}
	row.symmetry, row.symExplicit = cf.symmetry, fs.Changed("symmetry")
	return row, nil
}

func cmdSuite(args []string, stdout io.Writer) (int, error) {
	fs := pflag.NewFlagSet("suite", pflag.ContinueOnError)
	jobs := fs.Int("jobs", 1, "rows checked at once, one core each (0: one per core); the table keeps the file's order")
	if help, err := parse(fs, args, stdout, "usage: mxcheck suite FILE... [--jobs N]\n\nRuns every row `SPEC FLAGS... => VERDICT` of each FILE (or every check\nand trace command of a spec's test file) and prints one table:\nverdict, distinct states and shortest counterexample length per row, each\nrow as soon as it and the rows above it are done.\nExit 0 when every verdict is as expected, 1 when one is not, 3 when\nCtrl-C stopped rows first (marked INCOMPLETE), 2 for a bad file."); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() < 1 {
		return exitUsage, usagef("suite needs a suite or test file")
	}
	if *jobs < 0 {
		return exitUsage, usagef("--jobs must be at least 0, got %d", *jobs)
	}
	if *jobs == 0 {
		*jobs = runtime.NumCPU()
	}
	var rows []suiteRow
	for _, path := range fs.Args() {
		more, err := readSuite(path)
		if err != nil {
			return exitUsage, err
		}
		rows = append(rows, more...)
	}
	// Build every row before checking any, so a bad row is reported before
	// hours of work rather than after.
	stop, release := suiteInterrupt(os.Stderr)
	defer release()
	checkers := make([]*explore.Checker, len(rows))
	for i, row := range rows {
		row.opt.Interrupt = stop
		sys, _, err := row.spec.Compile(row.values)
		if err != nil {
			return exitUsage, usagef("suite %s:%d: %v", row.file, row.line, err)
		}
		row.opt.Symmetry = symmetryFor(sys, row.symmetry, row.symExplicit)
		if checkers[i], err = explore.New(sys, row.opt); err != nil {
			return exitUsage, usagef("suite %s:%d: %v", row.file, row.line, err)
		}
	}
	results := make([]chan *explore.Result, len(rows))
	for i := range results {
		results[i] = make(chan *explore.Result, 1)
	}
	go func() {
		slots := make(chan struct{}, *jobs)
		for i := range checkers {
			slots <- struct{}{}
			go func() {
				results[i] <- runRow(checkers[i], stop, rows[i].spec.Name)
				<-slots
			}()
		}
	}()
	if _, err := fmt.Fprintf(stdout, "%-8s %-44s %-10s %-10s %10s %6s  %s\n", "spec", "flags", "expected", "verdict", "distinct", "steps", "first violation"); err != nil {
		return exitUsage, err
	}
	bad, interrupted := 0, 0
	for i, row := range rows {
		res := <-results[i]
		steps, first := "-", "-"
		if len(res.Violations) > 0 {
			steps = fmt.Sprint(res.Violations[0].Trace.Len())
			first = res.Violations[0].Property
		} else if names := unreachedNames(res); len(names) > 0 {
			first = "unreached: " + strings.Join(names, ",")
		}
		mark := ""
		switch {
		case strings.HasPrefix(res.Limit, panicLimit):
			mark = "  PANIC " + strings.TrimPrefix(res.Limit, panicLimit)
			bad++
		case res.Limit == "interrupt" && row.want != explore.Incomplete:
			mark = "  INCOMPLETE (interrupted)"
			interrupted++
		case res.Verdict != row.want:
			mark = "  MISMATCH"
			bad++
		}
		if _, err := fmt.Fprintf(stdout, "%-8s %-44s %-10s %-10s %10d %6s  %s%s\n", row.spec.Name, row.flags, row.want, res.Verdict, res.Stats.Distinct, steps, first, mark); err != nil {
			return exitUsage, err
		}
	}
	summary := fmt.Sprintf("%d rows, %d as expected, %d mismatched", len(rows), len(rows)-bad-interrupted, bad)
	if interrupted > 0 {
		summary += fmt.Sprintf(", %d interrupted", interrupted)
	}
	if _, err := fmt.Fprintln(stdout, summary); err != nil {
		return exitUsage, err
	}
	switch {
	case bad > 0:
		return exitViolated, nil
	case interrupted > 0:
		return exitIncomplete, nil
	}
	return exitOK, nil
}

// unreachedNames are the sometimes properties res found unreached.
func unreachedNames(res *explore.Result) []string {
	var out []string
	for _, p := range res.Properties {
		if p.Status == explore.NeverReached {
			out = append(out, p.Name)
		}
	}
	return out
}
