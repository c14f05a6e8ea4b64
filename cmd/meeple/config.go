package main

import (
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/bot/endpoint"
	"github.com/meeplegames/meeple/bot/interactions"
	"github.com/meeplegames/meeple/engine/ai"
)

// tokenEnv is the environment variable that holds the bot token.
const tokenEnv = "MEEPLE_DISCORD_TOKEN"

// config is the file "meeple run -config" reads; config.example.toml
// documents every key. The zero value of each field means its default.
type config struct {
	Token         string            `toml:"token"`
	TokenFile     string            `toml:"token_file"`
	ApplicationID string            `toml:"application_id"`
	DevGuildID    string            `toml:"dev_guild_id"`
	Database      string            `toml:"database"`
	LogLevel      string            `toml:"log_level"`
	LogFormat     string            `toml:"log_format"`
	MemoryLimit   *byteSize         `toml:"memory_limit"`
	Content       map[string]string `toml:"content"`
	Deadlines     deadlineConfig    `toml:"deadlines"`
	Computers     computerConfig    `toml:"computers"`
	Render        renderConfig      `toml:"render"`
	Backup        backupConfig      `toml:"backup"`
	Discord       discordConfig     `toml:"discord"`
	HTTP          httpConfig        `toml:"http"`

	unknown []string // keys the file holds that no field takes
}

// discordConfig says where Discord is: by default discord.com; a large
// deployment puts a rate-limiting REST proxy (nirn-proxy) in front of it,
// and tests point the bot at a fake.
type discordConfig struct {
	RESTBaseURL string `toml:"rest_base_url"`
	GatewayURL  string `toml:"gateway_url"`
	// Shards is the range of gateway shards this process runs ("0-3");
	// "" means all of them. ShardCount is how many there are in all; 0
	// means the count Discord recommends.
	Shards     string `toml:"shards"`
	ShardCount int    `toml:"shard_count"`
	// Gateway false runs the bot without a gateway connection, on the
	// interactions endpoint alone ([http] listen); nil means true.
	Gateway *bool `toml:"gateway"`
}

// gatewayOff reports whether the config turns the gateway off.
func (d discordConfig) gatewayOff() bool { return d.Gateway != nil && !*d.Gateway }

// httpConfig is what "meeple run" serves over HTTP: Discord's interactions
// endpoint, and the operator's metrics and probes, each on its own
// address. An address without a host ("8080", ":8080") listens on
// localhost only.
type httpConfig struct {
	Listen    string `toml:"listen"`
	Path      string `toml:"path"`
	PublicKey string `toml:"public_key"`
	Metrics   string `toml:"metrics"`
}

// defaultEndpointPath is where the endpoint answers when [http] path is
// not set.
const defaultEndpointPath = "/interactions"

// endpointPath is the path the interactions endpoint answers on.
func (h httpConfig) endpointPath() string {
	if h.Path == "" {
		return defaultEndpointPath
	}
	return h.Path
}

// endpointPattern is the ServeMux pattern that matches the endpoint's
// path and nothing else: a path ending in / would otherwise take every
// path below it.
func (h httpConfig) endpointPattern() string {
	if p := h.endpointPath(); strings.HasSuffix(p, "/") {
		return p + "{$}"
	}
	return h.endpointPath()
}

// literalPath reports why p is not a URL path to be matched as written:
// it starts with /, has no empty, "." or ".." segment (Go's router would
// redirect those), and holds only the characters a path carries without
// escaping, which leaves out spaces, "%" and the router's "{" and "}".
func literalPath(p string) error {
	if !strings.HasPrefix(p, "/") {
		return errors.New("it starts with /")
	}
	for _, r := range p {
		if !strings.ContainsRune(pathChars, r) {
			return fmt.Errorf("%q has no place in a path written as is (letters, digits and - . _ ~ ! $ & ' ( ) * + , ; = : @ /)", r)
		}
	}
	for _, seg := range strings.Split(strings.TrimSuffix(p[1:], "/"), "/") {
		if (seg == "" && p != "/") || seg == "." || seg == ".." {
			return errors.New(`it has an empty, "." or ".." part between slashes`)
		}
	}
	return nil
}

// pathChars are the characters of a URL path that need no escaping
// (RFC 3986, pchar and /), without "%".
const pathChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/"

