package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
)

// memberFormat and memberVersion mark a swarm member's result file.
const (
	memberFormat  = "mxcheck-swarm-member"
	memberVersion = 1
)

// maxMemberBytes bounds a member file swarm-report reads.
const maxMemberBytes = 256 << 20

// memberFile is a swarm member's result, DIR/member-I-of-N.json.
type memberFile struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Spec    string            `json:"spec"`
	Params  map[string]string `json:"params"`
	// Swarm is what every member of one swarm shares.
	Swarm swarmIdentity `json:"swarm"`
	// Limits may differ between members (a member re-run with more time).
	Limits     memberLimits       `json:"limits"`
	Index      int                `json:"index"`
	MemberSeed string             `json:"member_seed"`
	Order      explore.SwarmOrder `json:"order"`
	// Verdict is "violated" or "no-violation"; Complete says the search
	// visited every reachable state (exact storage, no limit, no stop at
	// a violation); Limit names what stopped an incomplete one.
	Verdict     string                   `json:"verdict"`
	Complete    bool                     `json:"complete"`
	Limit       string                   `json:"limit,omitempty"`
	States      int64                    `json:"states"`
	Transitions int64                    `json:"transitions"`
	Depth       int                      `json:"depth"`
	Seconds     float64                  `json:"seconds"`
	Properties  []explore.PropertyResult `json:"properties"`
	Bitstate    *explore.BitstateStats   `json:"bitstate,omitempty"`
	Violations  []memberViolation        `json:"violations"`
}

// swarmIdentity is the configuration every member of a swarm shares.
type swarmIdentity struct {
	Of           int    `json:"of"`
	Seed         string `json:"seed"`
	Storage      string `json:"storage"`
	BitstateBits int    `json:"bitstate_bits,omitempty"`
	NoDeadlock   bool   `json:"no_deadlock"`
	Continue     bool   `json:"continue"`
	POR          bool   `json:"por"`
	Symmetry     bool   `json:"symmetry"`
	Fingerprint  int    `json:"fingerprint"`
}

// memberLimits are a member's limits.
type memberLimits struct {
	MaxStates int    `json:"max_states"`
	MaxDepth  int    `json:"max_depth"`
	Timeout   string `json:"timeout"`
	MemoryMB  int    `json:"memory_mb"`
}

// memberViolation is one violation a member found; Trace is the ITF trace
// check --trace-out writes (replayable once written to a file of its own).
type memberViolation struct {
	Property string            `json:"property"`
	Kind     model.Expectation `json:"kind"`
	Length   int               `json:"length"`
	Trace    json.RawMessage   `json:"trace"`
}

func newMemberFile(spec string, values model.Values, sf swarmFlags, opt explore.Options, m explore.SwarmMember, res *explore.Result, info *explore.SwarmInfo) *memberFile {
	mf := &memberFile{
		Format: memberFormat, Version: memberVersion, Spec: spec, Params: values,
		Swarm: swarmIdentity{
			Of: m.Of, Seed: strconv.FormatUint(m.Seed, 10), Storage: m.Storage.String(), BitstateBits: m.BitstateBits,
			NoDeadlock: opt.NoDeadlock, Continue: opt.Continue, POR: opt.POR, Symmetry: opt.Symmetry, Fingerprint: opt.Fingerprint,
		},
		Limits:      memberLimits{MaxStates: opt.MaxStates, MaxDepth: opt.MaxDepth, Timeout: opt.Timeout.String(), MemoryMB: opt.MemoryMB},
		Index:       m.Index,
		MemberSeed:  fmt.Sprintf("%#016x", info.MemberSeed),
		Order:       info.Order,
		Verdict:     "no-violation",
		Complete:    res.Exhausted && m.Storage == explore.Exact,
		Limit:       res.Limit,
		States:      res.Stats.Distinct,
		Transitions: res.Stats.Transitions,
		Depth:       res.Stats.Depth,
		Seconds:     res.Stats.Elapsed.Seconds(),
		Properties:  res.Properties,
		Bitstate:    info.Bitstate,
		Violations:  []memberViolation{},
	}
	if len(res.Violations) > 0 {
		mf.Verdict = "violated"
	}
	for _, v := range res.Violations {
		var b bytes.Buffer
		if err := explore.NewITF(spec, values, v).Write(&b); err != nil {
			panic(err) // a trace of strings, numbers and maps always encodes
		}
		mf.Violations = append(mf.Violations, memberViolation{Property: v.Property, Kind: v.Kind, Length: v.Trace.Len(), Trace: bytes.TrimSpace(b.Bytes())})
	}
	return mf
}

