//go:build !windows

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// readOnlyEnv names the config the test binary checks when it runs as the
// unprivileged child of TestCheckFailsAFileRunCannotWrite.
const readOnlyEnv = "MEEPLE_CHECK_READONLY_CONFIG"

// TestCheckFailsAFileRunCannotWrite: a sound database file its user may
// read but not write (mode 0400) fails the check, as it fails meeple run
// and import, which open it for reading and writing. Root may write
// anything, so as root the check runs in a copy of this test binary
// started as user nobody.
func TestCheckFailsAFileRunCannotWrite(t *testing.T) {
	if config := os.Getenv(readOnlyEnv); config != "" {
		code, out, errs := meeple("check", "-config", config)
		os.Stdout.WriteString("CHECK " + out + errs)
		if code == 0 {
			os.Stdout.WriteString("CHECK PASSED\n")
		}
		return
	}
	dir, err := os.MkdirTemp("", "meeple-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	db := filepath.Join(dir, "meeple.db")
	s, err := boltdb.Open(db, engine.NewRegistry(), boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte("database = "+tomlString(db)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(tokenEnv, goodToken)
	var out string
	if os.Geteuid() != 0 {
		os.Chmod(db, 0o400)
		code, stdout, stderr := meeple("check", "-config", config)
		out = stdout + stderr
		if code == 0 {
			out += "CHECK PASSED\n"
		}
	} else {
		os.Chmod(db, 0o444) // nobody reads it, and may not write it
		bin := filepath.Join(dir, "meeple.test")
		if err := copyExecutable(os.Args[0], bin); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-test.run=^TestCheckFailsAFileRunCannotWrite$", "-test.count=1")
		cmd.Env = append(os.Environ(), readOnlyEnv+"="+config)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the check as nobody: %v\n%s", err, b)
		}
		out = string(b)
	}
	if strings.Contains(out, "CHECK PASSED") || !strings.Contains(out, "FAIL  database") || !strings.Contains(out, "may not write it") {
		t.Fatalf("the check of a file its user may not write:\n%s", out)
	}
}

// copyExecutable copies the file at from to a new file at to, which
// anyone may run.
func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
