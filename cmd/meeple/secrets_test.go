package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// marker is the password the secrets test writes into every connection
// string; it must never be printed.
const marker = "Mk7pWdLeak"

// dsnForms returns the database at dsn (a pgtest postgres:// URL) written
// in every form a connection string takes, each holding marker as a
// password, a key passphrase or the name of a secret file.
func dsnForms(t *testing.T, dsn string) map[string]string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	socket, name := u.Query().Get("host"), strings.TrimPrefix(u.Path, "/")
	withPassword := *u
	withPassword.User = url.UserPassword("meeple", marker)
	query := *u
	q := query.Query()
	q.Set("password", marker)
	query.RawQuery = q.Encode()
	ssl := *u
	q = ssl.Query()
	q.Set("sslpassword", marker)
	q.Set("passfile", "/nonexistent/"+marker)
	ssl.RawQuery = q.Encode()
	kv := fmt.Sprintf("host=%s user=meeple dbname=%s sslmode=disable", socket, name)
	return map[string]string{
		"url password":      withPassword.String(),
		"url query":         query.String(),
		"url ssl secrets":   ssl.String(),
		"key=value":         kv + " password=" + marker,
		"key=value quoted":  kv + " password = '" + marker + " with space'",
		"key=value ssl":     kv + " sslpassword=" + marker + " passfile=/nonexistent/" + marker,
		"unreachable url":   "postgres://meeple:" + marker + "@127.0.0.1:1/x?connect_timeout=2",
		"unreachable kv":    "host=127.0.0.1 port=1 user=meeple password=" + marker + " connect_timeout=2",
		"unreachable sock":  "host=/nonexistent user=meeple password=" + marker + " dbname=x",
		"unparsable url":    "postgres://meeple:" + marker + "@[::1/x",
		"unparsable kv":     "host=db password=" + marker + " port=notanumber",
		"key=value as path": "host=/sock user=u password=" + marker + " dbname=x",
	}
}

// Every command that takes a database, given it by flag, config or
// $MEEPLE_DATABASE_URL in every form, prints (output, errors and logs)
// no password. Each command runs twice: through main's writers, and
// straight, so that both the messages and the last line of defence that
// redacts all output are checked.
func TestNoCommandPrintsADatabasePassword(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "game.txt")
	writeGameScript(t, script, 10)
	file := filepath.Join(dir, "meeple.db")
	if code, out, errs := meeple("import", "-db", file, "-channel", "900000000000000005", "-guild", "700000000000000007", "-script", script, "-seats", "111111111111111111,ai:random"); code != 0 {
		t.Fatalf("import into a file: %d %s %s", code, out, errs)
	}
	dsn := pg.Database(t) // skips the test without PostgreSQL
	var checked atomic.Int64
	t.Run("forms", func(t *testing.T) {
		for form, db := range dsnForms(t, dsn) {
			t.Run(strings.ReplaceAll(form, " ", "_"), func(t *testing.T) {
				t.Parallel()
				checked.Add(int64(checkNoPasswordPrinted(t, form, db, dsn, file, script)))
			})
		}
	})
	t.Logf("%d command runs, each through main and straight: no password printed", checked.Load())
}

