package reduce

import (
	"fmt"
	"strings"

	"github.com/mxcheck/mxcheck/model"
)

// CheckRawKey verifies, on the states reachable in sys (at most maxStates
// of them expanded; 0: no limit) and all their successors, a system's
// declaration that it may key states by their bytes (model.RawKeyed): two
// of these states have the same bytes exactly when they have the same
// encoding. Were an encoding to leave a field out, or a value's padding
// to differ, the search would count one state twice; were the bytes to
// leave something out, it would merge two.
func CheckRawKey(sys model.System, maxStates int) error {
	rk, ok := sys.(model.RawKeyed)
	if !ok || !rk.RawKey() {
		return fmt.Errorf("system does not key states by their bytes")
	}
	byRaw, byEnc := map[string]string{}, map[string]string{}
	desc, _ := sys.(model.Describer)
	check := func(s model.State) error {
		raw, enc := string(sys.AppendKey(nil, s)), string(rk.EncodedKey(nil, s))
		if e, ok := byRaw[raw]; ok && e != enc {
			return fmt.Errorf("two states with the same bytes have different encodings %x and %x%s", e, enc, described(desc, s))
		}
		if r, ok := byEnc[enc]; ok && r != raw {
			return fmt.Errorf("two states with the same encoding have different bytes %x and %x%s", r, raw, described(desc, s))
		}
		byRaw[raw], byEnc[enc] = enc, raw
		return nil
	}
	return walk(sys, maxStates, func(s model.State) error {
		if err := check(s); err != nil {
			return err
		}
		var err error
		sys.Successors(s, func(_ model.Transition, n model.State) bool {
			err = check(n)
			return err == nil
		})
		return err
	})
}

// described renders s for an error message, when the system can.
func described(desc model.Describer, s model.State) string {
	if desc == nil {
		return ""
	}
	return " (one of them: " + strings.Join(desc.Dump(s), "; ") + ")"
}