// listenAddress reads an address as [http] writes it: a port alone, or
// an address with no host, means localhost.
func listenAddress(s string) (string, error) {
	if !strings.Contains(s, ":") {
		s = ":" + s
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%s has no port number", shown(s))
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// orNone is an address, or "" when it did not read.
func orNone(addr string, err error) string {
	if err != nil {
		return ""
	}
	return addr
}

// problems lists what is wrong in [http] and in running without the
// gateway.
func (h httpConfig) problems(gatewayOff bool) []string {
	var out []string
	for _, a := range [][2]string{{"listen", h.Listen}, {"metrics", h.Metrics}} {
		if a[1] == "" {
			continue
		}
		if _, err := listenAddress(a[1]); err != nil {
			out = append(out, fmt.Sprintf("[http] %s is %s, not an address to listen on (write \"8080\", \"127.0.0.1:8080\" or \"0.0.0.0:8080\")", a[0], shown(a[1])))
		}
	}
	if l, m := orNone(listenAddress(h.Listen)), orNone(listenAddress(h.Metrics)); l != "" && l == m && !strings.HasSuffix(l, ":0") {
		out = append(out, "[http] listen and metrics are the same address; give the metrics an address of their own")
	}
	switch {
	case h.Listen != "" && h.PublicKey == "":
		out = append(out, "[http] listen is set but public_key is not (Developer Portal, General Information, Public Key)")
	case h.PublicKey != "":
		if _, err := interactions.ParsePublicKey(h.PublicKey); err != nil {
			out = append(out, "[http] public_key: "+err.Error())
		}
	}
	if h.Path != "" {
		if err := literalPath(h.Path); err != nil {
			out = append(out, fmt.Sprintf("[http] path is %s: %v", shown(h.Path), err))
		}
	}
	if gatewayOff && h.Listen == "" {
		out = append(out, "[discord] gateway = false needs the interactions endpoint ([http] listen and public_key): nothing else would bring the bot its interactions")
	}
	return out
}

func (d discordConfig) endpoints() endpoint.Config {
	return endpoint.Config{REST: d.RESTBaseURL, Gateway: d.GatewayURL}
}

type deadlineConfig struct {
	Turn       *duration `toml:"turn"`
	Reminder   *duration `toml:"reminder"`
	OnDeadline string    `toml:"on_deadline"`
	Computer   string    `toml:"computer"`
	CheckEvery *duration `toml:"check_every"`
}

// apply sets the bot's deadline settings from the config: a duration of
// "0" turns deadlines or reminders off; one left out keeps the default.
func (d deadlineConfig) apply(c *bot.Config) {
	c.OnDeadline, c.Computer = d.OnDeadline, d.Computer
	if d.Turn != nil {
		c.Deadline, c.NoDeadline = d.Turn.Duration, d.Turn.Duration == 0
	}
	if d.Reminder != nil {
		c.Reminder, c.NoReminder = d.Reminder.Duration, d.Reminder.Duration == 0
	}
	if d.CheckEvery != nil && d.CheckEvery.Duration > 0 {
		c.TickEvery = d.CheckEvery.Duration
	}
}

// computerConfig is how the searching computer players think.
type computerConfig struct {
	Think    *duration `toml:"think"`
	Thinkers int       `toml:"thinkers"`
}

// apply sets the bot's thinking budget and slots.
func (cc computerConfig) apply(c *bot.Config) {
	if cc.Think != nil {
		c.Think = cc.Think.Duration
	}
	c.Thinkers = cc.Thinkers
}

// problems are what is wrong with [computers].
func (cc computerConfig) problems() []string {
	var out []string
	if cc.Think != nil && (cc.Think.Duration < 0 || cc.Think.Duration > ai.MaxThinkMS*time.Millisecond) {
		out = append(out, fmt.Sprintf("computers.think is %v (want from 0 to %v)", cc.Think.Duration, ai.MaxThinkMS*time.Millisecond))
	}
	if cc.Thinkers < 0 {
		out = append(out, fmt.Sprintf("computers.thinkers is %d (want 0 for one per core, or more)", cc.Thinkers))
	}
	return out
}

type renderConfig struct {
	Images     *bool    `toml:"images"`
	LayerCache byteSize `toml:"layer_cache"`
}

// duration is a Go duration written as a string: "48h", "90m", "0".
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("%s is not a duration (write it like \"48h\" or \"30m\")", shown(string(b)))
	}
	if v < 0 {
		return fmt.Errorf("%s: a duration cannot be negative", shown(string(b)))
	}
	d.Duration = v
	return nil
}

// defaultDatabase is the store's file when the config names none.
const defaultDatabase = "meeple.db"

// database is the database to use: $MEEPLE_DATABASE_URL when it is set
// (so that a connection string's password can stay out of the file),
// else the config's.
func (c config) database(getenv func(string) string) string {
	if env := getenv(databaseEnv); env != "" {
		return env
	}
	return c.Database
}

// loadConfig reads path, or returns the defaults for "". Unknown keys and
// values out of range are refused (the first of them), so that a misspelt
// key does not silently fall back to a default.
func loadConfig(path string) (config, error) {
	c, err := decodeConfig(path)
	if err != nil {
		return c, err
	}
	if problems := c.problems(); len(problems) > 0 {
		return c, fmt.Errorf("config %s: %s", path, problems[0])
	}
	return c, nil
}

