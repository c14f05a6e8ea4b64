package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/postgres"
)

// databaseEnv is the environment variable that names the database (a
// PostgreSQL connection string, which may hold a password), in place of
// the config's database.
const databaseEnv = "MEEPLE_DATABASE_URL"

// store is a game store of either kind (a bbolt file or PostgreSQL), as
// the subcommands use it.
type store interface {
	bot.Store
	GetByID(ctx context.Context, id uint64) (*storage.Game, error)
	Import(ctx context.Context, g *storage.Game) error
	Counts(ctx context.Context) (active, total int, err error)
	GameCounts(ctx context.Context) ([]storage.GameCount, error)
	storage.Source
	storage.Destination
	storage.Deliveries
	Close() error
	String() string // the file's path, or the connection string without its password
}

// databaseName is database fit for messages and logs: a connection
// string without its secrets, or the file's path.
func databaseName(database string) string { return postgres.Redact(database) }

// storeFlags name the database the store subcommands work on.
type storeFlags struct {
	db     *string
	config *string
}

func addStoreFlags(fs *flag.FlagSet) *storeFlags {
	return &storeFlags{
		db:     fs.String("db", "", "database file, or PostgreSQL connection string (postgres://… or host=… dbname=…) (default: $"+databaseEnv+", else the -config file's database)"),
		config: fs.String("config", "", "the bot's TOML config file, for its database and its content folders"),
	}
}

// access is how a command uses a database file (PostgreSQL ignores it).
type access int

const (
	// readFile reads an existing file and leaves it byte for byte as it
	// was. The whole file is checked first, as "meeple check" does: a file
	// check refuses is refused with the same error and advice.
	readFile access = iota
	// writeFile writes into the file, creating it if need be; the whole
	// file is checked first, as for readFile, so that nothing is written
	// into a damaged file.
	writeFile
	// salvageFile reads an existing file without checking it whole first,
	// for export, which saves the games that still read from a damaged
	// file: each damaged page or record it meets is still an error, never
	// data.
	salvageFile
)

// open opens the database with the games this program offers (with the
// config's content, if any), logging repairs to log. A file it creates is
// announced on stdout.
func (f *storeFlags) open(how access, getenv func(string) string, log *slog.Logger, stdout io.Writer) (store, *engine.Registry, error) {
	path, reg, err := f.resolve(getenv)
	if err != nil {
		return nil, nil, err
	}
	s, err := openStore(path, reg, how, boltdb.Options{Logger: log}, stdout)
	return s, reg, err
}

// openStore opens the database at path, a bbolt file or a PostgreSQL
// connection string (URL or key=value), as how says. A file it creates is announced on stdout; a damaged one
// is refused with the way to recover. PostgreSQL's tables are created or
// brought up to date.
func openStore(path string, reg *engine.Registry, how access, opts boltdb.Options, stdout io.Writer) (store, error) {
	// A nil pointer of either store would make a non-nil interface.
	if postgres.IsDSN(path) {
		// every row is checked first, as "meeple check" does, except for
		// export, which salvages the games that still read
		s, err := postgres.Open(path, reg, postgres.Options{Logger: opts.Logger, Now: opts.Now, Verify: how != salvageFile})
		if err != nil {
			return nil, withAdvice(path, err)
		}
		return s, nil
	}
	s, err := openFile(path, reg, how, opts, stdout)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openFile is openStore for a bbolt file.
func openFile(path string, reg *engine.Registry, how access, opts boltdb.Options, stdout io.Writer) (*boltdb.Store, error) {
	switch how {
	case readFile:
		opts.ReadOnly, opts.Verify = true, true
	case writeFile:
		opts.Verify = true
	case salvageFile:
		opts.ReadOnly = true
	}
	s, err := boltdb.Open(path, reg, opts)
	if err != nil {
		return nil, withAdvice(path, err)
	}
	if s.Created() {
		fmt.Fprintf(stdout, "creating a new database at %s\n", path)
	}
	return s, nil
}

// withAdvice adds to an error opening or reading database (a file, or a
// PostgreSQL connection string) what the operator can do about it.
func withAdvice(database string, err error) error {
	if advice := storeAdvice(database, err); advice != "" {
		return fmt.Errorf("%w\n%s", err, advice)
	}
	return err
}

// storeAdvice says what the operator can do about an error opening or
// reading database, or "" when it has nothing to say. Every error it
// advises on left the database as it was.
func storeAdvice(database string, err error) string {
	if postgres.IsDSN(database) {
		return postgresAdvice(err)
	}
	switch {
	case errors.Is(err, storage.ErrCorrupt):
		return "the file was not changed. To recover, restore the newest backup (the file meeple backup -out wrote, or the newest in the [backup] folder) " +
			"over " + database + " with the bot stopped, then run \"meeple check\"; or save the games that still read with \"meeple export -db " + database +
			" -game ID\" and load them into a new file with \"meeple import\""
	case errors.Is(err, storage.ErrNewerSchema):
		return "the file was not changed; run the newer Meeple that wrote it, or restore a backup taken before the upgrade"
	case errors.Is(err, storage.ErrNoDatabase):
		return "check the path (-db, or database in the config); only \"meeple run\" and \"meeple import\" create a database"
	case errors.Is(err, boltdb.ErrInUse):
		return "the bot is running and holds the file: stop it, or (for a copy) use meeple backup, which asks the running bot"
	case errors.Is(err, storage.ErrPermission):
		return "run the command as the bot's user, or give that user the file and its folder"
	case errors.Is(err, storage.ErrNotDatabase):
		return "check the path (-db, or database in the config): it must name the Meeple database file"
	case errors.Is(err, boltdb.ErrNoFolder):
		return "create the folder, or correct the path (-db, or database in the config)"
	}
	return ""
}

// postgresAdvice is storeAdvice for a PostgreSQL database.
func postgresAdvice(err error) string {
	switch {
	case errors.Is(err, storage.ErrCorrupt):
		return "the database was not changed. To recover, restore the newest dump taken before the damage (pg_restore, or psql with the pg_dump file) " +
			"with every bot stopped, then run \"meeple check\"; or save the games that still read with \"meeple export -db URL -game ID\" " +
			"and load them into a new database with \"meeple import\" (or \"meeple migrate\" from a file)"
	case errors.Is(err, storage.ErrNewerSchema):
		return "the database was not changed; run the newer Meeple that upgraded the tables, or restore a dump taken before the upgrade"
	case errors.Is(err, storage.ErrInvalid):
		return "correct the connection string (-db, database in the config, or $" + databaseEnv + ")"
	case errors.Is(err, storage.ErrNotFound), errors.Is(err, storage.ErrClosed):
		return ""
	}
	return "check the connection string (-db, database in the config, or $" + databaseEnv + "), that PostgreSQL runs and that it lets this user in"
}

// resolve returns the database (-db, else $MEEPLE_DATABASE_URL, else the
// config's) and the games this program offers (with the config's content,
// if any).
func (f *storeFlags) resolve(getenv func(string) string) (string, *engine.Registry, error) {
	if *f.db == "" && *f.config == "" && getenv(databaseEnv) == "" {
		return "", nil, errors.New("-db (or -config, or $" + databaseEnv + ") is required")
	}
	cfg, err := loadConfig(*f.config)
	if err != nil {
		return "", nil, err
	}
	path := *f.db
	if path == "" {
		path = cfg.database(getenv)
	}
	reg, err := buildRegistry(cfg.Content)
	if err != nil {
		return "", nil, err
	}
	return path, reg, nil
}
