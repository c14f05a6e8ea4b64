package boltdb_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// fullDiskEnv names the database the test binary opens when it runs as
// the child of TestWritableNoticesAFullDisk.
const fullDiskEnv = "MEEPLE_STORAGE_FULL_DISK"

// TestWritableNoticesAFullDisk runs a store in a process whose files may
// not grow past the database's size (RLIMIT_FSIZE: writes that need more
// room fail, as on a full disk, while writes into the file's free pages
// pass). There new games fail once the file must grow, and so does the
// readiness probe, from the start; with the limit lifted, both pass.
func TestWritableNoticesAFullDisk(t *testing.T) {
	if path := os.Getenv(fullDiskEnv); path != "" {
		fullDisk(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "meeple.db")
	fillStoreAt(t, path)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWritableNoticesAFullDisk$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("the store on a full disk: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// fullDisk is TestWritableNoticesAFullDisk's child.
func fullDisk(t *testing.T, path string) {
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	full := lim
	full.Cur = uint64(info.Size())
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &full); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, path, boltdb.Options{})
	defer s.Close()
	if err := s.Writable(); err == nil {
		t.Error("the probe passes on a full disk")
	} else {
		t.Logf("probe: %v", err)
	}
	created, failed := 0, 0
	for i := range 60 {
		g := &storage.Game{Kind: "race", Guild: "g1", Channel: fmt.Sprintf("full-%d", i), Creator: "u1", Status: storage.StatusLobby,
			Setup: raceSetup(2), Seats: []storage.Seat{{User: "u1"}, {User: "u2"}}}
		if err := s.Create(context.Background(), g); err != nil {
			failed++
		} else {
			created++
		}
	}
	t.Logf("on the full disk: %d games created, %d failed", created, failed)
	if failed == 0 {
		t.Fatal("no create failed: the limit does not stand for a full disk")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	if err := s.Writable(); err != nil {
		t.Errorf("the probe with room again: %v", err)
	}
}
