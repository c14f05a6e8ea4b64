package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
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
	Content       map[string]string `toml:"content"`
	Deadlines     deadlineConfig    `toml:"deadlines"`
	Render        renderConfig      `toml:"render"`
	Backup        backupConfig      `toml:"backup"`
}

type deadlineConfig struct {
	Turn       *duration `toml:"turn"`
	Reminder   *duration `toml:"reminder"`
	OnDeadline string    `toml:"on_deadline"`
	Computer   string    `toml:"computer"`
	CheckEvery *duration `toml:"check_every"`
}

type renderConfig struct {
	Images *bool `toml:"images"`
}

// duration is a Go duration written as a string: "48h", "90m", "0".
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("%q is not a duration (write it like \"48h\" or \"30m\")", b)
	}
	if v < 0 {
		return fmt.Errorf("%q: a duration cannot be negative", b)
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

// loadConfig reads path, or returns the defaults for "". Unknown keys are
// refused, so that a misspelt key does not silently fall back to a default.
func loadConfig(path string) (config, error) {
	var c config
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		if extra := md.Undecoded(); len(extra) > 0 {
			keys := make([]string, len(extra))
			for i, k := range extra {
				keys[i] = k.String()
			}
			return c, fmt.Errorf("config %s: unknown keys: %s", path, strings.Join(keys, ", "))
		}
	}
	if c.Database == "" {
		c.Database = defaultDatabase
	}
	switch c.Deadlines.OnDeadline {
	case "", "computer", "pause":
	default:
		return c, fmt.Errorf("config %s: deadlines.on_deadline is %q; want \"computer\" or \"pause\"", path, c.Deadlines.OnDeadline)
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return c, fmt.Errorf("config %s: %w", path, err)
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return c, fmt.Errorf("config %s: log_format is %q; want \"text\" or \"json\"", path, c.LogFormat)
	}
	return c, nil
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
	return 0, fmt.Errorf("log_level is %q; want debug, info, warn or error", s)
}

// logger builds the configured logger writing to w.
func (c config) logger(w io.Writer) *slog.Logger {
	level, _ := parseLevel(c.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
