package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// guildOnShard1 is a guild whose events go to shard 1 of 2 (1 << 22);
// testGuild's go to shard 0.
const guildOnShard1 = "4194304"

// TestShardedBotsSplitGuildsAndShareDMs runs two bots as two processes
// would, each with one of two shards, on one store: a guild's game is
// played through the bot holding its shard, a DM (shard 0) acts on a game
// of shard 1, and each deadline fires once though both bots check.
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

	// the deadlines are claimed from the store: the first bot to check
	// handles both games', whichever shard holds them, and the other none
	h.clock.Advance(2 * time.Hour)
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

// TestADeadlineIsNotTakenForADecisionJustBegun catches the moment when
// another process has written a player's action after the deadline passed
// but not yet the next deadline: a computer must not stand in then for
// the decision that action began. Once the claim on the timer runs out and
// the action is no longer that recent, a player who still has not decided
// gets the stand-in.
func TestADeadlineIsNotTakenForADecisionJustBegun(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: time.Hour, NoReminder: true}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.clock.Advance(2 * time.Hour)

	// another process applies alice's late pick and has not re-armed yet
	g, st, err := h.store.Load(chTiny)
	if err != nil {
		t.Fatal(err)
	}
	seat := engine.Seat(slices.IndexFunc(g.Seats, func(s storage.Seat) bool { return s.User == alice.ID }))
	if _, err := st.Apply(seat, "pick 2"); err != nil {
		t.Fatal(err)
	}
	snapshot, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	version, err := h.store.Append(chTiny, g.Version, storage.Entry{Seat: seat, Action: "pick 2", At: h.clock.Now()}, snapshot)
	if err != nil {
		t.Fatal(err)
	}
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	if got := h.game(chTiny).Version; got != version {
		t.Fatalf("a computer stood in right after alice's pick: version %d, want %d", got, version)
	}
	// the claim runs out; bob has still not picked
	h.clock.Advance(claimHold(h.bot.cfg.TickEvery) + time.Second)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.Wait()
	if got := h.game(chTiny); got.Version != version+1 || int(got.Log[version].Seat) == int(seat) {
		t.Fatalf("bob's passed deadline: version %d, want a stand-in pick for bob at %d", got.Version, version)
	}
}
