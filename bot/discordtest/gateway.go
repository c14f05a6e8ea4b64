package discordtest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/meeplegames/meeple/bot/shard"
)

// gatewayPath is where the fake's gateway listens.
const gatewayPath = "/gateway-ws"

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opResume         = 6
	opReconnect      = 7
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// Close codes the gateway ends a connection with.
const (
	closeAuthenticationFailed = 4004 // a wrong token
	closeRateLimited          = 4008 // an IDENTIFY too soon after another of its key
	closeInvalidShard         = 4010 // a shard outside [0, count)
)

// defaultHeartbeat is the interval Discord's HELLO asks for.
const defaultHeartbeat = 41250 * time.Millisecond

// GatewayStats counts what the gateway saw.
type GatewayStats struct {
	Connections, Identifies, Resumes, Heartbeats int
	// Unanswered is the most heartbeats one muted connection received
	// and left unanswered (MuteHeartbeats).
	Unanswered int
	// Intents are those of the last IDENTIFY.
	Intents discordgo.Intent
	// Identified is when each shard last identified.
	Identified map[Shard]time.Time
}

// Shard is one gateway shard: ID of Count. A session that identifies
// without a shard holds shard 0 of 1, every guild.
type Shard struct{ ID, Count int }

// Holds reports whether guild's events go to this shard: Discord's
// (guild_id >> 22) % count. Events of no guild (DMs) go to shard 0.
func (sh Shard) Holds(guild string) bool {
	id, ok := shard.Of(guild, sh.Count)
	return ok && id == sh.ID
}

// gateway is the fake's websocket gateway: one bot, one session per shard.
// Guild events go to the sessions whose shard holds the guild, DMs to
// shard 0, as Discord routes them.
type gateway struct {
	srv      *Server
	upgrader websocket.Upgrader

	mu       sync.Mutex
	cond     *sync.Cond // signalled when a connection becomes ready or goes
	conns    map[*gwConn]bool
	sessions map[Shard]*gwSession // the session of each shard events go to
	nextID   int
	stats    GatewayStats
	closed   bool
	down     bool     // SetGatewayDown: connections are refused
	guilds   []string // SetGuilds: the guilds READY lists
	// keyed is when each rate-limit key (shard id % max_concurrency) last
	// identified.
	keyed map[int]time.Time
}

// gwSession is a gateway session: what resuming restores.
type gwSession struct {
	id        string
	shard     Shard
	intents   discordgo.Intent
	events    []event // every dispatch, for replay on resume
	conn      *gwConn // nil while disconnected
	resumable bool
}

type event struct {
	Op   int             `json:"op"`
	Seq  int64           `json:"s"`
	Type string          `json:"t"`
	Data json.RawMessage `json:"d"`
}

type gwConn struct {
	ws  *websocket.Conn
	wmu sync.Mutex // one writer at a time
	// beat is closed at the connection's first heartbeat
	beat     chan struct{}
	beatOnce sync.Once
	// mute: the connection no longer acknowledges heartbeats
	// (MuteHeartbeats); unanswered counts those it left unanswered
	mute       atomic.Bool
	unanswered atomic.Int64
}

// refuse closes the connection with a gateway close code.
func (c *gwConn) refuse(code int, text string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
}

func (c *gwConn) send(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
}

func newGateway(s *Server) *gateway {
	g := &gateway{srv: s, conns: map[*gwConn]bool{}, sessions: map[Shard]*gwSession{}}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// GatewayURL is the websocket URL of the fake's gateway, as GET /gateway
// names it.
func (s *Server) GatewayURL() string { return s.gw.url() }

func (g *gateway) url() string {
	return "ws" + strings.TrimPrefix(g.srv.srv.URL, "http") + gatewayPath
}

func (g *gateway) close() {
	g.mu.Lock()
	g.closed = true
	conns := make([]*gwConn, 0, len(g.conns))
	for c := range g.conns {
		conns = append(conns, c)
	}
	g.cond.Broadcast()
	g.mu.Unlock()
	for _, c := range conns {
		_ = c.ws.Close()
	}
}

// serve runs one gateway connection: HELLO, then IDENTIFY or RESUME, then
// heartbeats until the connection ends.
func (g *gateway) serve(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	down := g.down
	g.mu.Unlock()
	if down {
		http.Error(w, "the gateway is down", http.StatusServiceUnavailable)
		return
	}
	ws, err := g.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws, beat: make(chan struct{})}
	g.mu.Lock()
	g.conns[c] = true
	g.stats.Connections++
	g.mu.Unlock()
	defer g.drop(c)

	interval := g.srv.opts.HeartbeatInterval
	if interval == 0 {
		interval = defaultHeartbeat
	}
	if c.send(map[string]any{"op": opHello, "d": map[string]any{"heartbeat_interval": interval.Milliseconds()}}) != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
				g.endSession(c) // Discord ends the session on 1000 and 1001
			}
			return
		}
		var p struct {
			Op   int             `json:"op"`
			Data json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			return
		}
		switch p.Op {
		case opHeartbeat:
			g.count(func(s *GatewayStats) { s.Heartbeats++ })
			c.beatOnce.Do(func() { close(c.beat) })
			if c.mute.Load() {
				g.count(func(s *GatewayStats) { s.Unanswered = max(s.Unanswered, int(c.unanswered.Add(1))) })
				continue
			}
			if c.send(map[string]any{"op": opHeartbeatACK}) != nil {
				return
			}
		case opIdentify:
			if !g.identify(c, p.Data) {
				return
			}
		case opResume:
			if !g.resume(c, p.Data) {
				return
			}
		}
	}
}

