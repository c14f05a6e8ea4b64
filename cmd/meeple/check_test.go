package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/storage/boltdb"
	bolt "go.etcd.io/bbolt"
)

// goodToken has the form of a bot token (its first part is the base64 of a
// user id); it was never valid.
const goodToken = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe." + tokenSecret

// tokenSecret is the token's last part, which must never be printed.
const tokenSecret = "abcdefghijklmnopqrstuvwxyz0123456789AB"

// checkRun writes config into a file, runs "meeple check -config" on it
// with token in the environment, and returns the exit code and the output
// lines by check name (content may have several).
func checkRun(t *testing.T, config, token string) (int, map[string][]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := meepleIn(environ(map[string]string{tokenEnv: token}), "check", "-config", path)
	lines := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || (f[0] != "ok" && f[0] != "FAIL") {
			t.Fatalf("output line %q is not \"ok|FAIL name detail\"", line)
		}
		lines[f[1]] = append(lines[f[1]], line)
	}
	if code != 0 && !strings.Contains(stderr, "checks failed") {
		t.Errorf("exit %d with stderr %q", code, stderr)
	}
	if strings.Contains(stdout+stderr, tokenSecret) {
		t.Errorf("the token's secret part appears in the output:\n%s%s", stdout, stderr)
	}
	return code, lines
}

// copyDir copies the files of src into a new folder and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func tomlString(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// wantLine fails unless the named check's only line has the status and
// holds every want.
func wantLine(t *testing.T, lines map[string][]string, name, status string, want ...string) {
	t.Helper()
	got := lines[name]
	if len(got) != 1 || !strings.HasPrefix(got[0], status+" ") {
		t.Errorf("%s: lines %q, want one %s line", name, got, status)
		return
	}
	for _, w := range want {
		if !strings.Contains(got[0], w) {
			t.Errorf("%s: %q lacks %q", name, got[0], w)
		}
	}
	if status == "FAIL" && !strings.Contains(got[0], "→ fix: ") {
		t.Errorf("%s: %q does not say what to do", name, got[0])
	}
}

func TestCheckPassesAGoodSetup(t *testing.T) {
	db := storedGame(t, t.TempDir())
	backups := t.TempDir()
	content := copyDir(t, filepath.Join("..", "..", "engine", "eightydays", "content"))
	before, _ := os.ReadFile(db)
	code, lines := checkRun(t, "database = "+tomlString(db)+"\n[backup]\ndir = "+tomlString(backups)+
		"\n[content]\neightydays = "+tomlString(content)+"\n[deadlines]\ncomputer = \"random\"\n", goodToken)
	if code != 0 {
		t.Fatalf("exit %d: %q", code, lines)
	}
	wantLine(t, lines, "config", "ok", "every key known")
	wantLine(t, lines, "token", "ok", "from "+tokenEnv, "bot user 123456789012345678")
	wantLine(t, lines, "database", "ok", "layout 4", "1 games (1 active)", "verified")
	wantLine(t, lines, "content", "ok", "eightydays from "+content)
	wantLine(t, lines, "backup", "ok", backups+" is writable")
	// the invite link for the bot the token names, with every permission
	wantLine(t, lines, "invite", "ok", "https://discord.com/oauth2/authorize?client_id=123456789012345678&scope=bot+applications.commands&permissions=309237697536",
		"Create Public Threads", "Send Messages in Threads", "Attach Files")
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("the check changed the database file")
	}
	if left, _ := os.ReadDir(backups); len(left) != 0 {
		t.Errorf("the check left files in the backup folder: %v", left)
	}
}

func TestCheckMissingDatabaseIsCreatedAtFirstStart(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "meeple.db")
	code, lines := checkRun(t, "database = "+tomlString(db)+"\n", goodToken)
	if code != 0 {
		t.Fatalf("exit %d: %q", code, lines)
	}
	wantLine(t, lines, "database", "ok", "does not exist yet", "first start")
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the check created the database: %v", err)
	}
}

func TestCheckReportsConfigMistakes(t *testing.T) {
	code, lines := checkRun(t, `databse = "x.db"
application_id = "my-bot"
log_level = "loud"
[deadlines]
on_deadline = "skip"
computer = "genius"
[backup]
dir = "/tmp"
every = "0"
keep = -1
`, goodToken)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	wantLine(t, lines, "config", "FAIL", "unknown keys: databse", `application_id is "my-bot"`, `log_level is "loud"`,
		`on_deadline is "skip"`, `deadlines.computer is "genius" (every game knows: easy, heuristic, normal, random, strong)`, "backup.every", "backup.keep is -1")
	wantLine(t, lines, "token", "ok") // the other checks still run
}

func TestCheckReportsUnreadableConfig(t *testing.T) {
	code, lines := checkRun(t, "database = \n", goodToken)
	if code != 1 || len(lines) != 1 {
		t.Errorf("exit %d, lines %q; want 1 and the config line alone", code, lines)
	}
	wantLine(t, lines, "config", "FAIL", "line 1")
}

func TestCheckNeverQuotesAnUnquotedToken(t *testing.T) {
	for _, text := range []string{"token = " + goodToken + "\n", "log_level = \"info\"\ntoken = " + tokenSecret + "\n"} {
		code, lines := checkRun(t, text, "")
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		wantLine(t, lines, "config", "FAIL", "the value of token is not valid TOML")
		for _, part := range strings.Split(goodToken, ".") {
			if strings.Contains(lines["config"][0], part[:5]) {
				t.Errorf("%q quotes the token", lines["config"][0])
			}
		}
	}
}

