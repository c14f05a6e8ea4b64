package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestShardConfig(t *testing.T) {
	load := configLoader(t)
	for text, want := range map[string]string{
		"[discord]\nshards = \"0-4\"\nshard_count = 4\n": "shard 4 is outside 0-3",
		"[discord]\nshards = \"two\"\n":                  `"two" is not a shard`,
		"[discord]\nshard_count = -1\n":                  "shard_count is -1",
		"[discord]\nshards = \"1,1\"\nshard_count = 2\n": "named twice",
	} {
		if _, err := load(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want an error with %q", text, err, want)
		}
	}

	asked := 0
	recommend := func(n int, err error) func() (int, error) {
		return func() (int, error) { asked++; return n, err }
	}
	c, err := load("[discord]\nshards = \"2-3\"\nshard_count = 8\n")
	if err != nil {
		t.Fatal(err)
	}
	set, err := c.Discord.shardSet(recommend(1, nil))
	if err != nil || set.Count != 8 || !slices.Equal(set.IDs, []int{2, 3}) || asked != 0 {
		t.Errorf("shards 2-3 of 8: %v %v (Discord asked %d times, want 0)", set, err, asked)
	}
	// without shard_count, Discord's recommendation; without shards, all
	c, err = load("[discord]\nshards = \"1\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if set, err := c.Discord.shardSet(recommend(3, nil)); err != nil || set.String() != "1 of 3" {
		t.Errorf("shard 1 of the recommended 3: %v %v", set, err)
	}
	if _, err := c.Discord.shardSet(recommend(1, nil)); err == nil {
		t.Error("shard 1 of a recommended 1 was accepted")
	}
	if _, err := c.Discord.shardSet(recommend(0, errors.New("offline"))); err == nil || !strings.Contains(err.Error(), "shard_count") {
		t.Errorf("Discord unreachable: %v; want the error to name shard_count", err)
	}
	if set, err := (discordConfig{}).shardSet(recommend(2, nil)); err != nil || set.String() != "0-1 of 2" {
		t.Errorf("nothing set, 2 recommended: %v %v", set, err)
	}
}

// configLoader returns a function that loads a config file holding text,
// written in a folder of the test's own.
func configLoader(t *testing.T) func(text string) (config, error) {
	dir := t.TempDir()
	return func(text string) (config, error) {
		t.Helper()
		path := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return loadConfig(path)
	}
}
