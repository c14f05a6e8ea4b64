package boltdb_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/storetest"
)

// Interaction keys older than the horizon are forgotten as the store
// commits; younger ones answer their retries.
func TestKeysArePrunedAsCommitsGo(t *testing.T) {
	clock := &storetest.Clock{T: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	s, err := boltdb.Open(filepath.Join(t.TempDir(), "m.db"), storetest.Games(), boltdb.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.PrunesAsItCommits(t, s, clock)
}
