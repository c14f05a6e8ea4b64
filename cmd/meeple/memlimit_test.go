package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestByteSizes(t *testing.T) {
	for text, want := range map[string]int64{"0": 0, "104MiB": 104 << 20, "1GiB": 1 << 30, " 512 KiB ": 512 << 10, "4096": 4096, "64B": 64} {
		var b byteSize
		if err := b.UnmarshalText([]byte(text)); err != nil || b.n != want {
			t.Errorf("%q: %d, %v; want %d", text, b.n, err, want)
		}
	}
	for _, text := range []string{"", "lots", "-1MiB", "5MB", "1.5GiB", "99999999999TiB"} {
		var b byteSize
		if err := b.UnmarshalText([]byte(text)); err == nil {
			t.Errorf("%q was taken as %d bytes", text, b.n)
		}
	}
}

// The runtime's soft memory limit is the default, the config's, or none,
// and GOMEMLIMIT wins over them all.
func TestMemoryLimit(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(was)
	dir := t.TempDir()
	config := func(text string) config {
		t.Helper()
		path := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	noEnv := func(string) string { return "" }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, c := range []struct {
		text   string
		getenv func(string) string
		want   int64
	}{
		{"", noEnv, defaultMemoryLimit},
		{`memory_limit = "300MiB"`, noEnv, 300 << 20},
		{`memory_limit = "0"`, noEnv, 77 << 20}, // left as it was
		{`memory_limit = "300MiB"`, func(k string) string {
			if k == "GOMEMLIMIT" {
				return "1GiB"
			}
			return ""
		}, 77 << 20}, // the runtime read GOMEMLIMIT itself
	} {
		debug.SetMemoryLimit(77 << 20)
		applyMemoryLimit(config(c.text), c.getenv, log)
		if got := debug.SetMemoryLimit(-1); got != c.want {
			t.Errorf("%q: limit %d MiB, want %d MiB", c.text, got>>20, c.want>>20)
		}
	}
	if _, err := loadConfig(writeTemp(t, dir, `memory_limit = "lots"`)); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("a bad memory_limit: %v", err)
	}
}

func writeTemp(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
