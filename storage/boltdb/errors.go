package boltdb

import "errors"

// Errors that only a database file can raise; the errors every store
// shares are storage's.
var (
	// ErrNoFolder: the folder the database file should be in does not exist.
	ErrNoFolder = errors.New("no such folder")
	// ErrInUse: another process (a running bot) holds the database file.
	ErrInUse = errors.New("the file is in use by another process")
	// ErrNoBackupServer: no running bot answers backup requests on the
	// control socket (it is missing, or stale).
	ErrNoBackupServer = errors.New("no running bot serves backups")
)
