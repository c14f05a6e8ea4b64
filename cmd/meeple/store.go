package main

import (
	"errors"
	"flag"
	"log/slog"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// storeFlags name the database file the store subcommands work on.
type storeFlags struct {
	db     *string
	config *string
}

func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	return &storeFlags{
		db:     fs.String("db", "", "database file (default: the -config file's database)"),
		config: fs.String("config", "", "the bot's TOML config file, for its database and its content folders"),
	}
}

// open opens the database with the games this program offers (with the
// config's content, if any), logging repairs to log.
func (f *storeFlags) open(log *slog.Logger) (*storage.Store, *engine.Registry, error) {
	path, reg, err := f.resolve()
	if err != nil {
		return nil, nil, err
	}
	s, err := storage.Open(path, reg, storage.Options{Logger: log})
	return s, reg, err
}

// resolve returns the database file's path and the games this program
// offers (with the config's content, if any).
func (f *storeFlags) resolve() (string, *engine.Registry, error) {
	if *f.db == "" && *f.config == "" {
		return "", nil, errors.New("-db (or -config) is required")
	}
	cfg, err := loadConfig(*f.config)
	if err != nil {
		return "", nil, err
	}
	path := *f.db
	if path == "" {
		path = cfg.Database
	}
	reg, err := buildRegistry(cfg.Content)
	if err != nil {
		return "", nil, err
	}
	return path, reg, nil
}
