package postgres_test

import (
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// Interaction keys older than the horizon are forgotten as the store
// commits; younger ones answer their retries.
func TestKeysArePrunedAsCommitsGo(t *testing.T) {
	clock := &storetest.Clock{T: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	s, err := postgres.Open(server.Database(t), storetest.Games(), postgres.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.PrunesAsItCommits(t, s, clock)
}
