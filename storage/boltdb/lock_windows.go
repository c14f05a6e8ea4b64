package boltdb

import (
	"os"
	"time"
)

// lockFile leaves the lock to bbolt on Windows, whose locks are taken on
// byte ranges rather than on the file: the file is checked before the lock
// is held, so stop the bot before reading its file with another process.
func lockFile(*os.File, bool, time.Duration) error { return nil }
