package main

import (
	"fmt"
	"log/slog"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// openStore opens the database file the store subcommands work on, with
// the games this program offers, logging repairs to log.
func openStore(path string, log *slog.Logger) (*storage.Store, *engine.Registry, error) {
	if path == "" {
		return nil, nil, fmt.Errorf("-db is required")
	}
	reg, err := buildRegistry(nil)
	if err != nil {
		return nil, nil, err
	}
	s, err := storage.Open(path, reg, storage.Options{Logger: log})
	return s, reg, err
}