// checkNoPasswordPrinted runs every command that takes a database on db,
// the database named in the form form (the file and script are an
// imported game's), and fails if any prints marker. Each run has its own
// environment (the token, and the database for the env runs), so the forms
// run at once. It returns how many commands it ran.
func checkNoPasswordPrinted(t *testing.T, form, db, dsn, file, script string) int {
	dir := t.TempDir()
	checked := 0
	// a copy of the file of its own: the forms' migrations read it at once
	file = copyFile(t, file, filepath.Join(dir, "meeple.db"))
	reachable := !strings.Contains(form, "unreachable") && !strings.Contains(form, "unparsable") && form != "key=value as path"
	// each form gets an empty database of its own to import and migrate into
	if reachable {
		fresh := pg.Database(t)
		db = strings.ReplaceAll(db, dbName(t, dsn), dbName(t, fresh))
	}
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, fmt.Appendf(nil, "database = %q\n", db), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("database = "+db+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		{"import", "-db", db, "-channel", "900000000000000006", "-guild", "700000000000000007", "-script", script, "-seats", "111111111111111111,ai:random"},
		{"export", "-db", db, "-game", "1"},
		{"export", "-config", config, "-channel", "900000000000000006"},
		{"export", "-config", bad, "-game", "1"},
		{"check", "-config", config},
		{"check", "-config", bad},
		{"backup", "-db", db, "-out", filepath.Join(dir, "copy.db")},
		{"migrate", "-from", db, "-to", filepath.Join(dir, "out-"+strings.ReplaceAll(form, " ", "-")+".db")},
		{"migrate", "-from", file, "-to", db},
		{"env", "export", "-game", "1"},
		{"env", "check"},
		{"env", "backup", "-out", filepath.Join(dir, "copy.db")},
		{"env", "migrate", "-to", filepath.Join(dir, "env-"+strings.ReplaceAll(form, " ", "-")+".db")},
	}
	if reachable {
		runs = runs[:len(runs)-1] // the env run would migrate into the same file: once is enough
	} else {
		// the bot stops at its database (reachable ones are run by
		// TestMeepleRunOnPostgres, against the fake Discord)
		runs = append(runs, []string{"run", "-config", config}, []string{"env", "run"})
	}
	for _, args := range runs {
		env := ""
		if args[0] == "env" {
			env, args = db, args[1:]
		}
		getenv := environ(map[string]string{databaseEnv: env, tokenEnv: "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"})
		var out, errs bytes.Buffer
		code := run(t.Context(), args, getenv, &out, &errs)
		var rawOut, rawErr bytes.Buffer
		_ = commands()[args[0]].run(t.Context(), args[1:], getenv, &rawOut, &rawErr)
		for _, printed := range []string{out.String(), errs.String(), rawOut.String(), rawErr.String()} {
			if strings.Contains(printed, marker) {
				t.Errorf("%s, %s (env %v, exit %d) printed the password:\n%s", form, strings.Join(args, " "), env != "", code, printed)
			}
		}
		checked++
	}
	// The forms that name a database this test can reach work: their
	// key=value form is a connection string, not a file.
	if reachable {
		code, out, errs := meeple("export", "-db", db, "-channel", "900000000000000006")
		if code != 0 || !strings.HasPrefix(out, "# game eightydays") {
			t.Errorf("%s: export from the database: exit %d %s", form, code, errs)
		}
	}
	if form == "key=value as path" {
		_, _, errs := meeple("export", "-db", db, "-game", "1")
		if !strings.Contains(errs, "storage/postgres: open") || !strings.Contains(errs, "xxxxx") {
			t.Errorf("a key=value string was not taken for a connection string: %s", errs)
		}
	}
	return checked
}

// environ is an environment for a command run in the test's process: the
// variables in vars, set or empty, and the process's others.
func environ(vars map[string]string) func(string) string {
	return func(key string) string {
		if v, ok := vars[key]; ok {
			return v
		}
		return os.Getenv(key)
	}
}

// copyFile copies the file at from to to and returns to.
func copyFile(t *testing.T, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// dbName is the database name of a pgtest URL.
func dbName(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

// writeGameScript writes the first moves of a game of 80 Days between two
// computer players, as a script with its header.
func writeGameScript(t *testing.T, path string, moves int) {
	t.Helper()
	reg, _ := buildRegistry(nil)
	rules, _ := reg.Lookup("eightydays")
	state, _ := rules.New(engine.Setup{Players: 2, Seed: 5})
	rng := engine.NewRNG(3)
	played, err := ai.PlayOut(state, []engine.Player{ai.Random{}, ai.Random{}}, &rng, moves)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := engine.WriteScript(&buf, "eightydays", engine.Setup{Players: 2, Seed: 5}, played.Moves); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(buf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A token pasted under the wrong key is never printed back: not by check,
// nor by run, whichever key holds it.
func TestATokenUnderAnotherKeyIsNotEchoed(t *testing.T) {
	t.Setenv(databaseEnv, "")
	t.Setenv(tokenEnv, goodToken)
	q := strconv.Quote(goodToken)
	for _, config := range []string{
		"application_id = " + q,
		"dev_guild_id = " + q,
		"log_level = " + q,
		"log_format = " + q,
		"memory_limit = " + q,
		"[deadlines]\non_deadline = " + q,
		"[deadlines]\ncomputer = " + q,
		"[deadlines]\nturn = " + q,
		"[discord]\nrest_base_url = " + q,
		"[discord]\ngateway_url = " + q,
		"[discord]\nrest_base_url = \"http://" + goodToken + "\"",
		"[http]\nlisten = " + q + "\npublic_key = \"" + strings.Repeat("ab", 32) + "\"",
		"[http]\nmetrics = " + q,
		"[http]\npath = " + q,
		"[content]\n" + strconv.Quote(goodToken) + " = \"/tmp\"",
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(config+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"check", "run"} {
			code, out, errs := meeple(cmd, "-config", path)
			if code == 0 {
				t.Errorf("%s took %q", cmd, config)
			}
			for _, part := range strings.Split(goodToken, ".") {
				if strings.Contains(out+errs, part) {
					t.Errorf("%s with %q printed part of the token:\n%s%s", cmd, config, out, errs)
					break
				}
			}
		}
	}
}
