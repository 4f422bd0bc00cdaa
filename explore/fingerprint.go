package explore

import (
	"math"

	"github.com/cespare/xxhash/v2"

	"github.com/mxcheck/mxcheck/model"
)

// fingerprint is a state's fingerprint: the 64-bit hash of its key (lo,
// never 0) and, with 128-bit fingerprints, a second independent 64-bit hash
// (hi). With 64-bit fingerprints hi is 0.
type fingerprint struct{ lo, hi uint64 }

// salt is appended to a key for the second half of a 128-bit fingerprint.
const salt = 0xa5

// fingerprintOf hashes key; wide adds the second 64 bits. key's storage
// may be extended (never its contents).
func fingerprintOf(key []byte, wide bool) fingerprint {
	f := fingerprint{lo: model.Fingerprint(key)}
	if wide {
		f.hi = xxhash.Sum64(append(key, salt))
	}
	return f
}

// owner picks the partition of f among n: a multiplicative mix of lo, so
// that it is independent of the bits a seen-set table indexes by.
func (f fingerprint) owner(n int) int {
	if n == 1 {
		return 0
	}
	return int(((f.lo * 0x9e3779b97f4a7c15) >> 32 * uint64(n)) >> 32)
}

// collisionEstimate is the probability that two of n distinct states share
// a fingerprint of the given width (the birthday bound n²/2^(bits+1)).
func collisionEstimate(n float64, bits int) float64 {
	return n * (n - 1) / math.Exp2(float64(bits)+1)
}
