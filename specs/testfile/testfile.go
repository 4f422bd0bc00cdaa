// Package testfile reads and writes mxcheck's test files: scenarios of a
// spec, each a command line with its pinned output below a separator, in
// the manner of etcd-io/raft's datadriven tests. specs/spectest runs them
// with every cross-check; `mxcheck suite` runs their check blocks and
// compares verdicts, so a configuration is written in exactly one place.
package testfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// Block is one command of a test file with its pinned output. A test file
// (specs/<name>/testdata/*.txt) is a list of blocks:
//
//	# Theorem 3 case 2: n1 does not know n0.
//	check ra --nodes=3 --missing=1:0 store=asymmetric-ignorance
//	----
//	violated distinct=1840 transitions=5202 depth=19
//	mutual-exclusion violated 10 steps
//	no-deadlock holds
//	first mutual-exclusion 10 steps: counterexamples/ra/asymmetric-ignorance.itf.json
//
// Comment lines (#) before a command describe it; a blank line ends the
// output. Commands:
//
//   - check SPEC FLAGS...: a BFS that checks every property (it continues
//     past violations), cross-checked against DFS, the parallel BFS, BFS
//     levels on disk and every reduction the spec supports; every trace
//     must replay. The output is the verdict, distinct states, transitions
//     and depth, then each property's status with the length of its
//     shortest counterexample. store=NAME also pins the first violation
//     (the one `mxcheck check` stops at) and its trace, stored as
//     counterexamples/SPEC/NAME.itf.json.
//   - trace SPEC FLAGS... store=NAME: the first violation of a BFS that
//     stops there, and its trace stored as above, for configurations too
//     large to explore to the end in every test run.
//   - liveness SPEC FLAGS...: lockout/starvation freedom under weak
//     fairness in both choice modes, one line each: the status, the size of
//     the liveness graph, and for a lasso the starving node, stem and loop.
//
// FLAGS are the spec's parameters as --name=value (or --name for a
// boolean). `mxcheck suite` runs the check blocks of the same files and
// compares their verdicts, so a configuration is written in one place.
type Block struct {
	// Line is the command's line number in the file.
	Line int
	// Comment holds the comment lines before the command, without "# ".
	Comment []string
	// Cmd is "check", "trace" or "liveness".
	Cmd string
	// Spec is the spec's name.
	Spec string
	// Params are the spec parameters given.
	Params model.Values
	// Flags are the parameter flags as written.
	Flags []string
	// Store names the stored counterexample (store=NAME), or "".
	Store string
	// Want is the pinned output, one line each.
	Want []string
}

// Command renders the block's command line.
func (b *Block) Command() string {
	parts := append([]string{b.Cmd, b.Spec}, b.Flags...)
	if b.Store != "" {
		parts = append(parts, "store="+b.Store)
	}
	return strings.Join(parts, " ")
}

// Verdict is the verdict a check or trace block pins, or "".
func (b *Block) Verdict() string {
	if b.Cmd == "trace" {
		return "violated"
	}
	if b.Cmd != "check" || len(b.Want) == 0 {
		return ""
	}
	v, _, _ := strings.Cut(b.Want[0], " ")
	return v
}

// IsTestFile reports whether data looks like a test file: it has a "----"
// separator line.
func IsTestFile(data []byte) bool {
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimRight(l, "\r") == "----" {
			return true
		}
	}
	return false
}

// ParseFile reads the blocks of a test file. The error names the line.
func ParseFile(r io.Reader) ([]Block, error) {
	var blocks []Block
	var comment []string
	sc := bufio.NewScanner(r)
	n := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		return line, true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			comment = nil
			continue
		case strings.HasPrefix(trimmed, "#"):
			comment = append(comment, strings.TrimSpace(strings.TrimPrefix(trimmed, "#")))
			continue
		}
		b, err := parseCommand(trimmed)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		b.Line, b.Comment, comment = n, comment, nil
		if sep, ok := next(); !ok || sep != "----" {
			return nil, fmt.Errorf("line %d: want ---- after the command", n)
		}
		for {
			out, ok := next()
			if !ok || strings.TrimSpace(out) == "" {
				break
			}
			b.Want = append(b.Want, out)
		}
		blocks = append(blocks, b)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(blocks) == 0 {
		return nil, fmt.Errorf("no commands")
	}
	return blocks, nil
}

func parseCommand(line string) (Block, error) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "check" && f[0] != "trace" && f[0] != "liveness" {
		return Block{}, fmt.Errorf("want `check|trace|liveness SPEC FLAGS...`")
	}
	b := Block{Cmd: f[0], Spec: f[1], Params: model.Values{}}
	for _, arg := range f[2:] {
		if name, ok := strings.CutPrefix(arg, "store="); ok && name != "" && !strings.ContainsAny(name, `/\`) {
			b.Store = name
			continue
		}
		flag, ok := strings.CutPrefix(arg, "--")
		if !ok {
			return Block{}, fmt.Errorf("unexpected %q (want --name=value or store=NAME)", arg)
		}
		name, value, hasValue := strings.Cut(flag, "=")
		if !hasValue {
			value = "true"
		}
		if _, dup := b.Params[name]; dup || name == "" {
			return Block{}, fmt.Errorf("flag %q given twice or empty", arg)
		}
		b.Params[name] = value
		b.Flags = append(b.Flags, arg)
	}
	if b.Cmd == "trace" && b.Store == "" {
		return Block{}, fmt.Errorf("trace needs store=NAME")
	}
	return b, nil
}

// FormatFile renders blocks as a test file.
func FormatFile(blocks []Block) []byte {
	var b bytes.Buffer
	for i, x := range blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, c := range x.Comment {
			b.WriteString(strings.TrimRight("# "+c, " ") + "\n")
		}
		fmt.Fprintf(&b, "%s\n----\n", x.Command())
		for _, w := range x.Want {
			b.WriteString(w + "\n")
		}
	}
	return b.Bytes()
}
