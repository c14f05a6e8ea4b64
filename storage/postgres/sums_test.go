package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/postgres"
	"github.com/meeplegames/meeple/storage/storetest"
)

// undoStep10 takes a database of schema 10 back to schema 9: no pending
// replies.
const undoStep10 = `DROP TABLE pending_replies; UPDATE meeple_schema SET version = 9;`

// undoStep8 takes a database of schema 10 back to schema 7, whose steps
// changed no table.
const undoStep8 = undoStep10 + `UPDATE meeple_schema SET version = 7;`

// undoStep7 takes a database of schema 10 back to schema 6: no seat index.
const undoStep7 = undoStep8 + `ALTER TABLE game_users DROP COLUMN seating; UPDATE meeple_schema SET version = 6;`

// undoStep6 takes a database of schema 10 back to schema 5: no deliveries.
const undoStep6 = undoStep7 + `DROP TABLE deliveries; UPDATE meeple_schema SET version = 5;`

// undoStep5 takes a database of schema 10 back to schema 4: no game_counts.
const undoStep5 = undoStep6 + `DROP TABLE game_counts; UPDATE meeple_schema SET version = 4;`

// undoStep4 takes a database of schema 10 back to schema 3, as an older
// Meeple left it: no checksums, settings and preferences in jsonb, keys
// without times.
const undoStep4 = undoStep5 + `DROP INDEX commits_at; DROP INDEX games_channel; ALTER TABLE commits DROP COLUMN at;
	ALTER TABLE game_log DROP COLUMN sum; ALTER TABLE games DROP COLUMN snapshot_sum; ALTER TABLE stats DROP COLUMN sum;
	ALTER TABLE guild_settings DROP COLUMN sum, ALTER COLUMN settings TYPE jsonb USING convert_from(settings, 'UTF8')::jsonb;
	ALTER TABLE user_prefs DROP COLUMN sum, ALTER COLUMN prefs TYPE jsonb USING convert_from(prefs, 'UTF8')::jsonb;
	UPDATE meeple_schema SET version = 3;`

// filled makes a database with every kind of row: running games with
// logs and snapshots, a game in the lobby, finished and abandoned games
// with their statistics, guild settings, user preferences and interaction
// keys. It returns the database and the store open on it.
func filled(t *testing.T) (string, *postgres.Store) {
	t.Helper()
	dsn := server.Database(t)
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for i, ch := range []string{"c1", "c2", "c3", "c4"} {
		storetest.NewRace(t, s, "g1", ch, 2, "1000")
		for range 4 + i {
			storetest.Play(t, s, ch)
		}
	}
	g, st, err := s.Load(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	action, seat := storetest.NextAction(g.Version), st.Prompts()[0].Seat
	if _, err := st.Apply(seat, action); err != nil {
		t.Fatal(err)
	}
	snap, _ := st.Encode()
	waiting := []engine.Seat{st.Prompts()[0].Seat}
	if _, err := s.Commit(context.Background(), "c1", g.Guard(), storage.Outcome{Key: "interaction-1", Entries: []storage.Entry{{Seat: seat, Action: action}}, Snapshot: snap, Waiting: waiting}); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"c3", "c4"} {
		status, res := storage.StatusFinished, &engine.Result{Over: true, Scores: []int{3, 1}, Winners: []engine.Seat{0}}
		if ch == "c4" {
			status, res = storage.StatusAbandoned, nil
		}
		if _, err := s.Finish(context.Background(), ch, guard(t, s, ch), status, res); err != nil {
			t.Fatal(err)
		}
	}
	lobby := &storage.Game{Kind: "race", Guild: "g1", Channel: "c5", Setup: storetest.RaceSetup(2), Seats: []storage.Seat{{User: "u1"}}}
	if err := s.Create(context.Background(), lobby); err != nil {
		t.Fatal(err)
	}
	settings := storage.DefaultGuildSettings()
	settings.GamesChannel = "123"
	if err := s.PutGuildSettings(context.Background(), "g1", settings); err != nil {
		t.Fatal(err)
	}
	prefs := storage.DefaultUserPrefs()
	prefs.Secrets = storage.SecretsDM
	if err := s.PutUserPrefs(context.Background(), "u1", prefs); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("a database nobody damaged: %v", err)
	}
	return dsn, s
}

