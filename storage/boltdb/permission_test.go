//go:build !windows

package boltdb_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// permissionEnv names the files to open when the test binary runs as the
// unprivileged child of TestPermissionDeniedIsNotCorruption.
const permissionEnv = "MEEPLE_STORAGE_PERMISSION"

// TestPermissionDeniedIsNotCorruption opens a database its user may not
// read, and one in a folder its user may not enter: each fails with
// ErrPermission, never ErrCorrupt. Root may read anything, so as root the
// opens run in a copy of this test binary started as user nobody.
func TestPermissionDeniedIsNotCorruption(t *testing.T) {
	if os.Getenv(permissionEnv) != "" {
		openWithoutPermission(t, strings.Split(os.Getenv(permissionEnv), ","))
		return
	}
	dir, err := os.MkdirTemp("", "meeple-permission-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	unreadable := fillStoreAt(t, filepath.Join(dir, "unreadable.db"))
	os.Chmod(unreadable, 0o600)
	closed := filepath.Join(dir, "closed")
	os.Mkdir(closed, 0o755)
	inClosed := fillStoreAt(t, filepath.Join(closed, "meeple.db"))
	os.Chmod(closed, 0o700)
	paths := []string{unreadable, inClosed}
	if os.Geteuid() != 0 {
		os.Chmod(unreadable, 0o000)
		os.Chmod(closed, 0o000)
		t.Cleanup(func() { os.Chmod(closed, 0o700) })
		openWithoutPermission(t, paths)
		return
	}
	// As root: a copy of this binary that user nobody may run.
	bin := filepath.Join(dir, "storage.test")
	if err := copyFile(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestPermissionDeniedIsNotCorruption$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), permissionEnv+"="+strings.Join(paths, ","))
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("the opens as user nobody: %v\n%s", err, out)
	}
}

// openWithoutPermission opens each path, to write and read-only, and
// wants ErrPermission.
func openWithoutPermission(t *testing.T, paths []string) {
	for _, path := range paths {
		for _, opts := range []boltdb.Options{{}, {ReadOnly: true}} {
			_, err := boltdb.Open(path, registry(), opts)
			if !errors.Is(err, storage.ErrPermission) || errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "permission denied") {
				t.Errorf("open %s (read-only %v): %v, want ErrPermission", path, opts.ReadOnly, err)
			}
		}
	}
}

// fillStoreAt writes a small database at path.
func fillStoreAt(t *testing.T, path string) string {
	t.Helper()
	s := openStore(t, path, boltdb.Options{})
	newRace(t, s, "g1", "c1", 2, "1000000")
	s.Close()
	return path
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
