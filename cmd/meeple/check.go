package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/storage/postgres"
)

// checkResult is one line of "meeple check": what was checked, what was
// found and, when it failed, what to do.
type checkResult struct {
	name   string
	ok     bool
	detail string
	fix    string
}

func (r checkResult) String() string {
	if r.ok {
		return fmt.Sprintf("ok    %-8s %s", r.name, r.detail)
	}
	return fmt.Sprintf("FAIL  %-8s %s → fix: %s", r.name, r.detail, r.fix)
}

func runCheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	configPath := fs.String("config", "", "the bot's TOML config file; without it every setting has its default")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	results := preflight(*configPath, getenv)
	failed := 0
	for _, r := range results {
		fmt.Fprintln(stdout, r)
		if !r.ok {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(results))
	}
	return nil
}

// preflight checks what "meeple run -config path" needs, without
// connecting to Discord or changing any file: the config, the token's
// form, the database, the content folders and the backup folder.
func preflight(path string, getenv func(string) string) []checkResult {
	cfg, err := decodeConfig(path)
	if err != nil {
		return []checkResult{{name: "config", detail: err.Error(),
			fix: "correct the file at the line named; config.example.toml shows every key"}}
	}
	games, err := buildRegistry(nil)
	if err != nil { // the embedded content is tested; this is a broken build
		return []checkResult{{name: "content", detail: err.Error(), fix: "rebuild meeple from a clean checkout"}}
	}
	out := []checkResult{checkConfig(path, cfg, games), checkToken(cfg, getenv, true), checkDatabase(cfg.database(getenv), games)}
	out = append(out, checkContent(cfg.Content)...)
	return append(out, checkBackupDir(cfg.Backup.Dir), inviteLine(cfg, getenv))
}

// inviteLine gives the link that adds the bot to a server with every
// permission its features need (bot.Permissions), for the application
// in application_id, else the one the token names.
func inviteLine(cfg config, getenv func(string) string) checkResult {
	app := cfg.ApplicationID
	if !isSnowflake(app) {
		app = ""
	}
	if app == "" {
		if token, err := cfg.token(getenv); err == nil {
			app = tokenID(token)
		}
	}
	if app == "" {
		app = "<APPLICATION_ID>"
	}
	return checkResult{name: "invite", ok: true, detail: bot.InviteURL(app) + " (" + bot.PermissionList() + ")"}
}

// checkConfig reports the config's unknown keys and values out of range.
func checkConfig(path string, cfg config, games *engine.Registry) checkResult {
	r := checkResult{name: "config", ok: true, detail: path + ": every key known, every value in range"}
	if path == "" {
		r.detail = "no -config: every setting at its default"
	}
	problems := cfg.problems()
	if name := cfg.Deadlines.Computer; name != "" {
		if known := commonComputerPlayers(games); !slices.Contains(known, name) {
			problems = append(problems, fmt.Sprintf("deadlines.computer is %s (every game knows: %s)", shown(name), strings.Join(known, ", ")))
		}
	}
	if len(problems) > 0 {
		r.ok, r.detail = false, path+": "+strings.Join(problems, "; ")
		r.fix = "correct these keys; config.example.toml documents each one"
	}
	return r
}

// commonComputerPlayers lists the computer players every game offers.
func commonComputerPlayers(games *engine.Registry) []string {
	var common []string
	for i, game := range games.Names() {
		rules, err := games.Lookup(game)
		if err != nil {
			continue
		}
		names := ai.Names(rules)
		if i == 0 {
			common = names
			continue
		}
		common = slices.DeleteFunc(common, func(n string) bool { return !slices.Contains(names, n) })
	}
	return common
}

