package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// TestBackupOfARunningBotIsTakenOnline holds the database open as the bot
// does, with its backup socket, while games keep being created: "meeple
// backup" gets the copy from it, and the copy holds every game whose
// creation returned before the backup was asked for.
func TestBackupOfARunningBotIsTakenOnline(t *testing.T) {
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir) // -out is relative; the bot must get it made absolute
	db := filepath.Join(dir, "meeple.db")
	s, err := boltdb.Open(db, reg, boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv, err := boltdb.ServeBackups(s, boltdb.BackupSocket(db))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	var acked atomic.Int64 // games created so far, in channel order
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := &storage.Game{
				Kind: "eightydays", Guild: "7", Channel: fmt.Sprint(1000 + i), Creator: "1", Status: storage.StatusRunning,
				Setup: engine.Setup{Players: 2, Seed: uint64(i)}, Seats: []storage.Seat{{User: "1"}, {User: "2"}},
			}
			if err := s.Create(context.Background(), g); err != nil {
				t.Errorf("create in channel %s: %v", g.Channel, err)
				return
			}
			acked.Store(int64(i + 1))
		}
	}()
	for acked.Load() < 20 {
		runtime.Gosched()
		if t.Failed() {
			t.FailNow()
		}
	}
	before := int(acked.Load())
	code, stdout, stderr := meeple("backup", "-db", db, "-out", "backup.db")
	close(stop)
	wg.Wait()
	if code != 0 || !strings.Contains(stdout, "copied online") || !strings.Contains(stdout, "verified") {
		t.Fatalf("backup of a running bot: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	cp, err := boltdb.Open(filepath.Join(dir, "backup.db"), reg, boltdb.Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	for i := 0; i < before; i++ {
		if g, err := cp.Get(context.Background(), fmt.Sprint(1000+i)); err != nil || g.Kind != "eightydays" || len(g.Snapshot) == 0 {
			t.Fatalf("game %d of %d acknowledged before the backup: %+v, %v", i+1, before, g, err)
		}
	}
	if _, total, err := cp.Counts(context.Background()); err != nil || total < before || !strings.Contains(stdout, fmt.Sprintf("%d games", total)) {
		t.Fatalf("the copy has %d games (%v), %d were acknowledged; stdout %q", total, err, before, stdout)
	}

	// A copy the bot cannot write is refused with its reason.
	code, _, stderr = meeple("backup", "-db", db, "-out", filepath.Join("missing", "x.db"))
	if code != 1 || !strings.Contains(stderr, "the bot could not write the copy") || !strings.Contains(stderr, filepath.Join(dir, "missing", "x.db")) {
		t.Fatalf("backup into a missing folder: exit %d, stderr %q", code, stderr)
	}

	// With the file still held but nobody answering on the socket, the
	// command says both.
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = meeple("backup", "-db", db, "-out", "again.db")
	if code != 1 || !strings.Contains(stderr, "held by another process") || !strings.Contains(stderr, "socket does not exist") {
		t.Fatalf("backup with no socket: exit %d, stderr %q", code, stderr)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: boltdb.BackupSocket(db), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close() // a socket left by a bot that died
	code, _, stderr = meeple("backup", "-db", db, "-out", "again.db")
	if code != 1 || !strings.Contains(stderr, "held by another process") || !strings.Contains(stderr, "nothing listens") {
		t.Fatalf("backup through a stale socket: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat("again.db"); !os.IsNotExist(err) {
		t.Fatalf("a failed backup left a file: %v", err)
	}
}
