package main

import (
	"errors"
	"flag"
	"log/slog"
	"os"

	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
)

// databaseEnv is the environment variable that names the database (a
// postgres:// connection string, which may hold a password), in place of
// the config's database.
const databaseEnv = "MEEPLE_DATABASE_URL"

// store is a game store of either kind (a bbolt file or PostgreSQL), as
// the subcommands use it.
type store interface {
	bot.Store
	GetByID(id uint64) (*storage.Game, error)
	Counts() (active, total int, err error)
	storage.Source
	storage.Destination
	Close() error
}

// openStore opens database: a PostgreSQL connection string (postgres://…)
// or the path of a bbolt file. verify checks every page of a bbolt file.
func openStore(database string, reg *engine.Registry, log *slog.Logger, verify bool) (store, error) {
	if postgres.IsDSN(database) {
		return postgres.Open(database, reg, postgres.Options{Logger: log})
	}
	return storage.Open(database, reg, storage.Options{Logger: log, Verify: verify})
}

// databaseName is database fit for logs: a connection string without its
// password, or the file's path.
func databaseName(database string) string {
	if postgres.IsDSN(database) {
		return postgres.Redact(database)
	}
	return database
}

// storeFlags name the database the store subcommands work on.
type storeFlags struct {
	db     *string
	config *string
}

func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	return &storeFlags{
		db:     fs.String("db", "", "database file or postgres:// URL (default: $"+databaseEnv+", else the -config file's database)"),
		config: fs.String("config", "", "the bot's TOML config file, for its database and its content folders"),
	}
}

// open opens the database with the games this program offers (with the
// config's content, if any), logging repairs to log.
func (f *storeFlags) open(log *slog.Logger) (store, *engine.Registry, error) {
	database, reg, err := f.resolve()
	if err != nil {
		return nil, nil, err
	}
	s, err := openStore(database, reg, log, false)
	return s, reg, err
}

// resolve returns the database (-db, else $MEEPLE_DATABASE_URL, else the
// config's) and the games this program offers (with the config's content,
// if any).
func (f *storeFlags) resolve() (string, *engine.Registry, error) {
	env := os.Getenv(databaseEnv)
	if *f.db == "" && *f.config == "" && env == "" {
		return "", nil, errors.New("-db (or -config, or $" + databaseEnv + ") is required")
	}
	cfg, err := loadConfig(*f.config)
	if err != nil {
		return "", nil, err
	}
	database := *f.db
	if database == "" {
		database = cfg.database(os.Getenv)
	}
	reg, err := buildRegistry(cfg.Content)
	if err != nil {
		return "", nil, err
	}
	return database, reg, nil
}
