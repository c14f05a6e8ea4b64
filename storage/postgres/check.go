package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/meeplegames/meeple/storage"
)

// Status is what Inspect finds in a database.
type Status struct {
	Schema, Current int // the tables' schema version (0: no tables yet), and this build's
	Active, Total   int // games; counted only when Schema == Current
}

// Inspect connects to the database at dsn and reads its schema version and
// its games without changing anything (Open would create or upgrade the
// tables). A schema newer than this build's is a *storage.SchemaError.
// Errors name the database without its password.
func Inspect(dsn string, timeout time.Duration) (Status, error) {
	st, err := inspect(dsn, timeout)
	if err != nil {
		return st, fmt.Errorf("storage/postgres: inspect %s: %w", Redact(dsn), scrub(err, dsn))
	}
	return st, nil
}

func inspect(dsn string, timeout time.Duration) (Status, error) {
	st := Status{Current: len(migrations(nil))}
	cfg, err := parseConfig(dsn)
	if err != nil {
		return st, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return st, err
	}
	defer conn.Close(ctx)
	err = conn.QueryRow(ctx, "SELECT version FROM meeple_schema").Scan(&st.Schema)
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && pe.Code == "42P01", errors.Is(err, pgx.ErrNoRows): // no table, or an empty one
		return st, nil
	case err != nil:
		return st, err
	case st.Schema > st.Current:
		return st, &storage.SchemaError{Record: "database", Key: "meeple_schema", Got: uint64(st.Schema), Max: uint64(st.Current)}
	case st.Schema < st.Current:
		return st, nil
	}
	err = conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE active), count(*) FROM games").Scan(&st.Active, &st.Total)
	return st, err
}
