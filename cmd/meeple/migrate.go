package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// runMigrate copies every game, setting and preference from one database
// to another, empty one (bbolt file to PostgreSQL or back), reading each
// game back from the copy to compare it with the original.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	from := fs.String("from", "", "database to copy from: a bbolt file or a PostgreSQL connection string (default: $"+databaseEnv+")")
	to := fs.String("to", "", "empty database to copy into: a bbolt file (created) or a PostgreSQL connection string (default: $"+databaseEnv+")")
	configPath := fs.String("config", "", "the bot's TOML config file, for its content folders")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	env := getenv(databaseEnv)
	if *from == "" {
		*from = env
	} else if *to == "" {
		*to = env
	}
	if *from == "" || *to == "" {
		fmt.Fprintln(stderr, "meeple migrate: -from and -to are required (one of them may come from $"+databaseEnv+")")
		return errUsage
	}
	if *from == *to {
		return fmt.Errorf("-from and -to are the same database")
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	reg, err := buildRegistry(cfg.Content)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	src, err := openStore(*from, reg, readFile, boltdb.Options{Logger: log}, stdout)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openStore(*to, reg, writeFile, boltdb.Options{Logger: log}, stdout)
	if err != nil {
		return err
	}
	defer dst.Close()
	fromName, toName := databaseName(*from), databaseName(*to)
	if _, total, err := dst.Counts(ctx); err != nil || total > 0 {
		if err == nil {
			err = fmt.Errorf("%s already holds %d games: migrate copies into an empty database only", toName, total)
		}
		return err
	}
	n, err := storage.Copy(ctx, dst, src)
	if err != nil {
		return fmt.Errorf("copying from %s to %s stopped after %d games (empty %s before trying again): %w", fromName, toName, n, toName, err)
	}
	active, _, err := dst.Counts(ctx)
	if err != nil {
		return err
	}
	guilds, users, err := dst.SavedSettings(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied %d games (%d active), %d guild settings and %d user preferences from %s to %s; every game read back the same\n",
		n, active, len(guilds), len(users), fromName, toName)
	return nil
}
