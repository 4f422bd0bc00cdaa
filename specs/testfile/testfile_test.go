package testfile

import (
	"strings"
	"testing"
)

// TestRoundTrip: a file parses into its blocks and formats back to itself.
func TestRoundTrip(t *testing.T) {
	text := "# why\n# more\ncheck ra --nodes=3 --missing=1:0 store=asym\n----\nviolated distinct=1\nmutual-exclusion violated 10 steps\n\nliveness ra --reuse\n----\nprobabilistic x holds graph=3\n"
	blocks, err := ParseFile(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Store != "asym" || blocks[0].Params["missing"] != "1:0" || blocks[0].Verdict() != "violated" ||
		blocks[0].Line != 3 || len(blocks[0].Comment) != 2 || blocks[1].Params["reuse"] != "true" || blocks[1].Verdict() != "" {
		t.Fatalf("parsed %+v", blocks)
	}
	if got := string(FormatFile(blocks)); got != text {
		t.Errorf("round trip:\n%s\nwant\n%s", got, text)
	}
}

// TestMalformed: each malformed file is one error naming the line.
func TestMalformed(t *testing.T) {
	for name, text := range map[string]string{
		"no-separator": "check ra\nverified\n",
		"bad-command":  "simulate ra\n----\nverified\n",
		"no-spec":      "check\n----\n",
		"bare-word":    "check ra nodes=3\n----\n",
		"dup-flag":     "check ra --nodes=3 --nodes=4\n----\n",
		"store-path":   "check ra store=../x\n----\n",
		"empty":        "# nothing\n",
	} {
		if _, err := ParseFile(strings.NewReader(text)); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line", name, err)
		}
	}
	if !IsTestFile([]byte("check ra\n----\n")) || IsTestFile([]byte("ra => verified\n")) {
		t.Error("IsTestFile")
	}
}
