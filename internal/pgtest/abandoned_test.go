package pgtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Only server folders older than any test run are removed.
func TestOnlyAbandonedFoldersAreRemoved(t *testing.T) {
	dir := t.TempDir()
	abandoned, running, other := filepath.Join(dir, "meeple-pgtest-1"), filepath.Join(dir, "meeple-pgtest-2"), filepath.Join(dir, "someone-else")
	for _, d := range []string{abandoned, running, other} {
		if err := os.MkdirAll(filepath.Join(d, "data"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-abandonedAfter - time.Minute)
	for _, d := range []string{abandoned, other} {
		if err := os.Chtimes(d, long, long); err != nil {
			t.Fatal(err)
		}
	}
	removeAbandoned(dir)
	for d, want := range map[string]bool{abandoned: false, running: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