// readAll reads everything a store returns, keyed by what read it: the
// games (by id, with logs and snapshots), the active games' states, the
// lists, the statistics, settings and preferences. An error is kept as
// what that read returned.
func readAll(s *postgres.Store) map[string]string {
	out := map[string]string{}
	put := func(key string, v any, err error) {
		if err != nil {
			out[key] = "error: " + err.Error()
			return
		}
		out[key] = fmt.Sprintf("%+v", v)
	}
	for id := uint64(1); id <= 5; id++ {
		g, err := s.GetByID(context.Background(), id)
		if g != nil {
			g.Updated = time.Time{}
			res := g.Result
			g.Result = nil
			put(fmt.Sprintf("game %d", id), fmt.Sprintf("%+v %+v", *g, res), err)
			continue
		}
		put(fmt.Sprintf("game %d", id), g, err)
	}
	for _, ch := range []string{"c1", "c2", "c5"} {
		g, st, err := s.Load(context.Background(), ch)
		var state []byte
		if err == nil && st != nil {
			state, _ = st.Encode()
		}
		if g != nil {
			g.Updated, g.Revision = time.Time{}, 0 // a repair gives a new revision
		}
		put("load "+ch, fmt.Sprint(g, state), err)
	}
	list, err := s.ListActive(context.Background(), "g1")
	put("active", len(list), err)
	arch, err := s.ArchiveForGuild(context.Background(), "g1", 0, 0)
	put("archive", len(arch), err)
	for _, u := range []string{"u1", "u2"} {
		st, err := s.Stats(context.Background(), u)
		put("stats "+u, st, err)
		p, err := s.UserPrefs(context.Background(), u)
		put("prefs "+u, p, err)
	}
	gs, err := s.GuildSettings(context.Background(), "g1")
	put("settings", gs, err)
	return out
}

// damages are changes made behind the store's back, one per row or
// column kind, each of which changes what some read returns. Those marked
// lost take a row away from the key it was read under (a user's
// statistics or preferences): a read of that key finds nothing, as it
// would had the row never been written (a game's channel and active
// columns likewise take it out of its channel's and guild's lists), and
// Verify, which counts the
// rows the games make, reports it.
var damages = []struct {
	name, sql string
	lost      string // the read that finds nothing
}{
	{name: "log action", sql: `UPDATE game_log SET action = 'm' || substr(action, 2) WHERE game_id = 2 AND idx = 1`},
	{name: "log seat", sql: `UPDATE game_log SET seat = 1 - seat WHERE game_id = 2 AND idx = 0`},
	{name: "log time", sql: `UPDATE game_log SET at = at + 1 WHERE game_id = 3 AND idx = 2`},
	{name: "log row moved to another game", sql: `UPDATE game_log SET game_id = 5 WHERE game_id = 2 AND idx = 4`},
	{name: "log rows swapped", sql: `UPDATE game_log SET action = CASE idx WHEN 0 THEN (SELECT action FROM game_log WHERE game_id = 2 AND idx = 1)
		ELSE (SELECT action FROM game_log WHERE game_id = 2 AND idx = 0) END, sum = CASE idx WHEN 0 THEN (SELECT sum FROM game_log WHERE game_id = 2 AND idx = 1)
		ELSE (SELECT sum FROM game_log WHERE game_id = 2 AND idx = 0) END WHERE game_id = 2 AND idx IN (0, 1)`},
	{name: "log row deleted", sql: `DELETE FROM game_log WHERE game_id = 1 AND idx = 2`},
	{name: "snapshot byte", sql: `UPDATE games SET snapshot = overlay(snapshot placing '\xff' from 3 for 1) WHERE id = 1`},
	{name: "snapshot of another game", sql: `UPDATE games SET snapshot = (SELECT snapshot FROM games WHERE id = 3) WHERE id = 2`},
	{name: "record byte", sql: `UPDATE games SET record = overlay(record placing '\x21' from 20 for 1) WHERE id = 3`},
	{name: "channel column", sql: `UPDATE games SET channel = 'c9' WHERE id = 1`, lost: "load c1"},
	{name: "active column", sql: `UPDATE games SET active = false WHERE id = 2`, lost: "active"},
	{name: "version column", sql: `UPDATE games SET version = version - 1 WHERE id = 1`},
	{name: "stats count", sql: `UPDATE stats SET won = won + 1 WHERE user_id = 'u1'`},
	{name: "stats row of another user", sql: `UPDATE stats SET user_id = 'u2x' WHERE user_id = 'u2'`, lost: "stats u2"},
	{name: "settings byte", sql: `UPDATE guild_settings SET settings = overlay(settings placing '9' from position('123' in convert_from(settings, 'UTF8')) for 1)`},
	{name: "preferences byte", sql: `UPDATE user_prefs SET prefs = convert_to(replace(convert_from(prefs, 'UTF8'), 'dm', 'xx'), 'UTF8')`},
	{name: "preferences of another user", sql: `UPDATE user_prefs SET user_id = 'u2'`, lost: "prefs u1"},
}

