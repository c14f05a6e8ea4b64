package boltdb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/meeplegames/meeple/engine"
)

// TestAbandonedBackupLeavesNothing: a backup whose context ends (the
// backup server closing under it) fails and leaves neither the target
// nor a temporary file.
func TestAbandonedBackupLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "meeple.db"), engine.NewRegistry(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(dir, "copy.db")
	if _, err := s.backupFile(ctx, out); !errors.Is(err, context.Canceled) {
		t.Fatalf("backup with an ended context: %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("an abandoned backup left files: %v", entries)
	}
	if _, err := s.backupFile(context.Background(), out); err != nil {
		t.Fatalf("the next backup: %v", err)
	}
}