func (g *gateway) count(f func(*GatewayStats)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f(&g.stats)
	g.cond.Broadcast() // for WaitGateway
}

// identify starts a new session on c and sends READY.
func (g *gateway) identify(c *gwConn, data json.RawMessage) bool {
	var id struct {
		Token   string           `json:"token"`
		Intents discordgo.Intent `json:"intents"`
		Shard   *[2]int          `json:"shard"`
	}
	_ = json.Unmarshal(data, &id)
	if strings.TrimPrefix(id.Token, "Bot ") != Token {
		c.refuse(closeAuthenticationFailed, "Authentication failed.")
		return false
	}
	sh := Shard{ID: 0, Count: 1}
	if id.Shard != nil {
		sh = Shard{ID: id.Shard[0], Count: id.Shard[1]}
	}
	if sh.Count < 1 || sh.ID < 0 || sh.ID >= sh.Count {
		c.refuse(closeInvalidShard, "Invalid shard.")
		return false
	}
	g.mu.Lock()
	now, key := g.srv.now(), sh.ID%max(1, g.srv.opts.MaxConcurrency)
	if last, ok := g.keyed[key]; ok && now.Sub(last) < g.srv.opts.IdentifyEvery {
		g.mu.Unlock()
		c.refuse(closeRateLimited, "You are being rate limited.")
		return false
	}
	if g.keyed == nil {
		g.keyed, g.stats.Identified = map[int]time.Time{}, map[Shard]time.Time{}
	}
	g.keyed[key], g.stats.Identified[sh] = now, now
	g.nextID++
	s := &gwSession{id: fmt.Sprintf("session-%d", g.nextID), shard: sh, intents: id.Intents, conn: c, resumable: true}
	for _, old := range g.sessions {
		if old.conn == c {
			old.conn = nil
		}
	}
	g.sessions[sh] = s
	g.stats.Identifies++
	g.stats.Intents = id.Intents
	ready := map[string]any{
		"v": 9, "user": botUser(), "session_id": s.id, "resume_gateway_url": g.url(),
		"guilds": g.readyGuilds(sh), "application": map[string]any{"id": BotID, "flags": 0},
		"shard": []int{sh.ID, sh.Count},
	}
	err := g.dispatchLocked(s, "READY", ready)
	g.cond.Broadcast()
	g.mu.Unlock()
	return err == nil
}

// resume reattaches c to its session and replays what it missed, or says
// the session is gone.
func (g *gateway) resume(c *gwConn, data json.RawMessage) bool {
	var r struct {
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	_ = json.Unmarshal(data, &r)
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.session(r.SessionID)
	if s == nil || !s.resumable {
		return c.send(map[string]any{"op": opInvalidSession, "d": false}) == nil
	}
	g.stats.Resumes++
	s.conn = c
	for _, e := range s.events {
		if e.Seq > r.Seq && c.send(e) != nil {
			return false
		}
	}
	err := g.dispatchLocked(s, "RESUMED", map[string]any{})
	g.cond.Broadcast()
	return err == nil
}

// session returns the current session with id, or nil; g.mu is held.
func (g *gateway) session(id string) *gwSession {
	for _, s := range g.sessions {
		if s.id == id {
			return s
		}
	}
	return nil
}

// drop forgets a connection that ended; its session waits for a resume.
func (g *gateway) drop(c *gwConn) {
	_ = c.ws.Close()
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.conns, c)
	for _, s := range g.sessions {
		if s.conn == c {
			s.conn = nil
		}
	}
	g.cond.Broadcast()
}