// Each damage made with SQL (a byte changed, a row moved, swapped,
// deleted or given to another key) is reported by every read that would
// have returned something else, as storage.ErrCorrupt or (for a snapshot)
// a repair from the log, and by Verify, which names the game and the
// entry. None is silent: every read either returns what the undamaged
// database returns or an error.
func TestDamagedRowsAreErrorsNeverData(t *testing.T) {
	for _, d := range damages {
		t.Run(strings.ReplaceAll(d.name, " ", "_"), func(t *testing.T) {
			dsn, s := filled(t)
			want := readAll(s)
			exec(t, connect(t, dsn), d.sql)
			verr := s.Verify()
			if !errors.Is(verr, storage.ErrCorrupt) {
				t.Fatalf("Verify after %s: %v, want ErrCorrupt", d.name, verr)
			}
			if _, err := postgres.Check(dsn, storetest.Games(), 10*time.Second); err == nil || err.Error() != verr.Error() {
				t.Errorf("Check: %v, want Verify's error %v", err, verr)
			}
			if _, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Verify: true}); !errors.Is(err, storage.ErrCorrupt) {
				t.Errorf("Open with Verify: %v, want ErrCorrupt", err)
			}
			got := readAll(s)
			differs := 0
			for _, key := range slices.Sorted(maps.Keys(want)) {
				if got[key] == want[key] || key == d.lost {
					continue
				}
				differs++
				if !strings.HasPrefix(got[key], "error: ") || !strings.Contains(got[key], storage.ErrCorrupt.Error()) {
					t.Errorf("%s after %s: silently read back\n%s\nwhere the undamaged database gives\n%s", key, d.name, got[key], want[key])
				}
			}
			t.Logf("%s: %d reads refused; verify: %v", d.name, differs, verr)
		})
	}
}

// guard is the guard of channel's game as it is.
func guard(t *testing.T, s *postgres.Store, channel string) storage.Guard {
	t.Helper()
	g, err := s.Get(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	return g.Guard()
}

// A database of schema 3 (an older Meeple's: no checksums) is upgraded
// once, in one transaction: every row gets its checksum, everything reads
// back as before, and the database verifies.
func TestOlderRowsGetTheirChecksums(t *testing.T) {
	dsn, s := filled(t)
	want := readAll(s)
	s.Close()
	conn := connect(t, dsn)
	exec(t, conn, undoStep4)
	if _, err := postgres.Check(dsn, storetest.Games(), 10*time.Second); err != nil {
		t.Fatalf("check of schema 3: %v", err)
	}
	s, err := postgres.Open(dsn, storetest.Games(), postgres.Options{Verify: true})
	if err != nil {
		t.Fatalf("open of schema 3: %v", err)
	}
	defer s.Close()
	got := readAll(s)
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s after the upgrade:\n%s\nwant\n%s", key, got[key], w)
		}
	}
	var nulls int
	if err := conn.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM games WHERE snapshot IS NOT NULL AND snapshot_sum IS NULL)
		+ (SELECT count(*) FROM commits WHERE at IS NULL)`).Scan(&nulls); err != nil || nulls != 0 {
		t.Fatalf("%d rows without their checksum or time, %v", nulls, err)
	}
	if _, err := s.Commit(context.Background(), "c2", guard(t, s, "c2"), storage.Outcome{Key: "interaction-1"}); !errors.Is(err, storage.ErrApplied) {
		t.Fatalf("a key kept before the upgrade: %v, want ErrApplied", err)
	}
}