// checkToken finds the token as "meeple run" would and checks its form
// and, when shape is set, its shape as Discord makes tokens (see
// tokenShape: meeple check asks for it; meeple run asks only for the form,
// so that a change to Discord's tokens cannot keep the bot from
// starting). It never prints the token.
func checkToken(cfg config, getenv func(string) string, shape bool) checkResult {
	r := checkResult{name: "token"}
	source := "the config's token key"
	switch {
	case strings.TrimSpace(getenv(tokenEnv)) != "":
		source = tokenEnv
	case cfg.TokenFile != "":
		source = "token_file " + cfg.TokenFile
	}
	token, err := cfg.token(getenv)
	if errors.Is(err, errNoToken) {
		err = errors.New("no token: " + tokenEnv + ", token_file and token are all empty")
	}
	if err != nil {
		r.detail = err.Error()
		r.fix = "set " + tokenEnv + ", or name a file holding only the token with token_file (readable by the bot's user)"
		return r
	}
	parts, err := tokenForm(token)
	id := ""
	if err == nil && shape {
		id, err = tokenShape(parts)
	}
	if err != nil {
		r.detail = "the token from " + source + " " + err.Error()
		r.fix = "copy the token again from the Developer Portal (Bot → Reset Token), alone on its line, without quotes"
		return r
	}
	r.ok, r.detail = true, "from "+source+": the form of a Discord bot token"
	if id != "" {
		r.detail += ", for bot user " + id
	}
	return r
}

// tokenForm checks that token has a bot token's form, with an optional
// "Bot " prefix: three parts of base64url characters separated by dots.
// It returns the parts. Its errors never quote the token.
func tokenForm(token string) ([]string, error) {
	parts := strings.Split(strings.TrimPrefix(token, "Bot "), ".")
	if len(parts) == 1 {
		return nil, errors.New("has no dots; a bot token is 3 parts separated by dots")
	}
	if len(parts) != 3 {
		return nil, fmt.Errorf("has %d parts separated by dots; a bot token has 3", len(parts))
	}
	for i, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("has an empty part %d", i+1)
		}
		if strings.IndexFunc(p, func(r rune) bool { return !isBase64URL(r) }) >= 0 {
			return nil, fmt.Errorf("has a character other than letters, digits, - and _ in part %d", i+1)
		}
	}
	return parts, nil
}

// tokenShape checks the parts of a token of the right form against the
// shape of the tokens Discord makes: the first the bot's user id (a
// snowflake) encoded, the second a timestamp (4 bytes, 6 characters), the
// third an HMAC (27 to 38 characters). It returns the bot's user id. Its
// errors never quote the token.
func tokenShape(parts []string) (string, error) {
	id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	if err != nil || !isSnowflake(string(id)) || len(id) < 15 {
		return "", errors.New("does not start with a bot's user id (part 1 encodes a Discord id of 15 to 20 digits)")
	}
	if stamp, err := base64.RawURLEncoding.DecodeString(parts[1]); err != nil || len(stamp) != 4 {
		return "", fmt.Errorf("has a part 2 of %d characters; a bot token's timestamp is 6", len(parts[1]))
	}
	if n := len(parts[2]); n < 27 || n > 38 {
		return "", fmt.Errorf("has a part 3 of %d characters; a bot token's signature is 27 to 38", n)
	}
	return string(id), nil
}

// tokenID is the bot user id token encodes, or "" when it has not the
// shape of a bot token.
func tokenID(token string) string {
	parts, err := tokenForm(token)
	if err != nil {
		return ""
	}
	id, _ := tokenShape(parts)
	return id
}

func isBase64URL(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_'
}

// checkDatabase opens the database read-only, checks every page and record
// and counts the games. A missing file is fine when its folder is
// writable: the bot creates it at its first start.
func checkDatabase(path string, games *engine.Registry) checkResult {
	r := checkResult{name: "database"}
	if postgres.IsDSN(path) {
		return checkPostgres(path, games)
	}
	sum, err := boltdb.Check(path, games)
	if errors.Is(err, storage.ErrNoDatabase) {
		if _, statErr := os.Stat(path); errors.Is(statErr, fs.ErrNotExist) {
			dir := filepath.Dir(path)
			if err := probeWritable(dir); err != nil {
				r.detail = fmt.Sprintf("%s does not exist yet and its folder is not writable: %v", path, err)
				r.fix = "run the check as the bot's user, and let that user write to " + dir
				return r
			}
			r.ok, r.detail = true, path+" does not exist yet; the bot creates it at its first start (the folder is writable)"
			return r
		}
	}
	if err != nil {
		r.detail, r.fix = err.Error(), databaseAdvice(path, err)
		return r
	}
	r.detail = fmt.Sprintf("%s: layout %d, every page and record verified, %d games (%d active)", path, sum.Layout, sum.Total, sum.Active)
	// The check reads; the bot opens the file for reading and writing.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		r.detail += ", but this user may not write it, which meeple run, import and migrate need: " + err.Error()
		r.fix = "run the check as the bot's user, and give that user the file (chown meeple " + path + "; chmod 600 " + path + ")"
		return r
	}
	r.ok = f.Close() == nil
	return r
}

