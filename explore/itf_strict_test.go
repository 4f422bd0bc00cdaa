package explore

import (
	"io"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
)

// ReadITF stops reading at MaxITFBytes: a huge file is refused without
// being held in memory (it used to be read whole before any check).
func TestReadITFSizeLimit(t *testing.T) {
	huge := io.MultiReader(strings.NewReader(`{"vars": ["`), io.LimitReader(endless{}, MaxITFBytes+10))
	if _, err := ReadITF(huge); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("err = %v", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// Deeply nested input is refused in one line, not by exhausting the stack.
func TestReadITFDepthLimit(t *testing.T) {
	text := `{"#meta": {"params": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
	if _, err := ReadITF(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("err = %v", err)
	}
}

// A lasso replays only as a violation of the system's own liveness
// property: renamed, it is refused, whatever its states.
func TestReplayLivenessProperty(t *testing.T) {
	sys := named{&ltoy{init: []int{0}, hungry: hungry0(0), out: map[int][]ledge{0: {{to: 0, class: "spin"}}}, name: "lockout-freedom"}}
	r := run(sys, Options{Liveness: true})
	if len(r.Violations) != 1 {
		t.Fatalf("no lasso: %+v", r)
	}
	tr := mustReplayLasso(t, sys, r.Violations[0])
	tr.Meta.Property = "starvation-freedom"
	if res := Replay(sys, tr); res.Reproduced || !strings.Contains(res.Reason, "liveness property is lockout-freedom") {
		t.Errorf("renamed lasso: %+v", res)
	}
	tr.Meta.Property, tr.Meta.Kind = "lockout-freedom", model.NoDeadlock
	tr.Loop = nil
	if res := Replay(sys, tr); res.Reproduced {
		t.Errorf("lasso relabelled as a deadlock: %+v", res)
	}
}