func TestCheckReportsBadTokens(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ config, env, want string }{
		"none":        {"", "", "no token: " + tokenEnv + ", token_file and token are all empty"},
		"two parts":   {"", "abc." + tokenSecret, "has 2 parts"},
		"bad char":    {"", "abc.def." + tokenSecret + "!", "a character other than"},
		"empty part":  {"", "abc.." + tokenSecret, "empty part 2"},
		"file":        {"token_file = " + tomlString(filepath.Join(dir, "missing")) + "\n", "", "reading token_file"},
		"config form": {"token = \"" + tokenSecret + "\"\n", "", "from the config's token key has no dots"},
	} {
		t.Run(name, func(t *testing.T) {
			code, lines := checkRun(t, c.config, c.env)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			wantLine(t, lines, "token", "FAIL", c.want)
		})
	}
}

func TestCheckReportsDatabaseProblems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := storedGame(t, t.TempDir())
	data, _ := os.ReadFile(good)
	damaged := filepath.Join(dir, "damaged.db")
	copy(data[2*4096:], bytes.Repeat([]byte{0xAB}, 64)) // page 2's header
	os.WriteFile(damaged, data, 0o600)

	newer := storedGame(t, t.TempDir())
	db, err := bolt.Open(newer, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("meta")).Put([]byte("layout"), binary.AppendUvarint(nil, 9))
	})
	if err = errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}

	inUse := storedGame(t, t.TempDir())
	reg, _ := buildRegistry(nil)
	held, err := boltdb.Open(inUse, reg, boltdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()

	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, bytes.Repeat([]byte("notes\n"), 2000), 0o600)
	for _, c := range []struct{ db, want, fix string }{
		{damaged, "corrupt database", "restore the newest backup"},
		{newer, "newer", "run the newer Meeple"},
		{inUse, "in use", "stop it"},
		{filepath.Join(dir, "missing", "meeple.db"), "does not exist", "create the folder"},
		{dir, "it is a folder", "it must name the Meeple database file"},
		{text, "not a Meeple database", "it must name the Meeple database file"},
	} {
		code, lines := checkRun(t, "database = "+tomlString(c.db)+"\n", goodToken)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", c.db, code)
		}
		wantLine(t, lines, "database", "FAIL", c.want, c.fix)
	}
}

func TestCheckReportsContentProblems(t *testing.T) {
	broken := copyDir(t, filepath.Join("..", "..", "engine", "eightydays", "content"))
	if err := os.WriteFile(filepath.Join(broken, "track.toml"), []byte("[[space]]\nnumber = \"one\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nothing")
	code, lines := checkRun(t, "[content]\neightydays = "+tomlString(broken)+"\ncrystalpalace = "+tomlString(missing)+"\n", goodToken)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	got := lines["content"]
	if len(got) != 2 {
		t.Fatalf("content lines %q, want one per folder", got)
	}
	if !strings.HasPrefix(got[0], "FAIL") || !strings.Contains(got[0], missing+" is not a folder") {
		t.Errorf("missing folder: %q", got[0])
	}
	if !strings.HasPrefix(got[1], "FAIL") || !strings.Contains(got[1], "track.toml") || !strings.Contains(got[1], "→ fix: ") {
		t.Errorf("broken file: %q", got[1])
	}
}

func TestCheckReportsBackupFolderProblems(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "does not exist"},
		{file, "is not a folder"},
		{"/proc", "is not writable"}, // not even root may create files there
	} {
		code, lines := checkRun(t, "[backup]\ndir = "+tomlString(c.dir)+"\n", goodToken)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", c.dir, code)
		}
		wantLine(t, lines, "backup", "FAIL", c.want)
	}
}

func TestTokenForm(t *testing.T) {
	if id := tokenID("Bot " + goodToken); id != "123456789012345678" {
		t.Errorf("tokenID(Bot …) = %q", id)
	}
	for _, bad := range []string{"", "a.b", "a.b.c.d", "a b.c.d", "a.b.c=", "a.+.c"} {
		if _, err := tokenForm(bad); err == nil {
			t.Errorf("tokenForm(%q) accepted", bad)
		} else if bad != "" && strings.Contains(err.Error(), bad) {
			t.Errorf("tokenForm(%q): the error %q quotes the token", bad, err)
		}
	}
	for _, bad := range []string{
		"abc.def.ghi",                                            // no user id
		"MTIzNDU2Nzg5MDEyMzQ1Njc4.def.ghi",                       // no timestamp, no signature
		"MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.ghi",                    // a signature too short
		"MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe." + tokenSecret + "xyz", // too long
		"MTIz.GaBcDe." + tokenSecret,                             // "123" is no bot's id
		"YWJjZGVmZ2hpams.GaBcDe." + tokenSecret,                  // "abcdefghijk" is no id
	} {
		parts, err := tokenForm(bad)
		if err != nil {
			t.Fatalf("tokenForm(%q): %v", bad, err)
		}
		if _, err := tokenShape(parts); err == nil {
			t.Errorf("tokenShape(%q) accepted", bad)
		} else if strings.Contains(err.Error(), parts[0]) || strings.Contains(err.Error(), parts[2]) {
			t.Errorf("tokenShape(%q): the error %q quotes the token", bad, err)
		}
		if _, lines := checkRun(t, "", bad); !strings.HasPrefix(lines["token"][0], "FAIL") {
			t.Errorf("meeple check took %q: %s", bad, lines["token"])
		}
	}
}
