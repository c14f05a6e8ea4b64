package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/meeplegames/meeple/storage"
)

func runBackup(args []string, stdout, stderr io.Writer) error {
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
	s, reg, err := sf.open(log)
	if err != nil {
		return err
	}
	defer s.Close()
	n, err := s.BackupFile(*out)
	if err != nil {
		return err
	}
	// Read the copy back in full before calling it a backup.
	cp, err := storage.Open(*out, reg, storage.Options{Logger: log})
	if err != nil {
		return fmt.Errorf("the copy does not open: %w", err)
	}
	defer cp.Close()
	if err := cp.Verify(); err != nil {
		return fmt.Errorf("the copy is damaged: %w", err)
	}
	active, total, err := cp.Counts()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: copied %d bytes to %s and verified it: %d games, %d active\n", s.Path(), n, *out, total, active)
	return nil
}