func (g *gateway) endSession(c *gwConn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, s := range g.sessions {
		if s.conn == c {
			s.resumable = false
		}
	}
}

// dispatchLocked numbers an event, keeps it for replay and sends it if the
// session is connected; g.mu is held.
func (g *gateway) dispatchLocked(s *gwSession, typ string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	e := event{Op: opDispatch, Seq: int64(len(s.events) + 1), Type: typ, Data: raw}
	s.events = append(s.events, e)
	if s.conn == nil {
		return nil // delivered on resume
	}
	return s.conn.send(e)
}

// Dispatch sends the bot an event of type typ (INTERACTION_CREATE,
// MESSAGE_CREATE, ...) over the gateway, to the session of every shard
// that holds the event's guild_id (shard 0 for an event of no guild, such
// as a DM). While a connection is down the event waits in its session and
// is replayed when the bot resumes.
func (s *Server) Dispatch(typ string, data any) error {
	guild, err := guildOf(data)
	if err != nil {
		return err
	}
	g := s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	var to []*gwSession
	for sh, session := range g.sessions {
		if sh.Holds(guild) {
			to = append(to, session)
		}
	}
	if len(to) == 0 {
		return fmt.Errorf("discordtest: no gateway session holds guild %q: no shard of it has identified", guild)
	}
	for _, session := range to {
		if typ == "MESSAGE_CREATE" && session.intents&(discordgo.IntentsDirectMessages|discordgo.IntentsGuildMessages) == 0 {
			return fmt.Errorf("discordtest: the session's intents %d do not receive messages", session.intents)
		}
	}
	for _, session := range to {
		_ = g.dispatchLocked(session, typ, data) // a failed send is replayed on resume
	}
	return nil
}

