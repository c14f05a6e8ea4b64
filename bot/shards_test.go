package bot

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
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

	b2 := otherProcess(t, h, cfg, shard.Set{IDs: []int{1}, Count: 2})
	run.peers = append(run.peers, b2)
	runUntilCleanup(t, b2)
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
	if g, err := h.store.GetByID(context.Background(), id); err != nil || g.Status != storage.StatusFinished {
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
			if h.says(m.Content, "deadline.stood_in") {
				n++
			}
		}
		return n
	}
	versions := map[string]int{"3002": h.game("3002").Version, "3003": h.game("3003").Version}
	// a bot claims its own shard's deadlines as they pass; its ticker,
	// woken by the fake clock too, may be the one that does, so the test
	// waits for the notice rather than for its own check
	h.clock.Advance(time.Hour + time.Minute)
	h.bot.CheckDeadlines(h.clock.Now())
	waitUntil(t, "shard 0's deadline", func() bool { h.bot.Wait(); return expired("3002") > 0 })
	h.bot.Wait()
	b2.Wait()
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
	waitUntil(t, "shard 1's overdue deadline", func() bool { h.bot.Wait(); b2.Wait(); return expired("3003") > 0 })
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

// otherProcess returns a second bot with cfg on h's store and fake
// Discord, as another process running shards would be.
func otherProcess(t *testing.T, h *harness, cfg Config, shards shard.Set) *Bot {
	t.Helper()
	cfg.Shards = shards
	cfg.AppID, cfg.Now, cfg.NewSeed, cfg.Logger = testApp, h.clock.Now, h.bot.cfg.NewSeed, h.bot.cfg.Logger
	b, err := New(Parts{Session: h.fake.NewSession(), Store: h.store, Games: h.reg}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runUntilCleanup runs b's Run until t's cleanup, which stops it before
// the harness (made earlier) closes the store.
func runUntilCleanup(t *testing.T, b *Bot) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run of shards %v: %v", b.cfg.Shards, err)
		}
	})
}

func TestIdentifyBatchesGroupShardsByMaxConcurrency(t *testing.T) {
	t.Parallel()
	var sessions []*discordgo.Session
	for _, id := range []int{5, 0, 3, 1, 4} {
		sessions = append(sessions, &discordgo.Session{ShardID: id})
	}
	for _, c := range []struct {
		concurrency int
		want        string
	}{
		{1, "[0] [1] [3] [4] [5]"},
		{2, "[0 1] [3] [4 5]"},
		{4, "[0 1 3] [4 5]"},
		{16, "[0 1 3 4 5]"},
	} {
		var got []string
		for _, batch := range identifyBatches(sessions, c.concurrency) {
			var ids []string
			for _, s := range batch {
				ids = append(ids, fmt.Sprint(s.ShardID))
			}
			got = append(got, "["+strings.Join(ids, " ")+"]")
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("max_concurrency %d: batches %s, want %s", c.concurrency, g, c.want)
		}
	}
}

// TestShardsIdentifyInBucketsOfMaxConcurrency runs one process with four
// shards against a gateway that reports a max_concurrency of 2 and refuses
// an IDENTIFY of a rate-limit key (shard id % 2) sooner than a pause after
// the last: shards 0 and 1 connect together, 2 and 3 a pause later. The
// pause and the gateway's pacing run on a clock the test moves.
func TestShardsIdentifyInBucketsOfMaxConcurrency(t *testing.T) {
	t.Parallel()
	const every = time.Second
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	fake := discordtest.NewServer(discordtest.Options{MaxConcurrency: 2, IdentifyEvery: every, Now: h.clock.Now})
	t.Cleanup(fake.Close)
	cfg := Config{AppID: testApp, NoDeadline: true, IdentifyEvery: every, Shards: shard.All(4), Now: h.clock.Now, AfterFunc: h.clock.AfterFunc}
	b, err := New(Parts{Session: fake.NewSession(), Store: h.store, Games: h.reg}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	runUntilCleanup(t, b)
	h.clock.WaitForTimer(every) // the first batch is connected; the pause before the next
	h.clock.Advance(every)
	var want []discordtest.Shard
	for id := range 4 {
		want = append(want, discordtest.Shard{ID: id, Count: 4})
	}
	st, err := fake.WaitShards(10*time.Second, want...)
	if err != nil {
		t.Fatal(err)
	}
	at := func(id int) time.Time { return st.Identified[discordtest.Shard{ID: id, Count: 4}] }
	if gap := at(1).Sub(at(0)).Abs(); gap != 0 {
		t.Errorf("shards 0 and 1 (keys 0 and 1) identified %v apart; one batch identifies at once", gap)
	}
	if gap := at(3).Sub(at(2)).Abs(); gap != 0 {
		t.Errorf("shards 2 and 3 identified %v apart; one batch identifies at once", gap)
	}
	if gap := at(2).Sub(at(0)); gap != every {
		t.Errorf("shard 2 identified %v after shard 0, which has its key; want %v", gap, every)
	}
	if st.Identifies != 4 {
		t.Errorf("%d IDENTIFYs, want 4 (none refused)", st.Identifies)
	}
}
