package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/specs"
)

const swarmReportHelp = `usage: mxcheck swarm-report DIR [flags]

Merges the member files DIR/member-I-of-N.json that mxcheck swarm wrote:
which members are present and missing, their states, and every violated
property with the members that found it and its shortest trace. A swarm
finds bugs and proves nothing: with no violation the report says how many
members found none, never "verified".

exit codes: 0 no violation found, 1 a violation found, 2 bad usage, or a
malformed member file, or members of different swarms in DIR`

var memberName = regexp.MustCompile(`^member-([0-9]+)-of-([0-9]+)\.json$`)

// swarmMember is a member file read from DIR.
type swarmMember struct {
	name string
	mf   *memberFile
}

func cmdSwarmReport(args []string, stdout, stderr io.Writer) (int, error) {
	fs := pflag.NewFlagSet("swarm-report", pflag.ContinueOnError)
	traceDir := fs.String("trace-out-all", "", "write the shortest trace of each violated property to this directory, one PROPERTY.itf.json each (for replay)")
	if help, err := parse(fs, args, stdout, swarmReportHelp); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		return exitUsage, usagef("swarm-report needs exactly one directory (the --out of the members)")
	}
	dir := fs.Arg(0)
	members, err := readMembers(dir)
	if err != nil {
		return exitUsage, err
	}
	first := members[0].mf
	spec := specs.Lookup(first.Spec)
	if spec == nil {
		return exitUsage, usagef("swarm-report %s: %s names an unknown spec %q", dir, members[0].name, first.Spec)
	}
	sys, _, err := spec.Compile(first.Params)
	if err != nil {
		return exitUsage, usagef("swarm-report %s: %s: %v", dir, members[0].name, err)
	}
	n := first.Swarm.Of
	if *traceDir != "" {
		if err := writableDir(*traceDir); err != nil {
			return exitUsage, usagef("--trace-out-all %s: %v", *traceDir, err)
		}
	}

	// Per property: the members that found it and the shortest trace
	// (fewest steps, then the lowest member).
	type found struct {
		prop     string
		members  []int
		shortest memberViolation
		by       int
	}
	byProp := map[string]*found{}
	var total, most int64
	mostBy, complete, withViolation := 0, 0, 0
	present := map[int]bool{}
	var b strings.Builder
	values := make(map[string]string, len(first.Params))
	for k, v := range first.Params {
		values[k] = v
	}
	fmt.Fprintf(&b, "swarm of %d: %s %s (%s storage, seed %s): %d of %d member files in %s\n",
		n, first.Spec, strings.Join(flagsOf(values), " "), first.Swarm.Storage, first.Swarm.Seed, len(members), n, dir)
	for _, m := range members {
		mf := m.mf
		present[mf.Index] = true
		total += mf.States
		if mf.States > most {
			most, mostBy = mf.States, mf.Index
		}
		if mf.Complete {
			complete++
		}
		if len(mf.Violations) > 0 {
			withViolation++
		}
		fmt.Fprintf(&b, "  member %d: %s; %d states, %d transitions, %.2fs\n", mf.Index, mf.outcome(), mf.States, mf.Transitions, mf.Seconds)
		for _, v := range mf.Violations {
			f := byProp[v.Property]
			if f == nil {
				f = &found{prop: v.Property, shortest: v, by: mf.Index}
				byProp[v.Property] = f
			} else if v.Length < f.shortest.Length {
				f.shortest, f.by = v, mf.Index
			}
			f.members = append(f.members, mf.Index)
		}
	}
	var missing []string
	for i := 0; i < n; i++ {
		if !present[i] {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "missing members: %s\n", strings.Join(missing, ", "))
	}
	fmt.Fprintf(&b, "states: %d over all members (they overlap), at most %d (member %d); %d of %d members ran to their end\n",
		total, most, mostBy, complete, len(members))

	props := sortedKeys(byProp)
	if len(props) > 0 {
		b.WriteString("violations:\n")
	}
	for _, p := range props {
		f := byProp[p]
		ms := make([]string, len(f.members))
		for i, m := range f.members {
			ms[i] = strconv.Itoa(m)
		}
		fmt.Fprintf(&b, "  %s: found by member%s %s of %d; shortest trace %d steps (member %d)\n",
			violationWhat(p, f.shortest.Kind), plural(len(ms)), strings.Join(ms, ", "), n, f.shortest.Length, f.by)
	}
	var werrs []string
	for _, p := range props {
		f := byProp[p]
		t, err := f.shortest.itf()
		if err != nil {
			return exitUsage, usagef("swarm-report %s: member %d: the trace of %s: %v", dir, f.by, p, err)
		}
		v, err := explore.ViolationOfITF(sys, t)
		if err != nil {
			return exitUsage, usagef("swarm-report %s: member %d: the trace of %s does not execute in this mxcheck: %v", dir, f.by, p, err)
		}
		fmt.Fprintf(&b, "\nshortest counterexample of %s (member %d):\n", p, f.by)
		var vb strings.Builder
		if err := explore.WriteViolation(&vb, v); err != nil {
			return exitUsage, err
		}
		b.WriteString(vb.String())
		if *traceDir != "" {
			path := filepath.Join(*traceDir, p+".itf.json")
			o, err := openOutput("--trace-out-all", path)
			if err == nil {
				err = o.commit(func(w io.Writer) error { return t.Write(w) })
			}
			if err != nil {
				werrs = append(werrs, err.Error())
			}
		}
	}
	if len(props) > 0 {
		fmt.Fprintf(&b, "VIOLATION FOUND by %d of %d members (a swarm finds bugs; it proves nothing)\n", withViolation, n)
	} else {
		fmt.Fprintf(&b, "no violation found by %d of %d members — not a proof", len(members), n)
		var why []string
		if len(missing) > 0 {
			why = append(why, fmt.Sprintf("%d member file%s missing", len(missing), plural(len(missing))))
		}
		if inc := len(members) - complete; inc > 0 {
			why = append(why, fmt.Sprintf("%d member%s incomplete", inc, plural(inc)))
		}
		if len(why) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(why, ", "))
		}
		b.WriteString("; mxcheck check gives a verdict\n")
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return exitUsage, err
	}
	for _, e := range werrs {
		fmt.Fprintf(stderr, "mxcheck: %s\n", e)
	}
	if len(props) > 0 {
		return exitViolated, nil
	}
	return exitOK, nil
}

