package discordtest

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/endpoint"
)

// guildOnShard returns a guild id whose events go to shard id of count.
func guildOnShard(id, count int) string {
	return strconv.FormatUint(uint64(count+id)<<22|12345, 10)
}

func TestShardHoldsGuildsByDiscordsFormula(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shard Shard
		guild string
		want  bool
	}{
		{Shard{0, 1}, "81384788765712384", true},
		{Shard{0, 1}, "", true},
		{Shard{1, 4}, "", false}, // DMs go to shard 0
		// 81384788765712384 >> 22 = 19403633641, which is 2 mod 4 and 1 mod 3
		{Shard{2, 4}, "81384788765712384", true},
		{Shard{1, 4}, "81384788765712384", false},
		{Shard{1, 3}, "81384788765712384", true},
		{Shard{0, 2}, "not a snowflake", false},
	} {
		if got := tc.shard.Holds(tc.guild); got != tc.want {
			t.Errorf("%+v holds %q: %v, want %v", tc.shard, tc.guild, got, tc.want)
		}
	}
}

// TestGatewayRoutesEventsToTheirShard connects three shards, as three
// processes would, and checks that each guild's interactions reach only
// the shard holding it and DMs reach shard 0.
func TestGatewayRoutesEventsToTheirShard(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Shards: 3})
	defer srv.Close()
	const count = 3
	var got [count]*received
	for id := range count {
		s, r := openShard(t, srv, Shard{ID: id, Count: count})
		defer s.Close()
		got[id] = r
	}
	shards := []Shard{{0, count}, {1, count}, {2, count}}
	if _, err := srv.WaitShards(5*time.Second, shards...); err != nil {
		t.Fatal(err)
	}
	if st := srv.Shards(); len(st) != count || st[2] != (Shard{2, count}) {
		t.Errorf("connected shards: %v", st)
	}
	want := [count][]string{}
	for round := range 2 {
		for id := range count {
			raw := command("game")
			raw["guild_id"] = guildOnShard(id, count)
			tok, err := srv.SendInteraction(raw)
			if err != nil {
				t.Fatalf("round %d shard %d: %v", round, id, err)
			}
			want[id] = append(want[id], tok)
		}
	}
	if _, err := srv.SendDM("101", "6 5 3 1"); err != nil {
		t.Fatal(err)
	}
	got[0].wait(t, 3)
	got[1].wait(t, 2)
	got[2].wait(t, 2)
	for id := range count {
		r := got[id]
		marker := r.flush(t, srv, guildOnShard(id, count)) // anything misrouted has arrived
		r.mu.Lock()
		r.tokens = slices.DeleteFunc(r.tokens, func(tok string) bool { return tok == marker })
		if !slices.Equal(r.tokens, want[id]) {
			t.Errorf("shard %d received %v, want %v", id, r.tokens, want[id])
		}
		if wantDMs := map[bool]int{true: 1, false: 0}[id == 0]; len(r.dms) != wantDMs {
			t.Errorf("shard %d received DMs %v, want %d", id, r.dms, wantDMs)
		}
		r.mu.Unlock()
	}

	// a guild whose shard has no session is refused, not lost silently
	srv2 := NewServer(Options{})
	defer srv2.Close()
	s, _ := openShard(t, srv2, Shard{ID: 1, Count: 2})
	defer s.Close()
	if _, err := srv2.WaitShards(5*time.Second, Shard{1, 2}); err != nil {
		t.Fatal(err)
	}
	raw := command("game")
	raw["guild_id"] = guildOnShard(0, 2)
	if _, err := srv2.SendInteraction(raw); err == nil {
		t.Error("an interaction for shard 0 was accepted with only shard 1 connected")
	}
	if _, err := srv2.SendDM("101", "hello"); err == nil {
		t.Error("a DM was accepted with no shard 0 connected")
	}
}

func TestGatewayRefusesAShardOutsideItsCount(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s, _ := discordgo.New("Bot " + Token)
	if err := endpoint.Apply(s, endpoint.Config{REST: srv.URL()}); err != nil {
		t.Fatal(err)
	}
	s.ShouldReconnectOnError = false
	s.ShardID, s.ShardCount = -1, 2 // discordgo checks only the upper bound
	if err := s.Open(); err == nil {
		s.Close()
		t.Fatal("shard -1 was accepted")
	}
	if st := srv.Gateway(); st.Identifies != 0 || len(srv.Shards()) != 0 {
		t.Errorf("want the IDENTIFY refused: %+v %v", st, srv.Shards())
	}
}

func TestGatewayBotRecommendsTheConfiguredShards(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Shards: 4, MaxConcurrency: 16})
	defer srv.Close()
	s := srv.NewSession()
	gb, err := s.GatewayBot()
	if err != nil || gb.Shards != 4 || gb.SessionStartLimit.MaxConcurrency != 16 {
		t.Fatalf("GET /gateway/bot: %+v %v", gb, err)
	}
}

func TestGatewayPacesIdentifiesByRateLimitKey(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{MaxConcurrency: 2, IdentifyEvery: time.Minute})
	defer srv.Close()
	open := func(id int) error {
		s := srv.NewSession()
		s.ShouldReconnectOnError = false
		s.ShardID, s.ShardCount = id, 4
		err := s.Open()
		if err == nil {
			t.Cleanup(func() { s.Close() })
		}
		return err
	}
	if err := open(0); err != nil {
		t.Fatalf("shard 0: %v", err)
	}
	if err := open(1); err != nil {
		t.Fatalf("shard 1 (another key) at once: %v", err)
	}
	if err := open(2); err == nil {
		t.Fatal("shard 2 (shard 0's key) was let in within the pause")
	}
	if st := srv.Gateway(); st.Identifies != 2 || len(st.Identified) != 2 {
		t.Errorf("want two IDENTIFYs accepted: %+v", st)
	}
}
