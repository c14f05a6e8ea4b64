package boltdb_test

import (
	"path/filepath"
	"testing"

	"github.com/meeplegames/meeple/storage/boltdb"
)

func TestLayoutOfNewAndReopenedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meeple.db")
	s := openStore(t, path, boltdb.Options{})
	file, current, err := s.Layout()
	if err != nil || file != current || current < 1 {
		t.Fatalf("new file: Layout() = %d, %d, %v; want the current version twice", file, current, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro := openStore(t, path, boltdb.Options{ReadOnly: true})
	if got, _, err := ro.Layout(); err != nil || got != file {
		t.Errorf("read-only reopen: Layout() = %d, %v; want %d", got, err, file)
	}
	ro.Close()
	if _, _, err := ro.Layout(); err == nil {
		t.Error("Layout after Close succeeded")
	}
	if sum, err := boltdb.Check(path, registry()); err != nil || sum.Layout != file {
		t.Errorf("Check: %+v, %v; want layout %d", sum, err, file)
	}
}
