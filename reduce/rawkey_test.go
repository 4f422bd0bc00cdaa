package reduce_test

import (
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/reduce"
)

// lossy is a counter whose encoding leaves its X out.
type lossy struct{ K, X uint8 }

func (c lossy) AppendKey(dst []byte) []byte { return append(dst, c.K) }

// ticker: every node counts K up to 2, and with touchX may also set X once,
// which the encoding does not see.
func ticker(raw, touchX bool) *model.Protocol[lossy, note] {
	return &model.Protocol[lossy, note]{
		Name:   "ticker",
		RawKey: raw,
		Init:   func(model.NodeID, *model.Config) lossy { return lossy{} },
		Actions: []model.Action[lossy, note]{
			{Name: "Tick", Guard: func(_ *model.Ctx[lossy, note], c *lossy) bool { return c.K < 2 },
				Do: func(_ *model.Ctx[lossy, note], c *lossy) { c.K++ }},
			{Name: "Mark", Guard: func(_ *model.Ctx[lossy, note], c *lossy) bool { return touchX && c.X == 0 },
				Do: func(_ *model.Ctx[lossy, note], c *lossy) { c.X = 7 }},
		},
	}
}

// drifting is a counter whose encoding also writes how many times it has
// been encoded: something outside the value, so equal bytes get
// different encodings.
type drifting struct{ K uint8 }

var encodings uint8

func (c drifting) AppendKey(dst []byte) []byte {
	encodings++
	return append(dst, c.K, encodings)
}

// CheckRawKey refuses a declaration whose encoding reads something besides
// the value: the bytes would merge states the encoding tells apart.
func TestCheckRawKeyEncodingOutsideValue(t *testing.T) {
	p := &model.Protocol[drifting, note]{
		Name:   "drifting",
		RawKey: true,
		Init:   func(model.NodeID, *model.Config) drifting { return drifting{} },
		Actions: []model.Action[drifting, note]{
			{Name: "Tick", Guard: func(_ *model.Ctx[drifting, note], c *drifting) bool { return c.K < 2 },
				Do: func(_ *model.Ctx[drifting, note], c *drifting) { c.K++ }},
		},
	}
	m, err := model.Compile(p, model.Config{Nodes: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := reduce.CheckRawKey(m, 0); err == nil || !strings.Contains(err.Error(), "same bytes have different encodings") {
		t.Errorf("got %v, want same bytes with different encodings", err)
	}
}

// CheckRawKey accepts a declaration that holds and refuses one whose
// encoding leaves out a field the protocol changes (the search would count
// states the encoding merges), and a system that does not declare it.
func TestCheckRawKey(t *testing.T) {
	for _, tc := range []struct {
		raw, touchX bool
		err         string
	}{
		{true, false, ""},
		{true, true, "same encoding have different bytes"},
		{false, false, "does not key states by their bytes"},
	} {
		m, err := model.Compile(ticker(tc.raw, tc.touchX), model.Config{Nodes: 2})
		if err != nil {
			t.Fatal(err)
		}
		err = reduce.CheckRawKey(m, 0)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("raw=%v touchX=%v: %v, want %q", tc.raw, tc.touchX, err, tc.err)
		}
	}
}
