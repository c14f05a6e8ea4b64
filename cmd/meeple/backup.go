package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/postgres"
)

// runBackup copies the database to -out and reads the copy back in full.
// While a bot runs on the database (and so holds its file), the bot writes
// the copy, asked over its control socket; otherwise the copy is taken
// here.
func runBackup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("backup", stderr)
	sf := addStoreFlags(fs)
	out := fs.String("out", "", "file to write the copy to (replaced if it exists)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		fmt.Fprintln(stderr, "meeple backup: -out is required")
		return errUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	path, reg, err := sf.resolve(getenv)
	if err != nil {
		return err
	}
	if postgres.IsDSN(path) {
		return errPostgresBackup
	}
	how := "copied"
	var n int64
	// Read-only and not waiting for the lock: a running bot holds the file
	// and writes the copy itself.
	s, err := openFile(path, reg, readFile, boltdb.Options{Logger: log, Verify: true, LockTimeout: -1}, stdout)
	switch {
	case errors.Is(err, boltdb.ErrInUse):
		how = "copied online (the running bot wrote it)"
		ctx, stop := interruptible(ctx)
		defer stop()
		if n, err = backupOnline(ctx, path, *out); err != nil {
			return fmt.Errorf("%s is held by another process, and asking it for a copy failed: %w", path, err)
		}
	case err != nil:
		return err
	default:
		n, err = s.BackupFile(*out)
		s.Close()
		if err != nil {
			return err
		}
	}
	sum, err := boltdb.Check(*out, reg)
	if err != nil {
		return fmt.Errorf("the copy does not check out: %w", err)
	}
	fmt.Fprintf(stdout, "%s: %s %d bytes to %s and verified it: %d games, %d active\n", path, how, n, *out, sum.Total, sum.Active)
	return nil
}

// errPostgresBackup: meeple backup copies bbolt files; PostgreSQL has its
// own tools.
var errPostgresBackup = errors.New("the database is on PostgreSQL: back it up with PostgreSQL's tools, for example pg_dump -Fc -f meeple.dump \"$MEEPLE_DATABASE_URL\" (or meeple migrate -from it -to a new .db file)")

// backupOnline asks the bot running on the database at db to write a copy
// to out, which is resolved here because the bot's working folder may differ.
func backupOnline(ctx context.Context, db, out string) (int64, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return 0, err
	}
	return boltdb.RequestBackup(ctx, boltdb.BackupSocket(db), abs)
}
