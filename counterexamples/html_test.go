package counterexamples

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/explore/htmlview"
	"github.com/mxcheck/mxcheck/specs"
)

// pageOf builds the trace page of a stored counterexample.
func pageOf(t *testing.T, path string) (*explore.ITFTrace, *htmlview.Page) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := explore.ReadITF(f)
	if err != nil {
		t.Fatal(err)
	}
	spec := specs.Lookup(tr.Meta.Spec)
	sys, _, err := spec.Compile(tr.Meta.Params)
	if err != nil {
		t.Fatal(err)
	}
	p, err := htmlview.FromITF(sys, tr, htmlview.Options{Command: "mxcheck replay " + path})
	if err != nil {
		t.Fatal(err)
	}
	return tr, p
}

// TestRenderAll renders every stored trace as an HTML page and checks it
// against the ITF file itself: as many rows as states, one lifeline per
// node, one arrow per message ever sent, as many in transit at the end as
// the last state lists, and no external URL.
func TestRenderAll(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".itf.json") {
			return err
		}
		n++
		t.Run(path, func(t *testing.T) {
			tr, p := pageOf(t, path)
			nodes := len(tr.States[0]["nodes"].([]any))
			if len(p.Nodes) != nodes || len(p.Steps) != len(tr.States) {
				t.Fatalf("page has %d nodes and %d states, trace %d and %d", len(p.Nodes), len(p.Steps), nodes, len(tr.States))
			}
			sent, open := messages(tr)
			transit := 0
			for _, a := range p.Arrows {
				if a.End < 0 {
					transit++
				}
			}
			if len(p.Arrows) != sent || transit != open {
				t.Errorf("page has %d arrows, %d still in transit; trace sends %d messages, %d left in transit", len(p.Arrows), transit, sent, open)
			}
			var b bytes.Buffer
			if err := htmlview.Write(&b, p); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			if c := strings.Count(html, `class="row`); c != len(tr.States) {
				t.Errorf("%d rows in the diagram, want %d", c, len(tr.States))
			}
			if c := strings.Count(html, `<line class="lifeline" data-node=`); c != nodes {
				t.Errorf("%d lifelines, want %d", c, nodes)
			}
			if c := strings.Count(html, `<g class="arrow`); c != sent {
				t.Errorf("%d arrows drawn, want %d", c, sent)
			}
			for _, bad := range []string{"http://", "https://", "src=", "<link"} {
				if i := strings.Index(strings.ReplaceAll(html, `xmlns="http://www.w3.org/2000/svg"`, ""), bad); i >= 0 {
					t.Errorf("page refers outside itself: %q", bad)
				}
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no stored counterexamples found")
	}
}

// messages counts, from the ITF states alone, the messages a trace sends
// (each copy that appears in a state's "msgs" and not in the previous one's)
// and those left in transit at the end.
func messages(tr *explore.ITFTrace) (sent, open int) {
	var prev []string
	for i, s := range tr.States {
		var cur []string
		for _, m := range s["msgs"].([]any) {
			cur = append(cur, m.(string))
		}
		count := map[string]int{}
		for _, m := range prev {
			count[m]++
		}
		for _, m := range cur {
			if count[m] > 0 {
				count[m]--
			} else {
				sent++
			}
		}
		prev = cur
		if i == len(tr.States)-1 {
			open = len(cur)
		}
	}
	return sent, open
}
