package explore

import "testing"

// TestOfferedCache: a fingerprint is a hit only when the very same one
// (both halves, with 128 bits) was put in its entry and not replaced.
func TestOfferedCache(t *testing.T) {
	for _, wide := range []bool{false, true} {
		c := newOfferedCache(wide)
		a := fingerprint{lo: 12345, hi: 7}
		if c.again(a) {
			t.Fatalf("wide=%v: a first offer is a hit", wide)
		}
		if !c.again(a) {
			t.Fatalf("wide=%v: a repeated offer is a miss", wide)
		}
		// Another fingerprint in the same entry replaces a.
		slot := func(f fingerprint) uint64 { return (f.lo * 0x9e3779b97f4a7c15) >> (64 - offeredCacheBits) }
		b := fingerprint{lo: a.lo + 1, hi: 7}
		for slot(b) != slot(a) {
			b.lo++
		}
		if c.again(b) {
			t.Fatalf("wide=%v: %x hits an entry holding %x", wide, b.lo, a.lo)
		}
		if c.again(a) {
			t.Fatalf("wide=%v: a hits after b replaced it", wide)
		}
		if wide {
			if c.again(fingerprint{lo: a.lo, hi: 8}) {
				t.Fatal("same low half, other high half: a hit")
			}
		}
	}
}
