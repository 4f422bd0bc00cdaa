package explore

import (
	"math/bits"
	"math/rand/v2"
)

// RunSeed is the seed of run i of a simulation seeded with s: s for run 0,
// then a Weyl sequence (s + i·⌊2⁶⁴/φ⌋ mod 2⁶⁴). Run i of seed s is run 0 of
// seed RunSeed(s, i), so `--runs 1 --seed RunSeed(s, i)` repeats it.
func RunSeed(s uint64, i int) uint64 { return s + uint64(i)*0x9e3779b97f4a7c15 }

// gen is a walk's random source: math/rand/v2's PCG, whose output for a
// given seed is specified (not just this Go release's), seeded through
// splitmix64, with bounded draws done here so that no library method's
// algorithm can change what a seed means.
type gen struct{ pcg *rand.PCG }

func newGen(seed uint64) *gen {
	return &gen{pcg: rand.NewPCG(splitmix64(seed), splitmix64(seed^0x6a09e667f3bcc909))}
}

// splitmix64 is Steele, Lea and Flood's finaliser: a fixed bijective mix.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// intn draws uniformly from 0..n-1 (n > 0) by Lemire's multiply-and-reject.
func (g *gen) intn(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(g.pcg.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(g.pcg.Uint64(), bound)
		}
	}
	return int(hi)
}
