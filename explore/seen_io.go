package explore

// each calls fn on every fingerprint in the set, shard by shard, until fn
// returns an error (checkpoints). A slot keeps a fingerprint's low half
// without its top flagBits bits, which are its shard's number.
func (s *seenSet) each(fn func(f fingerprint) error) error {
	for k := range s.shards {
		sh := &s.shards[k]
		for i, x := range sh.lo {
			if x == 0 {
				continue
			}
			f := fingerprint{lo: uint64(k)<<(64-flagBits) | x>>flagBits}
			if sh.hi != nil {
				f.hi = sh.hi[i]
			}
			if err := fn(f); err != nil {
				return err
			}
		}
	}
	return nil
}
