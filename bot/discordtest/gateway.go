package discordtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
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

// closeAuthenticationFailed is the close code for a wrong token.
const closeAuthenticationFailed = 4004

// defaultHeartbeat is the interval Discord's HELLO asks for.
const defaultHeartbeat = 41250 * time.Millisecond

// GatewayStats counts what the gateway saw.
type GatewayStats struct {
	Connections, Identifies, Resumes, Heartbeats int
	// Intents are those of the last IDENTIFY.
	Intents discordgo.Intent
}

// gateway is the fake's websocket gateway: one bot, one session at a time
// (no sharding).
type gateway struct {
	srv      *Server
	upgrader websocket.Upgrader

	mu      sync.Mutex
	cond    *sync.Cond // signalled when a connection becomes ready or goes
	conns   map[*gwConn]bool
	current *gwSession // the session events go to
	nextID  int
	stats   GatewayStats
	closed  bool
}

// gwSession is a gateway session: what resuming restores.
type gwSession struct {
	id        string
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
}

func (c *gwConn) send(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
}

func newGateway(s *Server) *gateway {
	g := &gateway{srv: s, conns: map[*gwConn]bool{}}
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
	ws, err := g.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws}
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
}

// identify starts a new session on c and sends READY.
func (g *gateway) identify(c *gwConn, data json.RawMessage) bool {
	var id struct {
		Token   string           `json:"token"`
		Intents discordgo.Intent `json:"intents"`
	}
	_ = json.Unmarshal(data, &id)
	if strings.TrimPrefix(id.Token, "Bot ") != Token {
		c.wmu.Lock()
		_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(closeAuthenticationFailed, "Authentication failed."))
		c.wmu.Unlock()
		return false
	}
	g.mu.Lock()
	g.nextID++
	s := &gwSession{id: fmt.Sprintf("session-%d", g.nextID), intents: id.Intents, conn: c, resumable: true}
	if old := g.current; old != nil && old.conn == c {
		old.conn = nil
	}
	g.current = s
	g.stats.Identifies++
	g.stats.Intents = id.Intents
	ready := map[string]any{
		"v": 9, "user": botUser(), "session_id": s.id, "resume_gateway_url": g.url(),
		"guilds": []any{}, "application": map[string]any{"id": BotID, "flags": 0},
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
	s := g.current
	if s == nil || s.id != r.SessionID || !s.resumable {
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

// drop forgets a connection that ended; its session waits for a resume.
func (g *gateway) drop(c *gwConn) {
	_ = c.ws.Close()
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.conns, c)
	if s := g.current; s != nil && s.conn == c {
		s.conn = nil
	}
	g.cond.Broadcast()
}

func (g *gateway) endSession(c *gwConn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s := g.current; s != nil && s.conn == c {
		s.resumable = false
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
// MESSAGE_CREATE, ...) over the gateway. While the connection is down the
// event waits in the session and is replayed when the bot resumes.
func (s *Server) Dispatch(typ string, data any) error {
	g := s.gw
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.current == nil {
		return errors.New("discordtest: no gateway session: the bot has not identified")
	}
	if typ == "MESSAGE_CREATE" && g.current.intents&(discordgo.IntentsDirectMessages|discordgo.IntentsGuildMessages) == 0 {
		return fmt.Errorf("discordtest: the session's intents %d do not receive messages", g.current.intents)
	}
	_ = g.dispatchLocked(g.current, typ, data) // a failed send is replayed on resume
	return nil
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
// network failure does. The session stays resumable.
func (s *Server) DropConnection() {
	for _, c := range s.gw.live() {
		_ = c.ws.UnderlyingConn().Close()
	}
}

// RequestReconnect sends RECONNECT (opcode 7): the bot must reconnect and
// resume.
func (s *Server) RequestReconnect() error {
	for _, c := range s.gw.live() {
		if err := c.send(map[string]any{"op": opReconnect, "d": nil}); err != nil {
			return err
		}
	}
	return nil
}

// InvalidateSession ends the session and sends INVALID_SESSION (opcode 9,
// not resumable): the bot must identify again, and events of the old
// session are not replayed.
func (s *Server) InvalidateSession() error {
	g := s.gw
	g.mu.Lock()
	if g.current != nil {
		g.current.resumable = false
	}
	g.mu.Unlock()
	for _, c := range g.live() {
		if err := c.send(map[string]any{"op": opInvalidSession, "d": false}); err != nil {
			return err
		}
	}
	return nil
}

func (g *gateway) live() []*gwConn {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.current == nil || g.current.conn == nil {
		return nil
	}
	return []*gwConn{g.current.conn}
}

// WaitConnected waits until a session is connected (after READY or
// RESUMED) and returns the gateway's counts, or fails after timeout.
func (s *Server) WaitConnected(timeout time.Duration) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool { return s.gw.current != nil && s.gw.current.conn != nil })
}

// WaitDisconnected waits until no session is connected.
func (s *Server) WaitDisconnected(timeout time.Duration) (GatewayStats, error) {
	return s.gw.wait(timeout, func() bool { return s.gw.current == nil || s.gw.current.conn == nil })
}

// Gateway returns the gateway's counts so far.
func (s *Server) Gateway() GatewayStats {
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	return s.gw.stats
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
			return g.stats, errors.New("discordtest: timed out waiting for the gateway")
		}
		g.cond.Wait()
	}
	return g.stats, nil
}