// guildOf reads the guild_id of an event's payload ("" when it has none).
func guildOf(data any) (string, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return "", fmt.Errorf("discordtest: event: %w", err)
	}
	var e struct {
		GuildID string `json:"guild_id"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return "", nil // not an object: no guild
	}
	return e.GuildID, nil
}

// SendInteraction gives raw (an interaction as Discord sends it, without
// id, token or application_id) an id and a token, starts it
// (StartInteraction) and dispatches it as INTERACTION_CREATE. It returns
// the token, by which the bot's answers are recorded.
func (s *Server) SendInteraction(raw map[string]any) (string, error) {
	s.mu.Lock()
	id := s.id()
	s.mu.Unlock()
	token := "itok" + id
	raw["id"], raw["token"], raw["application_id"], raw["version"] = id, token, BotID, 1
	message := ""
	if m, ok := raw["message"].(map[string]any); ok {
		message, _ = m["id"].(string)
	}
	s.StartInteraction(token, message)
	if ch, ok := raw["channel_id"].(string); ok {
		s.InteractionChannel(token, ch)
	}
	return token, s.Dispatch("INTERACTION_CREATE", raw)
}

// SendDM dispatches MESSAGE_CREATE: user writes text to the bot in their
// DM channel. It returns the message's id.
func (s *Server) SendDM(user, text string) (string, error) {
	s.mu.Lock()
	id := s.id()
	s.mu.Unlock()
	return id, s.Dispatch("MESSAGE_CREATE", map[string]any{
		"id": id, "channel_id": "dm" + user, "content": text, "type": 0,
		"author":    map[string]any{"id": user, "username": "user" + user, "discriminator": "0"},
		"timestamp": time.Now().UTC().Format(time.RFC3339),
	})
}

// DropConnection cuts the gateway connection without a close frame, as a
// network failure does, once it has sent its first heartbeat (firstBeat).
// The session stays resumable.
func (s *Server) DropConnection() {
	for _, c := range s.gw.live() {
		_ = c.firstBeat() // cut it anyway
		_ = c.ws.UnderlyingConn().Close()
	}
}

// MuteHeartbeats makes the live connections stop acknowledging
// heartbeats while they stay open, as a connection that died somewhere
// on the way ("zombied") does; new connections answer as before.
func (s *Server) MuteHeartbeats() {
	for _, c := range s.gw.live() {
		c.mute.Store(true)
	}
}

// SetGatewayDown takes the gateway down, as an outage between the bot and
// Discord does: the connections are cut (their sessions stay resumable)
// and new ones are refused with 503 until SetGatewayDown(false).
func (s *Server) SetGatewayDown(down bool) {
	s.gw.mu.Lock()
	s.gw.down = down
	s.gw.mu.Unlock()
	if down {
		s.DropConnection()
	}
}

// SetGuilds sets the guilds the bot is in: each shard's READY lists
// those it holds, as unavailable guilds (their GUILD_CREATE is not sent).
func (s *Server) SetGuilds(ids ...string) {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	s.gw.guilds = ids
}

// readyGuilds is the "guilds" of sh's READY; g.mu is held.
func (g *gateway) readyGuilds(sh Shard) []any {
	out := []any{}
	for _, id := range g.guilds {
		if sh.Holds(id) {
			out = append(out, map[string]any{"id": id, "unavailable": true})
		}
	}
	return out
}

// RequestReconnect sends RECONNECT (opcode 7): the bot must reconnect and
// resume. It waits for the connection's first heartbeat first (see
// firstBeat).
func (s *Server) RequestReconnect() error {
	for _, c := range s.gw.live() {
		if err := c.firstBeat(); err != nil {
			return err
		}
		if err := c.send(map[string]any{"op": opReconnect, "d": nil}); err != nil {
			return err
		}
	}
	return nil
}

// firstBeat waits, 30 s at most, for the connection's first heartbeat.
// discordgo sends it from a goroutine of its own once connected; a beat
// that fails because the connection was just dropped or is closing after
// a RECONNECT starts a second reconnect loop, and the two loops then close
// each other's new connections for good (a discordgo race). The tests cut
// or recycle a connection once it runs, as Discord does, never within its
// first milliseconds.
func (c *gwConn) firstBeat() error {
	select {
	case <-c.beat:
		return nil
	case <-time.After(30 * time.Second):
		return errors.New("discordtest: no heartbeat on the gateway connection")
	}
}

// InvalidateSession ends the session and sends INVALID_SESSION (opcode 9,
// not resumable): the bot must identify again, and events of the old
// session are not replayed.
func (s *Server) InvalidateSession() error {
	g := s.gw
	g.mu.Lock()
	for _, session := range g.sessions {
		session.resumable = false
	}
	g.mu.Unlock()
	for _, c := range g.live() {
		if err := c.send(map[string]any{"op": opInvalidSession, "d": false}); err != nil {
			return err
		}
	}
	return nil
}

// live returns the connections of the current sessions.
func (g *gateway) live() []*gwConn {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []*gwConn
	for _, s := range g.sessions {
		if s.conn != nil {
			out = append(out, s.conn)
		}
	}
	return out
}

// connected counts the current sessions with a connection; g.mu is held.
func (g *gateway) connected() int {
	n := 0
	for _, s := range g.sessions {
		if s.conn != nil {
			n++
		}
	}
	return n
}

// WaitConnected waits until a session is connected (after READY or
// RESUMED) and returns the gateway's counts, or fails after timeout.
func (s *Server) WaitConnected(timeout time.Duration) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool { return s.gw.connected() > 0 })
}

// WaitDisconnected waits until no session is connected.
func (s *Server) WaitDisconnected(timeout time.Duration) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool { return s.gw.connected() == 0 })
}

// WaitShards waits until every one of shards has a connected session.
func (s *Server) WaitShards(timeout time.Duration, shards ...Shard) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool {
		for _, sh := range shards {
			if session := s.gw.sessions[sh]; session == nil || session.conn == nil {
				return false
			}
		}
		return true
	})
}

// WaitGateway waits until cond holds of the gateway's counts.
func (s *Server) WaitGateway(timeout time.Duration, cond func(GatewayStats) bool) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool { return cond(s.gw.stats) })
}

// Shards lists the shards whose session is connected, by shard id.
func (s *Server) Shards() []Shard {
	g := s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []Shard
	for sh, session := range g.sessions {
		if session.conn != nil {
			out = append(out, sh)
		}
	}
	slices.SortFunc(out, func(a, b Shard) int { return cmp.Or(a.ID-b.ID, a.Count-b.Count) })
	return out
}

// Gateway returns the gateway's counts so far.
func (s *Server) Gateway() GatewayStats {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	return s.gw.statsLocked()
}

// statsLocked copies the stats; g.mu is held.
func (g *gateway) statsLocked() GatewayStats {
	st := g.stats
	st.Identified = maps.Clone(st.Identified)
	return st
}

func (g *gateway) wait(timeout time.Duration, done func() bool) (GatewayStats, error) {
	timer := time.AfterFunc(timeout, func() {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(timeout)
	g.mu.Lock()
	defer g.mu.Unlock()
	for !done() {
		if g.closed || time.Now().After(deadline) {
			return g.statsLocked(), errors.New("discordtest: timed out waiting for the gateway")
		}
		g.cond.Wait()
	}
	return g.statsLocked(), nil
}
