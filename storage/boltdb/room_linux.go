package boltdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// haveRoom reserves n bytes in a new file in dir and removes it: the
// file system gives the blocks or fails, as a full disk (ENOSPC), a quota
// (EDQUOT) or a file size limit (EFBIG) makes it, without writing them. A
// folder this process may not write in, or a file system that cannot
// reserve, passes: the probe's write to the file itself still ran.
func haveRoom(dir string, n int64) error {
	f, err := os.CreateTemp(dir, ".meeple-probe-*")
	if errors.Is(err, fs.ErrPermission) {
		return nil
	}
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	err = syscall.Fallocate(int(f.Fd()), 0, 0, n)
	if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("no room for %d bytes beside the file: %w", n, err)
	}
	return nil
}
