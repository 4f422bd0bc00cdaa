package spectest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	panic(r)
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%v", fmt.Sprint(args...)) }

func compareRows(path string, rows []string) (errs []string) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		errs = r.errs
	}()
	CompareRows(r, path, rows)
	return nil
}

// CompareRows checks the rows it is given against the lines of the same
// name, ignores the rows it is not given, and under UPDATE_GOLDEN replaces
// or appends just those rows.
func TestCompareRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "golden.txt")
	file := "a\tx\tverified\tdistinct=1\nb\ty\tviolated\tdistinct=2\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := compareRows(path, []string{"", "b\ty\tviolated\tdistinct=2"}); len(errs) != 0 {
		t.Errorf("an equal row fails: %v", errs)
	}
	if errs := compareRows(path, []string{"a\tx\tverified\tdistinct=3", ""}); len(errs) != 1 {
		t.Errorf("a changed row gives %d failures, want 1", len(errs))
	}
	if errs := compareRows(path, []string{"c\tz\tverified\tdistinct=4"}); len(errs) != 1 {
		t.Errorf("a missing row gives %d failures, want 1", len(errs))
	}
	if errs := compareRows(filepath.Join(t.TempDir(), "none.txt"), []string{"a\tx"}); len(errs) != 1 {
		t.Errorf("a missing file gives %d failures, want 1", len(errs))
	}
	t.Setenv("UPDATE_GOLDEN", "1")
	if errs := compareRows(path, []string{"", "b\ty\tviolated\tdistinct=5", "c\tz\tverified\tdistinct=4"}); len(errs) != 0 {
		t.Fatalf("update fails: %v", errs)
	}
	got, _ := os.ReadFile(path)
	if want := "a\tx\tverified\tdistinct=1\nb\ty\tviolated\tdistinct=5\nc\tz\tverified\tdistinct=4\n"; string(got) != want {
		t.Errorf("updated file:\n%s\nwant:\n%s", got, want)
	}
}

// Rows updated by processes side by side are all kept.
func TestCompareRowsConcurrentUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "golden.txt")
	t.Setenv("UPDATE_GOLDEN", "1")
	done := make(chan []string)
	for i := range 8 {
		go func() { done <- compareRows(path, []string{fmt.Sprintf("row%d\tx", i)}) }()
	}
	for range 8 {
		if errs := <-done; len(errs) != 0 {
			t.Fatal(errs)
		}
	}
	b, _ := os.ReadFile(path)
	for i := range 8 {
		if !strings.Contains(string(b), fmt.Sprintf("row%d\tx\n", i)) {
			t.Errorf("row%d lost:\n%s", i, b)
		}
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Error("lock file left behind")
	}
}