// checkPostgres connects to a PostgreSQL database, reads its schema
// version and verifies every row (postgres.Check), changing nothing.
func checkPostgres(dsn string, games *engine.Registry) checkResult {
	r := checkResult{name: "database"}
	st, err := postgres.Check(dsn, games, 10*time.Second)
	switch {
	case err != nil:
		r.detail, r.fix = err.Error(), postgresAdvice(err)
	case st.Schema < st.Current:
		r.ok = true
		r.detail = fmt.Sprintf("%s: schema %d; the bot creates or upgrades the tables to %d at its start (every row gains its checksum then)", postgres.Redact(dsn), st.Schema, st.Current)
	default:
		r.ok = true
		r.detail = fmt.Sprintf("%s: schema %d (this build's), every row verified, %d games (%d active)", postgres.Redact(dsn), st.Schema, st.Total, st.Active)
	}
	return r
}

// databaseAdvice says what to do about an error of the database check.
func databaseAdvice(path string, err error) string {
	if errors.Is(err, boltdb.ErrInUse) {
		return "the bot is running and holds the file; stop it to check the file here (the bot checks the whole file itself when it starts)"
	}
	if advice := storeAdvice(path, err); advice != "" {
		return advice
	}
	return "correct database in the config"
}

// checkContent loads and validates each content override folder.
func checkContent(dirs map[string]string) []checkResult {
	if len(dirs) == 0 {
		return []checkResult{{name: "content", ok: true, detail: "no override folders: the embedded content is used"}}
	}
	var out []checkResult
	for _, game := range slices.Sorted(maps.Keys(dirs)) {
		dir := dirs[game]
		r := checkResult{name: "content", ok: true, detail: game + " from " + dir + ": every file loads and validates"}
		if !slices.Contains(gameNames(), game) {
			game = "for " + shown(game)
		}
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			r.ok, r.detail = false, fmt.Sprintf("%s: %s is not a folder", game, dir)
			r.fix = "copy the game's content folder there, or remove the [content] " + game + " line to use the embedded content"
		} else if _, err := buildRegistry(map[string]string{game: dir}); err != nil {
			r.ok, r.detail = false, err.Error()
			r.fix = "correct the entry named, or remove the [content] " + game + " line to use the embedded content"
		}
		out = append(out, r)
	}
	return out
}

// checkBackupDir checks that the [backup] folder exists and takes a file.
func checkBackupDir(dir string) checkResult {
	r := checkResult{name: "backup"}
	if dir == "" {
		r.ok, r.detail = true, "periodic backups off ([backup] dir is empty); meeple backup still copies on demand"
		return r
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.detail, r.fix = dir+" does not exist", "create it, writable by the bot's user (install -d -o meeple "+dir+")"
	case err != nil:
		r.detail, r.fix = err.Error(), "run the check as the bot's user, and let that user write to "+dir
	case !info.IsDir():
		r.detail, r.fix = dir+" is not a folder", "name a folder in [backup] dir"
	default:
		if err := probeWritable(dir); err != nil {
			r.detail, r.fix = fmt.Sprintf("%s is not writable: %v", dir, err), "run the check as the bot's user, and let that user write to "+dir
			return r
		}
		r.ok, r.detail = true, dir+" is writable"
	}
	return r
}

// probeWritable writes, syncs and removes a small file in dir.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".meeple-check-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write([]byte("meeple check\n"))
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}
