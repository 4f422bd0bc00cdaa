package explore

import (
	"os"
	"testing"
)

// PhysicalMemory reads MemTotal; the CLI's soft memory limit is 3/4 of it.
func TestPhysicalMemory(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo")
	}
	if got := PhysicalMemory(); got < 64<<20 || got > 1<<50 {
		t.Errorf("PhysicalMemory() = %d bytes", got)
	}
}