// readMembers reads every member file of dir, in member order, and checks
// that they belong to one swarm: the same spec, parameters and swarm
// configuration, each file named after its member.
func readMembers(dir string) ([]swarmMember, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("swarm-report %s: %v", dir, unwrapPath(err))
	}
	var members []swarmMember
	for _, e := range entries {
		sm := memberName.FindStringSubmatch(e.Name())
		if sm == nil || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			return nil, usagef("swarm-report: %s: %v", path, unwrapPath(err))
		}
		mf, err := readMemberFile(f)
		f.Close()
		if err != nil {
			return nil, usagef("swarm-report: %s: %v", path, err)
		}
		if strconv.Itoa(mf.Index) != sm[1] || strconv.Itoa(mf.Swarm.Of) != sm[2] {
			return nil, usagef("swarm-report: %s holds member %d of %d", path, mf.Index, mf.Swarm.Of)
		}
		members = append(members, swarmMember{name: e.Name(), mf: mf})
	}
	if len(members) == 0 {
		return nil, usagef("swarm-report %s: no member files (member-I-of-N.json) in the directory", dir)
	}
	sort.Slice(members, func(i, j int) bool { return members[i].mf.Index < members[j].mf.Index })
	a := members[0]
	for _, m := range members[1:] {
		if d := swarmDifference(a.mf, m.mf); d != "" {
			return nil, usagef("swarm-report %s: %s and %s are members of different swarms (%s)", dir, a.name, m.name, d)
		}
	}
	return members, nil
}

// swarmDifference names the first thing that differs between two members'
// swarms ("" when they are of the same swarm).
func swarmDifference(a, b *memberFile) string {
	if a.Spec != b.Spec {
		return fmt.Sprintf("spec %s vs %s", a.Spec, b.Spec)
	}
	if !reflect.DeepEqual(a.Params, b.Params) {
		for _, k := range sortedKeys(union(a.Params, b.Params)) {
			if a.Params[k] != b.Params[k] {
				return fmt.Sprintf("--%s %q vs %q", k, a.Params[k], b.Params[k])
			}
		}
	}
	if a.Swarm != b.Swarm {
		var x, y map[string]any
		ja, _ := json.Marshal(a.Swarm)
		jb, _ := json.Marshal(b.Swarm)
		json.Unmarshal(ja, &x)
		json.Unmarshal(jb, &y)
		for _, k := range sortedKeys(union(x, y)) {
			if fmt.Sprint(x[k]) != fmt.Sprint(y[k]) {
				return fmt.Sprintf("%s %v vs %v", k, x[k], y[k])
			}
		}
	}
	return ""
}

func union[V any](a, b map[string]V) map[string]V {
	u := make(map[string]V, len(a)+len(b))
	for k, v := range a {
		u[k] = v
	}
	for k, v := range b {
		u[k] = v
	}
	return u
}

// flagsOf renders parameters as sorted --name=value flags.
func flagsOf(values map[string]string) []string {
	var out []string
	for _, k := range sortedKeys(values) {
		if values[k] != "" {
			out = append(out, "--"+k+"="+values[k])
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