// decodeConfig reads path, or returns the defaults for "", without judging
// the values. Unknown keys are kept in c.unknown.
func decodeConfig(path string) (config, error) {
	var c config
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		var perr toml.ParseError
		if errors.As(err, &perr) && secretKey(perr.LastKey) != "" {
			// The parser quotes what it found, which here is (part of) the
			// token or a connection string's password.
			return c, fmt.Errorf("config %s: line %d: the value of %s is not valid TOML; write it in double quotes", path, perr.Position.Line, secretKey(perr.LastKey))
		}
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		for _, k := range md.Undecoded() {
			c.unknown = append(c.unknown, k.String())
		}
	}
	if c.Database == "" {
		c.Database = defaultDatabase
	}
	return c, nil
}

// secretKey returns "token" or "database" when key (a TOML key path) is
// one whose value may hold a secret, else "".
func secretKey(key string) string {
	for _, k := range []string{"token", "database"} {
		if key == k || strings.HasSuffix(key, "."+k) {
			return k
		}
	}
	return ""
}

// problems lists what is wrong with the config's keys and values, each in
// a sentence that names the key.
func (c config) problems() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if len(c.unknown) > 0 {
		add("unknown keys: %s", strings.Join(c.unknown, ", "))
	}
	for _, id := range [][2]string{{"application_id", c.ApplicationID}, {"dev_guild_id", c.DevGuildID}} {
		if id[1] != "" && !isSnowflake(id[1]) {
			add("%s is %s, not a Discord id (digits only: Developer Portal, or Copy ID in Discord)", id[0], shown(id[1]))
		}
	}
	switch c.Deadlines.OnDeadline {
	case "", "computer", "pause":
	default:
		add("deadlines.on_deadline is %s (want \"computer\" or \"pause\")", shown(c.Deadlines.OnDeadline))
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		add("%v", err)
	}
	if err := c.Discord.endpoints().Check(); err != nil {
		add("[discord] %v", err)
	}
	for _, u := range [][2]string{{"rest_base_url", c.Discord.RESTBaseURL}, {"gateway_url", c.Discord.GatewayURL}} {
		if tokenInText.MatchString(u[1]) {
			add("[discord] %s holds what looks like a bot token (not shown); the token belongs in %s or token_file", u[0], tokenEnv)
		}
	}
	out = append(out, c.Discord.shardProblems()...)
	out = append(out, c.Computers.problems()...)
	out = append(out, c.HTTP.problems(c.Discord.gatewayOff())...)
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		add("log_format is %s (want \"text\" or \"json\")", shown(c.LogFormat))
	}
	for _, game := range slices.Sorted(maps.Keys(c.Content)) {
		if !slices.Contains(gameNames(), game) {
			add("[content] names the game %s (want one of %s)", shown(game), strings.Join(gameNames(), ", "))
		}
	}
	if c.Backup.Keep < 0 {
		add("backup.keep is %d (want 0, which keeps every copy, or more)", c.Backup.Keep)
	}
	if c.Backup.Dir != "" && c.Backup.Every != nil && c.Backup.Every.Duration == 0 {
		add("backup.every is \"0\" while backup.dir is set, so no copy would be written (give an interval such as \"24h\")")
	}
	return out
}

// tokenInText finds a Discord bot token inside a longer text.
var tokenInText = regexp.MustCompile(`[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}`)

// shown quotes a configured value for a message, unless it may be a
// secret pasted under the wrong key (a token, or a URL's password): a
// value with a run of 24 or more letters, digits, - and _ (a token's
// parts are that long) or with a URL's user information is only
// described by its length.
func shown(v string) string {
	run, longest := 0, 0
	for _, r := range v {
		if isBase64URL(r) {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if longest < 24 && !strings.Contains(v, "@") {
		return strconv.Quote(v)
	}
	return fmt.Sprintf("a value of %d characters (not shown: it may be a secret)", len(v))
}

// isSnowflake reports whether s is a Discord id: up to 20 digits.
func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// errNoToken: the bot has no token to connect with.
var errNoToken = errors.New("no Discord bot token: set " + tokenEnv + " (or token_file in a -config file); to play without Discord, use \"meeple play\"")

// token returns the bot token: the environment variable first, then the
// token file, then the config's token.
func (c config) token(getenv func(string) string) (string, error) {
	if t := strings.TrimSpace(getenv(tokenEnv)); t != "" {
		return t, nil
	}
	if c.TokenFile != "" {
		data, err := os.ReadFile(c.TokenFile)
		if err != nil {
			return "", fmt.Errorf("reading token_file: %w", err)
		}
		if t := strings.TrimSpace(string(data)); t != "" {
			return t, nil
		}
		return "", fmt.Errorf("token_file %s is empty", c.TokenFile)
	}
	if t := strings.TrimSpace(c.Token); t != "" {
		return t, nil
	}
	return "", errNoToken
}

func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "", "info":
		return slog.LevelInfo, nil
	case "debug":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("log_level is %s (want debug, info, warn or error)", shown(s))
}

// logger builds the configured logger writing to w.
func (c config) logger(w io.Writer) *slog.Logger {
	level, _ := parseLevel(c.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	// no interaction or webhook token reaches the log, whoever logs
	if c.LogFormat == "json" {
		return slog.New(transport.WithoutTokens(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(transport.WithoutTokens(slog.NewTextHandler(w, opts)))
}