// outcome says in one line what the member found.
func (mf *memberFile) outcome() string {
	if len(mf.Violations) > 0 {
		s := "VIOLATION found:"
		for _, v := range mf.Violations {
			s += fmt.Sprintf(" %s (%d steps)", v.Property, v.Length)
		}
		return s
	}
	switch {
	case mf.Complete:
		s := fmt.Sprintf("no violation found; the search ran to its end (%d states)", mf.States)
		for _, p := range mf.Properties {
			if p.Status == explore.NeverReached {
				s += "; sometimes " + p.Name + " held in no state"
			}
		}
		return s
	case mf.Limit == "bitstate":
		return "no violation found; INCOMPLETE (bitstate storage may have missed states)"
	}
	return "no violation found; INCOMPLETE (stopped by " + mf.Limit + ")"
}

func (mf *memberFile) write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(mf)
}

// readMemberFile parses and checks a member file: exactly one JSON object
// of known fields, of this format and version, each violation's trace a
// well-formed ITF trace of the member's spec and parameters.
func readMemberFile(r io.Reader) (*memberFile, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxMemberBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxMemberBytes {
		return nil, fmt.Errorf("larger than %d MiB", maxMemberBytes>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var mf memberFile
	if err := dec.Decode(&mf); err != nil {
		return nil, fmt.Errorf("not a swarm member file: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a swarm member file: data after the JSON object")
	}
	switch {
	case mf.Format != memberFormat:
		return nil, fmt.Errorf("not a swarm member file (format %q, want %q)", mf.Format, memberFormat)
	case mf.Version != memberVersion:
		return nil, fmt.Errorf("member file version %d, this mxcheck reads %d", mf.Version, memberVersion)
	case mf.Spec == "":
		return nil, errors.New("member file names no spec")
	case mf.Swarm.Of < 1 || mf.Index < 0 || mf.Index >= mf.Swarm.Of:
		return nil, fmt.Errorf("member %d of %d is not a member of a swarm", mf.Index, mf.Swarm.Of)
	case mf.Verdict != "violated" && mf.Verdict != "no-violation":
		return nil, fmt.Errorf("unknown verdict %q", mf.Verdict)
	case (mf.Verdict == "violated") != (len(mf.Violations) > 0):
		return nil, fmt.Errorf("verdict %q with %d violations", mf.Verdict, len(mf.Violations))
	}
	for _, v := range mf.Violations {
		t, err := explore.ReadITF(bytes.NewReader(v.Trace))
		if err != nil {
			return nil, fmt.Errorf("the trace of %s: %v", v.Property, err)
		}
		switch {
		case t.Meta.Spec != mf.Spec || !reflect.DeepEqual(t.Meta.Params, mf.Params) && !(len(t.Meta.Params) == 0 && len(mf.Params) == 0):
			return nil, fmt.Errorf("the trace of %s is of another configuration than the member", v.Property)
		case t.Meta.Property != v.Property || t.Meta.Kind != v.Kind || t.Meta.Length != v.Length:
			return nil, fmt.Errorf("the trace of %s does not match its entry (property, kind or length)", v.Property)
		}
	}
	return &mf, nil
}

// itf parses v's trace (already checked by readMemberFile).
func (v memberViolation) itf() (*explore.ITFTrace, error) {
	return explore.ReadITF(bytes.NewReader(v.Trace))
}
