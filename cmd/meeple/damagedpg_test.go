package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestEveryCommandRefusesADamagedPostgresRow damages one log row of a
// PostgreSQL database behind Meeple's back: check names the game and the
// entry, run, import and migrate refuse the database with the same error
// and advice, export refuses the damaged game (with the advice) and still
// saves the others, and nothing changes the database.
func TestEveryCommandRefusesADamagedPostgresRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "games.db")
	fillDatabase(t, file)
	dsn := pg.Database(t)
	if code, _, stderr := meeple("migrate", "-from", file, "-to", dsn); code != 0 {
		t.Fatalf("migrate into PostgreSQL: %s", stderr)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var game, other int64
	if err := conn.QueryRow(ctx, "SELECT min(id), max(id) FROM games WHERE version > 10").Scan(&game, &other); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "UPDATE game_log SET action = 'x' || action WHERE game_id = $1 AND idx = 3", game); err != nil {
		t.Fatal(err)
	}
	fingerprint := func() string {
		var s string
		if err := conn.QueryRow(ctx, `SELECT md5(string_agg(t, ',' ORDER BY t)) FROM (
			SELECT game_id || ':' || idx || ':' || seat || ':' || at || ':' || action || ':' || sum AS t FROM game_log
			UNION ALL SELECT id || ':' || md5(record) || ':' || revision || ':' || coalesce(md5(snapshot), '') FROM games
			UNION ALL SELECT key || ':' || game_id FROM commits) x`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := fingerprint()

	config := filepath.Join(dir, "meeple.toml")
	os.WriteFile(config, []byte("database = \""+dsn+"\"\n"), 0o600)
	env := environ(map[string]string{tokenEnv: "x.y.z"})
	damage := "log entry 4 (index 3): checksum mismatch"
	const advice = "restore the newest dump"
	code, out, _ := meepleIn(env, "check", "-config", config)
	if code == 0 || !strings.Contains(out, "FAIL  database") || !strings.Contains(out, damage) || !strings.Contains(out, advice) {
		t.Fatalf("check: exit %d\n%s\nwant a failure naming %q with the advice", code, out, damage)
	}
	script := filepath.Join(dir, "game.txt")
	os.WriteFile(script, []byte("# game eightydays players 2 seed 3\n"), 0o600)
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, args := range [][]string{
		{"run", "-config", config},
		{"import", "-db", dsn, "-channel", "900000000000000005", "-script", script, "-seats", "111111111111111111,222222222222222222"},
		{"migrate", "-from", dsn, "-to", filepath.Join(dir, "new.db")},
		{"export", "-db", dsn, "-game", id(game)},
	} {
		code, _, stderr := meepleIn(env, args...)
		t.Logf("meeple %s: %s", args[0], stderr)
		if code == 0 || !strings.Contains(stderr, damage) || !strings.Contains(stderr, advice) {
			t.Errorf("meeple %s: exit %d, %q; want the refusal check gives", args[0], code, stderr)
		}
	}
	if code, out, stderr := meepleIn(env, "export", "-db", dsn, "-game", id(other)); code != 0 || !strings.Contains(out, "# game ") {
		t.Errorf("export of an undamaged game: exit %d, %s", code, stderr)
	}
	if fingerprint() != before {
		t.Error("a command changed the damaged database")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); err == nil {
		t.Error("migrate left a new database behind")
	}
}
