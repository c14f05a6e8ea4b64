package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// A damaged pending reply is found by Verify (run and meeple check),
// named by its interaction and never by its token.
func TestVerifyFindsADamagedPendingReply(t *testing.T) {
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := storage.Pending{ID: "5001", App: "app1", Token: "secret-token-5001", Received: time.Now(), Channel: "c0", Locale: "fr"}
	if err := s.KeepPending(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("Verify of an intact pending reply: %v", err)
	}
	exec(t, connect(t, dsn), "UPDATE pending_replies SET record = set_byte(record, 12, get_byte(record, 12) # 64)")
	if err := s.Verify(); !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "pending reply record 5001") || strings.Contains(err.Error(), "secret-token") {
		t.Fatalf("Verify: %v, want ErrCorrupt naming pending reply 5001 and no token", err)
	}
}
