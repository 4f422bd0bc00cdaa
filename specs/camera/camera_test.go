package camera_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/model"
	"github.com/mxcheck/mxcheck/specs/camera"
	"github.com/mxcheck/mxcheck/specs/spectest"
)

// TestFiles runs the pinned scenarios of testdata/ (make golden rewrites
// them).
func TestFiles(t *testing.T) { spectest.Files(t, camera.Spec, "testdata") }

// placements returns every set of k missing entries (i:j, i≠j) on n nodes,
// as --missing values, keeping one representative per orbit under node
// renaming when orbits is set.
func placements(n, k int, orbits bool) []string {
	var arcs [][2]int
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				arcs = append(arcs, [2]int{i, j})
			}
		}
	}
	var perms [][]int
	var permute func(p []int, used int)
	permute = func(p []int, used int) {
		if len(p) == n {
			perms = append(perms, append([]int(nil), p...))
			return
		}
		for x := 0; x < n; x++ {
			if used&(1<<x) == 0 {
				permute(append(p, x), used|1<<x)
			}
		}
	}
	permute(nil, 0)
	key := func(sel [][2]int, p []int) string {
		var m uint64
		for _, a := range sel {
			m |= 1 << (p[a[0]]*n + p[a[1]])
		}
		return fmt.Sprint(m)
	}
	seen := map[string]bool{}
	var out []string
	var choose func(start int, sel [][2]int)
	choose = func(start int, sel [][2]int) {
		if len(sel) == k {
			if orbits {
				if seen[key(sel, perms[0])] {
					return
				}
				for _, p := range perms {
					seen[key(sel, p)] = true
				}
			}
			var parts []string
			for _, a := range sel {
				parts = append(parts, fmt.Sprintf("%d:%d", a[0], a[1]))
			}
			out = append(out, strings.Join(parts, ","))
			return
		}
		for i := start; i < len(arcs); i++ {
			choose(i+1, append(sel, arcs[i]))
		}
	}
	choose(0, nil)
	return out
}

// checkPlacements asserts that Camera is safe and deadlock-free on every
// placement of 1–2 missing entries on n nodes where MFP holds.
func checkPlacements(t *testing.T, n int, orbits bool) {
	for k := 1; k <= 2; k++ {
		for _, missing := range placements(n, k, orbits) {
			sys, v := spectest.Build(t, camera.Spec, model.Values{"nodes": fmt.Sprint(n), "missing": missing})
			if notes := sys.(model.Noter).Notes(); !strings.Contains(notes[0], "holds") {
				t.Logf("--missing=%s: MFP fails, skipped: %s", missing, notes[0])
				continue
			}
			r := spectest.Run(t, sys, explore.Options{Continue: true})
			t.Logf("%s: %s distinct=%d", strings.Join(v.Flags(camera.Spec), " "), r.Verdict, r.Stats.Distinct)
			if r.Verdict != explore.Verified {
				t.Errorf("--nodes=%d --missing=%s: %s %v", n, missing, r.Verdict, r.Properties)
			}
		}
	}
}

// TestPlacementsN3 enumerates every placement of 1–2 missing entries on
// N=3 (6 + 15 configurations; MFP holds in all of them).
func TestPlacementsN3(t *testing.T) { checkPlacements(t, 3, false) }

// TestPlacementsN4 does the same on N=4, one placement per orbit under
// node renaming (the protocol treats ids alike but for tie-breaks, so the
// orbit representative is not a proof for the whole orbit). Every one of the
// 78 placements is checked by specs/camera-n4.suite (make camera-n4, about
// 2 hours on 2 cores; TestN4Suite keeps that file complete). This test has
// its own switch and make check-all does not run it: MXCHECK_CAMERA_N4=1.
func TestPlacementsN4(t *testing.T) {
	if os.Getenv("MXCHECK_CAMERA_N4") == "" {
		t.Skip("set MXCHECK_CAMERA_N4=1 to run (about 30 minutes on 2 cores)")
	}
	checkPlacements(t, 4, true)
}

// TestN4Suite: specs/camera-n4.suite lists every placement of one or two
// missing entries on N=4, each expected verified, and the Mutual Friend
// Property holds in each (so Theorem 1 promises safety there).
func TestN4Suite(t *testing.T) {
	text, err := os.ReadFile("../camera-n4.suite")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, line := range strings.Split(string(text), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		var missing string
		if _, err := fmt.Sscanf(line, "camera --nodes=4 --missing=%s --continue => verified", &missing); err != nil {
			t.Fatalf("unexpected row %q: %v", line, err)
		}
		got[missing] = true
		sys, _ := spectest.Build(t, camera.Spec, model.Values{"nodes": "4", "missing": missing})
		if note := sys.(model.Noter).Notes()[0]; !strings.HasPrefix(note, "mutual-friend-property: holds") {
			t.Errorf("--missing=%s: %s", missing, note)
		}
	}
	want := append(placements(4, 1, false), placements(4, 2, false)...)
	if len(want) != 78 {
		t.Fatalf("%d placements, want 12 + 66", len(want))
	}
	for _, m := range want {
		if !got[m] {
			t.Errorf("camera-n4.suite lacks --missing=%s", m)
		}
	}
	if len(got) != len(want) {
		t.Errorf("camera-n4.suite has %d rows, want %d", len(got), len(want))
	}
}

// TestNotes checks the reported preconditions.
func TestNotes(t *testing.T) {
	for _, c := range []struct {
		params model.Values
		want   []string
	}{
		{model.Values{}, []string{"mutual-friend-property: holds", "strongly-connected: holds"}},
		{model.Values{"nodes": "4", "missing": "0:1,0:3,1:0,1:2"}, []string{"mutual-friend-property: fails for n0 and n1", "strongly-connected: holds"}},
		{model.Values{"missing": "0:1,0:2"}, []string{"mutual-friend-property: holds", "strongly-connected: fails (n0 cannot reach n1"}},
	} {
		sys, _ := spectest.Build(t, camera.Spec, c.params)
		notes := sys.(model.Noter).Notes()
		for i, w := range c.want {
			if !strings.HasPrefix(notes[i], w) {
				t.Errorf("%v: note %q, want prefix %q", c.params, notes[i], w)
			}
		}
	}
}
