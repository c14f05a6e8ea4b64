package main

import (
	"fmt"

	"github.com/meeplegames/meeple/bot/shard"
)

// shardProblems lists what is wrong with [discord] shards and shard_count.
func (d discordConfig) shardProblems() []string {
	if d.ShardCount < 0 || d.ShardCount > shard.MaxCount {
		return []string{fmt.Sprintf("[discord] shard_count is %d (want 1 to %d, or leave it out for Discord's recommendation)", d.ShardCount, shard.MaxCount)}
	}
	if d.Shards == "" {
		return nil
	}
	count := d.ShardCount
	if count == 0 {
		count = shard.MaxCount // the recommendation is known at start only
	}
	if _, err := shard.ParseRange(d.Shards, count); err != nil {
		return []string{fmt.Sprintf("[discord] %v", err)}
	}
	return nil
}

// shardSet returns the gateway shards this process runs: [discord] shards
// (every shard when left out) of shard_count, or of the count Discord
// recommends (asked through recommended) when shard_count is left out.
func (d discordConfig) shardSet(recommended func() (int, error)) (shard.Set, error) {
	count := d.ShardCount
	if count == 0 {
		n, err := recommended()
		if err != nil {
			return shard.Set{}, fmt.Errorf("asking Discord how many shards to run (GET /gateway/bot; or set [discord] shard_count): %w", err)
		}
		count = max(n, 1)
	}
	if d.Shards == "" {
		return shard.All(count), nil
	}
	set, err := shard.ParseRange(d.Shards, count)
	if err != nil {
		return shard.Set{}, fmt.Errorf("[discord] %w", err)
	}
	return set, nil
}
