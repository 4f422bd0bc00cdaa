package model

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand"
	"testing"
)

// refHash is foldHash written plainly, with byte-slice reads: the
// definition the fast version must match.
func refHash(b []byte) uint64 {
	n := len(b)
	le := binary.LittleEndian.Uint64
	le32 := func(i int) uint64 { return uint64(binary.LittleEndian.Uint32(b[i:])) }
	seed := uint64(fold0)
	var x, y uint64
	switch {
	case n >= 16:
		rest := b
		if len(rest) > 48 {
			s1, s2 := seed, seed
			for len(rest) > 48 {
				seed = fold(le(rest[0:])^fold1, le(rest[8:])^seed)
				s1 = fold(le(rest[16:])^fold2, le(rest[24:])^s1)
				s2 = fold(le(rest[32:])^fold3, le(rest[40:])^s2)
				rest = rest[48:]
			}
			seed ^= s1 ^ s2
		}
		for len(rest) > 16 {
			seed = fold(le(rest[0:])^fold1, le(rest[8:])^seed)
			rest = rest[16:]
		}
		x, y = le(b[n-16:]), le(b[n-8:])
	case n >= 4:
		m := n / 8 * 4
		x = le32(0)<<32 | le32(m)
		y = le32(n-4)<<32 | le32(n-4-m)
	case n > 0:
		x = uint64(b[0])<<16 | uint64(b[n/2])<<8 | uint64(b[n-1])
	}
	hi, lo := bits.Mul64(x^fold1, y^seed)
	return fold(lo^fold0^uint64(n), hi^fold1)
}

// TestFingerprintMatchesDefinition checks the fast hash against refHash on
// every length up to 300, at every alignment of the input.
func TestFingerprintMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	buf := make([]byte, 320)
	for n := 0; n <= 300; n++ {
		for off := 0; off < 8; off++ {
			rng.Read(buf)
			b := buf[off : off+n]
			if got, want := foldHash(b), refHash(b); got != want {
				t.Fatalf("length %d at offset %d: %#x, definition says %#x", n, off, got, want)
			}
		}
	}
}

// TestFingerprintFixed pins the function: fingerprints are written to
// checkpoints and sent between machines, so a change must be deliberate
// (and change the checkpoint format's version).
func TestFingerprintFixed(t *testing.T) {
	seq := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}
	var got []string
	for _, n := range []int{0, 1, 3, 4, 15, 16, 17, 48, 49, 146} {
		got = append(got, fmt.Sprintf("%d:%#x", n, Fingerprint(seq(n))))
	}
	want := "[0:0x60c06e5aa6716029 1:0xf8902a114de5daeb 3:0xa99ecbc681865ed 4:0x5b1cfaf7c2b74eb9 15:0xb77b706951764624 16:0xba1fabd6e34dab5c 17:0x6a4737f7313273e8 48:0xf862512a1c513e0c 49:0xc58105bf8cfc4ea5 146:0x3cf225e4a98b59c2]"
	if s := fmt.Sprint(got); s != want {
		t.Errorf("fingerprints changed:\n got %s\nwant %s", s, want)
	}
	if Fingerprint(nil) == 0 || Fingerprint([]byte("x")) == Fingerprint([]byte("y")) {
		t.Error("fingerprint is 0 or does not tell x from y")
	}
}

// TestFingerprintAvalanche flips each bit of keys that are mostly zero bytes
// (as state encodings are; short keys are random, to be many distinct
// ones): every output bit must flip about half the time.
func TestFingerprintAvalanche(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, n := range []int{1, 3, 5, 8, 12, 16, 31, 146} {
		const keys = 400
		var flips [64]int
		total := 0
		for k := 0; k < keys; k++ {
			b := make([]byte, n)
			for i := range b {
				if n < 8 {
					b[i] = byte(rng.Intn(256)) // few keys: make them distinct
				} else if rng.Intn(4) == 0 {
					b[i] = byte(rng.Intn(4))
				}
			}
			h := Fingerprint(b)
			for bit := 0; bit < 8*n; bit++ {
				b[bit/8] ^= 1 << (bit % 8)
				d := h ^ Fingerprint(b)
				b[bit/8] ^= 1 << (bit % 8)
				for o := 0; o < 64; o++ {
					flips[o] += int(d >> o & 1)
				}
				total++
			}
		}
		for o, f := range flips {
			if p := float64(f) / float64(total); p < 0.45 || p > 0.55 {
				t.Errorf("length %d: output bit %d flips with probability %.3f", n, o, p)
			}
		}
	}
}

// TestFingerprintNoCollisions hashes every key that differs from a zero
// 146-byte key in at most two bytes' small values (the shape of a search's
// states): none of the 64-bit fingerprints may collide, nor their low 24
// bits fill a table unevenly.
func TestFingerprintNoCollisions(t *testing.T) {
	const n = 146
	seen := make(map[uint64][2]int)
	var buckets [1 << 12]int
	b := make([]byte, n)
	count := 0
	add := func(id [2]int) {
		h := Fingerprint(b)
		if prev, ok := seen[h]; ok {
			t.Fatalf("keys %v and %v share fingerprint %#x", prev, id, h)
		}
		seen[h] = id
		buckets[h&(1<<12-1)]++
		count++
	}
	for i := 0; i < n; i++ {
		for v := 1; v < 8; v++ {
			b[i] = byte(v)
			add([2]int{i*8 + v, 0})
			for j := i + 1; j < n; j++ {
				for w := 1; w < 8; w++ {
					b[j] = byte(w)
					add([2]int{i*8 + v, j*8 + w})
				}
				b[j] = 0
			}
		}
		b[i] = 0
	}
	// A chi-square test of the table's low 12 bits, 4095 degrees of freedom:
	// its mean is 4095 and its standard deviation about 90.
	exp := float64(count) / float64(len(buckets))
	chi := 0.0
	for _, c := range buckets {
		d := float64(c) - exp
		chi += d * d / exp
	}
	if chi > 4095+6*90 || chi < 4095-6*90 {
		t.Errorf("low 12 bits of %d fingerprints: chi-square %.0f, want about 4095", count, chi)
	}
}
