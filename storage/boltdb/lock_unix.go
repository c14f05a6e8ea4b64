//go:build !windows

package boltdb

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes the lock bbolt takes on a database file (flock, exclusive
// to write, shared to read), waiting up to wait for another process to
// release it (not at all when wait is negative). bbolt then takes the same
// lock again on the same descriptor, which succeeds at once.
func lockFile(f *os.File, exclusive bool, wait time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("locking the file: %w", err)
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("%w (is the bot running?)", ErrInUse)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
