package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/storage"
)

// guildOnShard1 is a guild whose events go to shard 1 of 2 (1 << 22);
// testGuild's go to shard 0.
const guildOnShard1 = "4194304"

// TestShardedBotsSplitGuildsAndShareDMs runs two bots as two processes
// would, each with one of two shards, on one store: a guild's game is
// played through the bot holding its shard, a DM (shard 0) acts on a game
// of shard 1, and each deadline fires once though both bots check: first
// in the bot of its shard, in another once overdue.
func TestShardedBotsSplitGuildsAndShareDMs(t *testing.T) {
	t.Parallel()
	cfg := Config{Deadline: time.Hour, NoReminder: true, IdentifyEvery: time.Millisecond}
	cfg.Shards = shard.Set{IDs: []int{0}, Count: 2}
	h := newHarness(t, tinyRegistry(), cfg, nil, nil)
	run := serveOverGateway(t, h)

	other := cfg
	other.Shards = shard.Set{IDs: []int{1}, Count: 2}
	other.AppID, other.Now, other.NewSeed, other.Logger = testApp, h.clock.Now, h.bot.cfg.NewSeed, h.bot.cfg.Logger
	b2, err := New(Parts{Session: h.fake.NewSession(), Store: h.store, Games: h.reg}, other)
	if err != nil {
		t.Fatal(err)
	}
	run.peers = append(run.peers, b2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b2.Run(ctx) }()
	t.Cleanup(func() { // before the harness closes the store
		cancel()
		if err := <-done; err != nil {
			t.Errorf("second bot's Run: %v", err)
		}
	})
	if _, err := h.fake.WaitShards(10*time.Second, discordtest.Shard{ID: 0, Count: 2}, discordtest.Shard{ID: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	if n := countKind(h.fake, discordtest.Commands); n != 1 {
		t.Errorf("commands registered %d times; only shard 0's process registers them", n)
	}

	// a game in the guild of shard 1 reaches only the second bot; alice's
	// /play goes to shard 1, bob's DM to shard 0, and the first bot applies
	// it to the game of shard 1
	h.guild = guildOnShard1
	openTinyTable(t, h, chTiny, alice, bob)
	b2.Wait()
	id := h.game(chTiny).ID
	playTinyRound(t, h)
	b2.Wait()
	if g, err := h.store.GetByID(id); err != nil || g.Status != storage.StatusFinished {
		t.Fatalf("the game of shard 1 after its round: %+v %v", g, err)
	}

	// a game waiting in each guild
	openTinyTable(t, h, "3003", alice, bob)
	h.guild = ""
	openTinyTable(t, h, "3002", alice, bob)
	b2.Wait()

	expired := func(ch string) int {
		n := 0
		for _, m := range h.fake.ChannelMessages(ch) {
			if strings.Contains(m.Content, "deadline passed") {
				n++
			}
		}
		return n
	}
	versions := map[string]int{"3002": h.game("3002").Version, "3003": h.game("3003").Version}
	// a bot claims its own shard's deadlines as they pass...
	h.clock.Advance(time.Hour + time.Minute)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	if expired("3002") != 1 || expired("3003") != 0 {
		t.Fatalf("shard 0's bot handled %d deadlines of its game and %d of shard 1's, want 1 and 0", expired("3002"), expired("3003"))
	}
	// ...and another shard's once it is overdue by four ticks (its process
	// is down, or behind); both bots checking at once handle it once
	h.clock.Advance(4*h.bot.cfg.TickEvery + time.Minute)
	var wg sync.WaitGroup
	for _, b := range []*Bot{h.bot, b2, h.bot, b2} {
		wg.Go(func() { b.CheckDeadlines(h.clock.Now()) })
	}
	wg.Wait()
	h.bot.Wait()
	b2.Wait()
	for _, ch := range []string{"3002", "3003"} {
		if n := expired(ch); n != 1 {
			t.Errorf("channel %s: the deadline passed %d times, want once", ch, n)
		}
		// the stand-in picks once for alice and once for bob
		g := h.game(ch)
		if g.Version != versions[ch]+2 || !g.Deadline.After(h.clock.Now()) {
			t.Errorf("channel %s: version %d (want %d: a stand-in pick for each), deadline %v", ch, g.Version, versions[ch]+2, g.Deadline)
		}
	}
	// each timer went to one bot: none lost a race to the other
	if strings.Contains(h.log(), "level=ERROR") {
		t.Errorf("errors logged:\n%s", h.log())
	}
}
