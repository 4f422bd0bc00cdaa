package model

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseEdges: --topology edge lists never panic; what parses renders
// back to the same edges, and compiling a configuration with them either
// works or fails in one line.
func FuzzParseEdges(f *testing.F) {
	for _, s := range []string{"0.1-1.1", "0.1-1.2,1.1-2.1", "0. 1-1. 1", "", "255.255-0.0", "0.1-1.1,", "0.1-0.1", "2.1-2.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		edges, err := ParseEdges(text)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		var parts []string
		for _, e := range edges {
			parts = append(parts, fmt.Sprintf("%d.%d-%d.%d", e.U, e.P, e.V, e.Q))
		}
		again, err := ParseEdges(strings.Join(parts, ","))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(edges) {
			t.Fatalf("%q parsed to %v, which renders to %q and parses to %v (%v)", text, edges, strings.Join(parts, ","), again, err)
		}
		if _, err := Compile(toyProto(false, false), Config{Nodes: 3, Delta: 2, Edges: edges}); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("compile error is not one line: %q", err)
		}
	})
}
