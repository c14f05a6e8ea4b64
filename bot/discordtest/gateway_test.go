package discordtest

import (
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/endpoint"
)

// received collects the interactions and messages a session got.
type received struct {
	mu     sync.Mutex
	tokens []string
	dms    []string
	got    chan struct{}
	ready  chan struct{} // one per READY the session has handled
}

func (r *received) add(f func()) {
	r.mu.Lock()
	f()
	r.mu.Unlock()
	r.got <- struct{}{}
}

// flush sends the session's shard one more interaction and waits for it:
// a session gets its events in order and handles them in order, so what
// was sent to the shard before has arrived. It returns the marker's token.
func (r *received) flush(t *testing.T, srv *Server, guild string) string {
	t.Helper()
	raw := command("game")
	raw["guild_id"] = guild
	tok, err := srv.SendInteraction(raw)
	if err != nil {
		t.Fatal(err)
	}
	for {
		r.wait(t, 1)
		r.mu.Lock()
		last := len(r.tokens) > 0 && r.tokens[len(r.tokens)-1] == tok
		r.mu.Unlock()
		if last {
			return tok
		}
	}
}

// waitReady waits for the session to handle its next READY.
func (r *received) waitReady(t *testing.T) {
	t.Helper()
	select {
	case <-r.ready:
	case <-time.After(gatewayWait):
		t.Fatal("no READY")
	}
}

func (r *received) wait(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-r.got:
		case <-time.After(gatewayWait):
			t.Fatalf("event %d of %d never arrived", i+1, n)
		}
	}
}

// openSession connects a discordgo session to the fake's gateway, found
// through GET /gateway like discord.com's.
func openSession(t *testing.T, srv *Server) (*discordgo.Session, *received) {
	t.Helper()
	return openShard(t, srv, Shard{ID: 0, Count: 1})
}

// openShard connects a discordgo session that runs one shard.
func openShard(t *testing.T, srv *Server, shard Shard) (*discordgo.Session, *received) {
	t.Helper()
	s, _ := discordgo.New("Bot " + Token)
	s.ShardID, s.ShardCount = shard.ID, shard.Count
	if err := endpoint.Apply(s, endpoint.Config{REST: srv.URL()}); err != nil {
		t.Fatal(err)
	}
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsDirectMessages
	s.SyncEvents = true // handlers run in the order the events came (see flush)
	r := &received{got: make(chan struct{}, 100), ready: make(chan struct{}, 10)}
	s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
		r.add(func() { r.tokens = append(r.tokens, ic.Token) })
	})
	s.AddHandler(func(_ *discordgo.Session, mc *discordgo.MessageCreate) {
		r.add(func() { r.dms = append(r.dms, mc.Content) })
	})
	s.AddHandler(func(*discordgo.Session, *discordgo.Ready) { r.ready <- struct{}{} })
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	return s, r
}

func command(name string) map[string]any {
	return map[string]any{"type": 2, "guild_id": "7000", "channel_id": "3001",
		"member": map[string]any{"user": map[string]any{"id": "101", "username": "alice"}, "permissions": "0"},
		"data":   map[string]any{"id": "1", "name": name, "type": 1}}
}

func TestGatewayAcknowledgesHeartbeats(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{HeartbeatInterval: 100 * time.Millisecond})
	defer srv.Close()
	s, _ := openSession(t, srv)
	defer s.Close()
	if _, err := srv.WaitConnected(gatewayWait); err != nil {
		t.Fatal(err)
	}
	// the session stays up over many intervals: every heartbeat was acknowledged
	st, err := srv.WaitGateway(gatewayWait, func(st GatewayStats) bool { return st.Heartbeats >= 3 })
	if err != nil || st.Connections != 1 {
		t.Errorf("heartbeats: %+v, %v", st, err)
	}
}

// This test runs at Discord's heartbeat interval. With a short one, a beat
// that falls in the second discordgo waits while closing after RECONNECT
// makes its heartbeat goroutine close the new connection with code 1000,
// which ends the session (on Discord as here): the resume becomes a new
// IDENTIFY.
func TestGatewayIdentifiesDispatchesAndResumes(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s, got := openSession(t, srv)
	defer s.Close()
	stats, err := srv.WaitConnected(gatewayWait)
	if err != nil || stats.Identifies != 1 || stats.Intents != discordgo.IntentsGuilds|discordgo.IntentsDirectMessages {
		t.Fatalf("after Open: %+v %v", stats, err)
	}
	if s.State.User == nil || s.State.User.ID != BotID {
		t.Errorf("READY did not name the bot: %+v", s.State.User)
	}
	// interactions and DMs arrive
	tok, err := srv.SendInteraction(command("game"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SendDM("101", "6 5 3 1"); err != nil {
		t.Fatal(err)
	}
	got.wait(t, 2)

	// a dropped connection: what is sent meanwhile arrives after the resume
	srv.DropConnection()
	if _, err := srv.WaitDisconnected(gatewayWait); err != nil {
		t.Fatal(err)
	}
	missed, err := srv.SendInteraction(command("lobby"))
	if err != nil {
		t.Fatal(err)
	}
	got.wait(t, 1)
	if st := srv.Gateway(); st.Resumes != 1 || st.Identifies != 1 {
		t.Errorf("after the drop: %+v", st)
	}

	// RECONNECT: the bot reconnects and resumes
	resumes := srv.Gateway().Resumes
	if err := srv.RequestReconnect(); err != nil {
		t.Fatal(err)
	}
	waitGateway(t, srv, func(st GatewayStats) bool { return st.Resumes == resumes+1 })
	// INVALID_SESSION: the bot identifies again
	if err := srv.InvalidateSession(); err != nil {
		t.Fatal(err)
	}
	waitGateway(t, srv, func(st GatewayStats) bool { return st.Identifies == 2 })
	if _, err := srv.WaitConnected(gatewayWait); err != nil {
		t.Fatal(err)
	}
	// what the new session is sent counts once the bot has handled its READY
	got.waitReady(t) // the first session's
	got.waitReady(t)
	if _, err := srv.SendDM("101", "after"); err != nil {
		t.Fatal(err)
	}
	got.wait(t, 1)

	got.mu.Lock()
	defer got.mu.Unlock()
	if len(got.tokens) != 2 || got.tokens[0] != tok || got.tokens[1] != missed {
		t.Errorf("interactions received: %v; want [%s %s] once each", got.tokens, tok, missed)
	}
	if len(got.dms) != 2 || got.dms[0] != "6 5 3 1" || got.dms[1] != "after" {
		t.Errorf("messages received: %v", got.dms)
	}
}

func TestGatewayRefusesAWrongToken(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s, _ := discordgo.New("Bot wrong")
	if err := endpoint.Apply(s, endpoint.Config{REST: srv.URL()}); err != nil {
		t.Fatal(err)
	}
	s.ShouldReconnectOnError = false
	if err := s.Open(); err == nil {
		s.Close()
		t.Fatal("a wrong token was accepted")
	}
	if st := srv.Gateway(); st.Connections != 1 || st.Identifies != 0 {
		t.Errorf("want one connection refused at IDENTIFY: %+v", st)
	}
}

// gatewayWait bounds every wait on the gateway: a guard against a hang,
// not a measure of speed (on a busy machine discordgo's reconnects, each
// after its own pause, take seconds).
const gatewayWait = 30 * time.Second

func waitGateway(t *testing.T, srv *Server, cond func(GatewayStats) bool) {
	t.Helper()
	if st, err := srv.WaitGateway(gatewayWait, cond); err != nil {
		t.Fatalf("%v: %+v", err, st)
	}
}
