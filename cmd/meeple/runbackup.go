package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// backupConfig is the [backup] table: periodic copies of the database
// taken while the bot runs.
type backupConfig struct {
	Dir   string    `toml:"dir"`
	Every *duration `toml:"every"`
	Keep  int       `toml:"keep"`
}

// backupSource writes a consistent copy of the database to a file,
// atomically (*boltdb.Store).
type backupSource interface {
	BackupFile(path string) (int64, error)
}

const backupPrefix, backupSuffix = "meeple-", ".db"

// backupLoop copies the database into dir every interval until ctx is done,
// keeping the newest keep copies (all when keep <= 0).
func backupLoop(ctx context.Context, src backupSource, c backupConfig, log *slog.Logger) {
	if c.Dir == "" || c.Every == nil || c.Every.Duration <= 0 {
		return
	}
	t := time.NewTicker(c.Every.Duration)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		path, err := writeBackup(src, c.Dir, time.Now().UTC())
		if err != nil {
			log.Error("backup failed", "dir", c.Dir, "err", err)
			continue
		}
		log.Info("backup written", "file", path)
		if err := pruneBackups(c.Dir, c.Keep); err != nil {
			log.Warn("removing old backups failed", "dir", c.Dir, "err", err)
		}
	}
}

// writeBackup writes one copy named after now into dir.
func writeBackup(src backupSource, dir string, now time.Time) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, backupPrefix+now.Format("20060102-150405")+backupSuffix)
	if _, err := src.BackupFile(path); err != nil {
		return "", err
	}
	return path, nil
}

// pruneBackups removes all but the newest keep backups in dir.
func pruneBackups(dir string, keep int) error {
	if keep <= 0 {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), backupPrefix) && strings.HasSuffix(e.Name(), backupSuffix) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names) // the timestamp sorts them oldest first
	for len(names) > keep {
		if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
			return err
		}
		names = names[1:]
	}
	return nil
}
