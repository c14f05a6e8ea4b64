package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/internal/pgtest"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// pg is the package's throwaway PostgreSQL server, started by the first
// test that asks for a database.
var pg pgtest.Server

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "meeple-test-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := pg.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// fillDatabase stores real games of every kind in the bbolt file at path:
// one finished (after 300 actions, with the scores of that moment), one
// abandoned midway, one running,
// and a lobby, plus settings and preferences.
func fillDatabase(t *testing.T, path string) {
	t.Helper()
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := boltdb.Open(path, reg, boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	players := []engine.Player{ai.Random{}, ai.Random{}, ai.Random{}}
	seats := []storage.Seat{{User: "111", Name: "Ann"}, {User: "222"}, {Computer: "random"}}
	for i, name := range reg.Names() {
		rules, _ := reg.Lookup(name)
		for j, steps := range []int{300, 40, 25} {
			setup := engine.Setup{Players: 3, Seed: uint64(100*i + j)}
			state, err := rules.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			rng := engine.NewRNG(uint64(j + 1))
			played, err := ai.PlayOut(state, players, &rng, steps)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			g := &storage.Game{Kind: name, Guild: "7", Channel: fmt.Sprintf("%d%d", i+1, j), Creator: "111",
				Status: storage.StatusRunning, Setup: setup, Seats: seats,
				Timing: storage.Timing{TurnDeadline: time.Hour, OnDeadline: "computer"}}
			for k, m := range played.Moves {
				g.Log = append(g.Log, storage.Entry{Seat: m.Seat, Action: m.Action, At: time.Unix(1700000000, int64(k)*1001)})
			}
			if err := s.Create(context.Background(), g); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch j {
			case 0:
				res := state.Result()
				if _, err := s.Finish(context.Background(), g.Channel, g.Guard(), storage.StatusFinished, &res); err != nil {
					t.Fatal(err)
				}
			case 1:
				if _, err := s.Finish(context.Background(), g.Channel, g.Guard(), storage.StatusAbandoned, nil); err != nil {
					t.Fatal(err)
				}
			default:
				if _, err := s.Update(context.Background(), g.Channel, g.ID, func(g *storage.Game) error {
					g.Deadline, g.Messages = time.Unix(1800000000, 5), map[string]string{"board": "99"}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := s.Create(context.Background(), &storage.Game{Kind: "eightydays", Guild: "7", Channel: "500", Seats: []storage.Seat{{User: "111"}, {}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutGuildSettings(context.Background(), "7", storage.GuildSettings{TurnDeadline: 3 * time.Hour, GamesChannel: "42"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutUserPrefs(context.Background(), "222", storage.UserPrefs{Secrets: storage.SecretsDM}); err != nil {
		t.Fatal(err)
	}
}

// exportAll exports every game of database by id, as "meeple export"
// prints it (or the error it gives, for a lobby), with each user's stats.
func exportAll(t *testing.T, database string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for id := 1; ; id++ {
		code, stdout, stderr := meeple("export", "-db", database, "-game", fmt.Sprint(id))
		if code != 0 && strings.Contains(stderr, "not found") {
			break
		}
		out[fmt.Sprint(id)] = fmt.Sprint(code, stdout, stderr)
	}
	reg, _ := buildRegistry(nil)
	s, err := openStore(database, reg, readFile, boltdb.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, user := range []string{"111", "222"} {
		st, err := s.(interface {
			Stats(ctx context.Context, user string) ([]storage.Stats, error)
		}).Stats(context.Background(), user)
		if err != nil {
			t.Fatal(err)
		}
		out["stats "+user] = fmt.Sprintf("%+v", st)
	}
	return out
}

// Moving a database to PostgreSQL and back keeps every game: each exports
// to the same script, with the same statistics.
func TestMigrateToPostgresAndBack(t *testing.T) {
	dsn := pg.Database(t)
	dir := t.TempDir()
	from, back := filepath.Join(dir, "meeple.db"), filepath.Join(dir, "back.db")
	fillDatabase(t, from)
	want := exportAll(t, from)
	if len(want) != 9 || !strings.Contains(want["1"], "# game ") || !strings.Contains(want["7"], "has not started") {
		t.Fatalf("the original database exports %d games: %v", len(want)-2, want)
	}

	code, stdout, stderr := meeple("migrate", "-from", from, "-to", dsn)
	if code != 0 || !strings.Contains(stdout, "copied 7 games (3 active), 1 guild settings and 1 user preferences") {
		t.Fatalf("migrate to PostgreSQL: exit %d, %q, %q", code, stdout, stderr)
	}
	if got := exportAll(t, dsn); !reflect.DeepEqual(got, want) {
		t.Fatalf("PostgreSQL exports\n%v\nwant\n%v", got, want)
	}
	code, stdout, stderr = meeple("migrate", "-from", from, "-to", dsn)
	if code != 1 || !strings.Contains(stderr, "already holds 7 games") {
		t.Fatalf("migrate into a full database: exit %d, %q, %q", code, stdout, stderr)
	}

	t.Setenv(databaseEnv, dsn)
	code, stdout, stderr = meeple("migrate", "-to", back)
	if code != 0 || !strings.Contains(stdout, "copied 7 games") {
		t.Fatalf("migrate back to bbolt: exit %d, %q, %q", code, stdout, stderr)
	}
	if got := exportAll(t, back); !reflect.DeepEqual(got, want) {
		t.Fatalf("the file migrated back exports\n%v\nwant\n%v", got, want)
	}
}

func TestMigrateRefusesBadInput(t *testing.T) {
	t.Setenv(databaseEnv, "")
	db := filepath.Join(t.TempDir(), "meeple.db")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"migrate", "-from", db}, 2, "-from and -to are required"},
		{[]string{"migrate", "-from", db, "-to", db}, 1, "the same database"},
		{[]string{"migrate", "-from", db, "-to", db + "2"}, 1, "no database at"},
		{[]string{"migrate", "-from", "postgres://meeple:sekrit@[::1/", "-to", db}, 1, "postgres://meeple:xxxxx@[::1/: invalid request: the connection string does not parse"},
		{[]string{"backup", "-db", "postgres://meeple:sekrit@db/meeple", "-out", db}, 1, "pg_dump"},
	} {
		code, _, stderr := meeple(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "sekrit") {
			t.Errorf("%v: exit %d, %q; want %d and %q, without the password", c.args, code, stderr, c.code, c.want)
		}
	}
}

// "meeple check" reads a PostgreSQL database's schema and games without
// creating or changing its tables.
func TestCheckReadsPostgresWithoutChangingIt(t *testing.T) {
	dsn := pg.Database(t)
	r := checkDatabase(dsn, nil)
	if !r.ok || !strings.Contains(r.detail, "schema 0; the bot creates or upgrades the tables") {
		t.Fatalf("check of an empty database: %+v", r)
	}
	if r := checkDatabase(dsn, nil); !strings.Contains(r.detail, "schema 0") {
		t.Fatalf("the first check created tables: %+v", r)
	}
	reg, _ := buildRegistry(nil)
	s, err := openStore(dsn, reg, writeFile, boltdb.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(context.Background(), &storage.Game{Kind: "eightydays", Guild: "7", Channel: "8", Seats: []storage.Seat{{User: "1"}, {}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if r := checkDatabase(dsn, reg); !r.ok || !strings.Contains(r.detail, "every row verified, 1 games (1 active)") {
		t.Fatalf("check of a database with a game: %+v", r)
	}
	bad := strings.Replace(dsn, "meeple@", "meeple:sekrit@", 1)
	bad = strings.Replace(bad, "host=", "host=/nonexistent", 1)
	if r := checkDatabase(bad, nil); r.ok || strings.Contains(r.detail, "sekrit") || !strings.Contains(r.detail, "xxxxx") {
		t.Fatalf("check of an unreachable database: %+v", r)
	}
}

// import and export work on PostgreSQL as on a file: the exported script
// is the imported one.
func TestImportExportOnPostgres(t *testing.T) {
	t.Parallel()
	dsn := pg.Database(t)
	file := filepath.Join(t.TempDir(), "game.txt")
	writeGameScript(t, file, 30)
	code, stdout, stderr := meeple("import", "-db", dsn, "-channel", "900000000000000077", "-guild", "700000000000000007", "-script", file, "-seats", "111111111111111111,ai:random")
	if code != 0 || !strings.Contains(stdout, "30 actions") {
		t.Fatalf("import: exit %d, %q, %q", code, stdout, stderr)
	}
	code, exported, stderr := meeple("export", "-db", dsn, "-channel", "900000000000000077")
	if code != 0 || !strings.HasPrefix(exported, "# game eightydays players 2 seed 5\n") || strings.Count(exported, "\nP") != 30 {
		t.Fatalf("export: exit %d, %q\n%s", code, stderr, exported)
	}
	// The export, with its times, imported again exports the same.
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := meeple("import", "-db", dsn, "-channel", "900000000000000078", "-guild", "700000000000000007", "-script", file, "-seats", "111111111111111111,ai:random"); code != 0 {
		t.Fatalf("second import: exit %d, %q, %q", code, stdout, stderr)
	}
	if code, again, stderr := meeple("export", "-db", dsn, "-channel", "900000000000000078"); code != 0 || again != exported {
		t.Fatalf("export of the second import: exit %d, %q\ngot\n%s\nwant\n%s", code, stderr, again, exported)
	}
}

// A command stopped (Ctrl-C, SIGTERM: its context cancelled) stops at its
// next database call, says so, and closes the databases: the copy it was
// making holds nothing, and a migrate run again fills it.
func TestAStoppedMigrateStopsAtTheDatabase(t *testing.T) {
	t.Setenv(databaseEnv, "")
	dir := t.TempDir()
	from, to := filepath.Join(dir, "meeple.db"), filepath.Join(dir, "copy.db")
	fillDatabase(t, from)
	stopped, stop := context.WithCancel(t.Context())
	stop()
	var stdout, stderr strings.Builder
	if code := run(stopped, []string{"migrate", "-from", from, "-to", to}, os.Getenv, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "meeple migrate: stopped as asked, before it finished") {
		t.Fatalf("a stopped migrate: exit %d, %q, %q", code, stdout.String(), stderr.String())
	}
	code, stdout2, stderr2 := meeple("migrate", "-from", from, "-to", to)
	if code != 0 || !strings.Contains(stdout2, "copied 7 games") {
		t.Fatalf("migrate after the stopped one: exit %d, %q, %q", code, stdout2, stderr2)
	}
}
