// Package discordtest is an in-process fake of Discord for tests and
// benchmarks: its REST API and its gateway, on loopback. A discordgo
// session sends every REST call through discordgo's real request code to a
// Server, which records interaction responses, follow-ups, channel
// messages, edits, DMs and file uploads, keeps the latest content of every
// message, and can be told to answer with Discord's errors (50007, 429,
// 500). The gateway (Server.GatewayURL) speaks Discord's websocket protocol
// to a session opened with Session.Open.
//
// The fake is strict like Discord: a payload over a documented limit, or
// outside Discord's OpenAPI description of the route, gets Discord's 400
// (code 50035, the field's path under "errors"); an interaction takes one
// initial response within 3 seconds and its token lasts 15 minutes; bot
// calls are rate limited globally and per route, with X-RateLimit-*
// headers and 429s. Options.Relax turns chosen checks off. GlobalStorm
// answers every bot-token call with the global limit's 429 for a while;
// each request is recorded with its headers, when it arrived and when it
// was answered, and GlobalBreaches lists those that arrived inside a
// window a global 429 announced.
//
// It imports nothing of Meeple but bot/endpoint, which points sessions at
// it, and bot/shard, which routes a guild's events to its shard. A Server
// is safe for concurrent use.
package discordtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/endpoint"
)

// Kind classifies a recorded request.
type Kind string

// Kinds of recorded requests.
const (
	Callback      Kind = "callback"       // POST /interactions/{id}/{token}/callback
	Followup      Kind = "followup"       // POST /webhooks/{app}/{token}
	OriginalEdit  Kind = "original-edit"  // PATCH /webhooks/{app}/{token}/messages/@original
	FollowupEdit  Kind = "followup-edit"  // PATCH /webhooks/{app}/{token}/messages/{id}
	ChannelSend   Kind = "channel-send"   // POST /channels/{id}/messages (guild channels)
	DirectMessage Kind = "dm"             // POST /channels/{id}/messages (a DM channel)
	MessageEdit   Kind = "message-edit"   // PATCH /channels/{id}/messages/{id}
	MessageDelete Kind = "message-delete" // DELETE /channels/{id}/messages/{id}
	DMOpen        Kind = "dm-open"        // POST /users/@me/channels
	Commands      Kind = "commands"       // PUT /applications/{app}[/guilds/{g}]/commands
	WebhookGet    Kind = "webhook-get"    // GET /webhooks/{app}/{token}/messages/{id}
	GatewayGet    Kind = "gateway"        // GET /gateway
	GatewayBotGet Kind = "gateway-bot"    // GET /gateway/bot
	Me            Kind = "me"             // GET /users/@me
	ThreadStart   Kind = "thread-start"   // POST /channels/{id}/threads (a thread without a message)
	ChannelEdit   Kind = "channel-edit"   // PATCH /channels/{id} (a thread's name, archived state)
	Other         Kind = "other"
)

// File is an uploaded attachment.
type File struct {
	Index       int // N of the form part files[N]
	Name        string
	ContentType string
	Data        []byte
	// Description is the file's alt text, from the payload's attachments.
	Description string
}

// Request is one REST call the fake received.
type Request struct {
	Kind   Kind
	Method string
	Path   string // without /api/v9
	// Token is the interaction token of interaction calls; Channel and
	// Message the ids of channel calls (Channel also of an interaction's
	// calls, when the fake was told its channel; Message also of the
	// message a post or a follow-up made); User the recipient of a DM.
	Token, Channel, Message, User string
	// Type is the interaction response type of a Callback.
	Type discordgo.InteractionResponseType
	// Msg is the message payload (of a callback, its data), decoded.
	Msg *discordgo.Message
	// Choices, Title and CustomID are the autocomplete choices and the
	// modal title and custom_id of a callback.
	Choices  []*discordgo.ApplicationCommandOptionChoice
	Title    string
	CustomID string
	// present lists the payload's top-level keys (for PATCH semantics).
	present map[string]bool
	Files   []File
	// Raw is the JSON payload.
	Raw []byte
	// Header is the request's HTTP header.
	Header http.Header
	// Status is the HTTP status the fake answered.
	Status int
	// Violations are the checks the request broke: enforced ones made
	// Status a refusal, relaxed ones were only noted.
	Violations []Violation
	// At is when the request arrived, Answered when its answer was
	// decided; for a 429, Until is when the wait it asked for ends (the
	// window it announced is from Answered to Until).
	At, Answered, Until time.Time
	// globalRefused: the answer was a global 429.
	globalRefused bool
}

// Content returns the text of the request's message payload.
func (r Request) Content() string {
	if r.Msg == nil {
		return ""
	}
	return r.Msg.Content
}

// Flags returns the message flags of the payload.
func (r Request) Flags() discordgo.MessageFlags {
	if r.Msg == nil {
		return 0
	}
	return r.Msg.Flags
}

// Ephemeral reports whether the payload is flagged ephemeral.
func (r Request) Ephemeral() bool { return r.Flags()&discordgo.MessageFlagsEphemeral != 0 }

// Components returns the payload's components.
func (r Request) Components() []discordgo.MessageComponent {
	if r.Msg == nil {
		return nil
	}
	return r.Msg.Components
}

// Text is everything a person reads in the payload: content, embed titles,
// descriptions and fields, component labels, choices, the modal title and
// uploaded file names. Tests search it for words that must or must not appear.
func (r Request) Text() string {
	var b strings.Builder
	if r.Msg != nil {
		b.WriteString(MessageText(r.Msg))
	}
	b.WriteString(r.Title)
	for _, c := range r.Choices {
		b.WriteString("\n" + c.Name)
	}
	for _, f := range r.Files {
		b.WriteString("\n" + f.Name)
		if f.Description != "" {
			b.WriteString("\n" + f.Description)
		}
	}
	return b.String()
}

// MessageText is everything a person reads in a message: content, embeds,
// component labels, a card's text displays and its pictures' alt text.
func MessageText(m *discordgo.Message) string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description)
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + "\n" + f.Value)
		}
		if e.Footer != nil {
			b.WriteString("\n" + e.Footer.Text)
		}
	}
	for _, c := range m.Components {
		b.WriteString(componentText(c))
	}
	return b.String()
}

// CustomIDs lists the custom_id of every component in the payload, in order.
func (r Request) CustomIDs() []string {
	return CustomIDs(r.Components())
}

// CustomIDs lists the custom_id of every component, in order, nested ones
// (in a card's containers and sections) included.
func CustomIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			out = append(out, CustomIDs(c.Components)...)
		case *discordgo.Container:
			out = append(out, CustomIDs(c.Components)...)
		case *discordgo.Section:
			out = append(out, CustomIDs(append(c.Components, c.Accessory))...)
		case *discordgo.Button:
			out = append(out, c.CustomID)
		case *discordgo.SelectMenu:
			out = append(out, c.CustomID)
		case *discordgo.TextInput:
			out = append(out, c.CustomID)
		}
	}
	return out
}

// Rows lists every action row of cs, nested ones (in a card's
// containers) included, in order.
func Rows(cs []discordgo.MessageComponent) []*discordgo.ActionsRow {
	var out []*discordgo.ActionsRow
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			out = append(out, c)
		case *discordgo.Container:
			out = append(out, Rows(c.Components)...)
		}
	}
	return out
}

// AltTexts lists the description of every media gallery item of cs, nested
// ones included: a card's pictures' alt text.
func AltTexts(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.Container:
			out = append(out, AltTexts(c.Components)...)
		case *discordgo.MediaGallery:
			for _, it := range c.Items {
				if it.Description != nil {
					out = append(out, *it.Description)
				} else {
					out = append(out, "")
				}
			}
		}
	}
	return out
}

func componentText(c discordgo.MessageComponent) string {
	var b strings.Builder
	switch c := c.(type) {
	case *discordgo.Container:
		for _, x := range c.Components {
			b.WriteString(componentText(x))
		}
	case *discordgo.Section:
		for _, x := range c.Components {
			b.WriteString(componentText(x))
		}
		b.WriteString(componentText(c.Accessory))
	case *discordgo.TextDisplay:
		b.WriteString("\n" + c.Content)
	case *discordgo.MediaGallery:
		for _, it := range c.Items {
			if it.Description != nil {
				b.WriteString("\n" + *it.Description)
			}
		}
	case *discordgo.ActionsRow:
		for _, x := range c.Components {
			b.WriteString(componentText(x))
		}
	case discordgo.ActionsRow:
		for _, x := range c.Components {
			b.WriteString(componentText(x))
		}
	case *discordgo.Button:
		b.WriteString("\n" + c.Label)
	case discordgo.Button:
		b.WriteString("\n" + c.Label)
	case *discordgo.SelectMenu:
		b.WriteString("\n" + c.Placeholder)
		for _, o := range c.Options {
			b.WriteString("\n" + o.Label + " " + o.Description)
		}
	case discordgo.SelectMenu:
		b.WriteString("\n" + c.Placeholder)
		for _, o := range c.Options {
			b.WriteString("\n" + o.Label + " " + o.Description)
		}
	case *discordgo.TextInput:
		b.WriteString("\n" + c.Label + " " + c.Placeholder)
	case discordgo.TextInput:
		b.WriteString("\n" + c.Label + " " + c.Placeholder)
	}
	return b.String()
}

// Failure is an error the fake answers instead of success.
type Failure struct {
	Status  int    // HTTP status, e.g. 403
	Code    int    // Discord JSON error code, e.g. 50007
	Message string // Discord's message
	// RetryAfter is the retry_after of a 429, in seconds.
	RetryAfter float64
	// Global makes a 429 the global limit's: its body and headers say so,
	// and a client that follows them waits before any request.
	Global bool
	// Times is how many requests fail; 0 means every matching one.
	Times int
}

// Common failures.
var (
	// CannotDM is Discord's answer when a user does not accept DMs.
	CannotDM = Failure{Status: http.StatusForbidden, Code: discordgo.ErrCodeCannotSendMessagesToThisUser, Message: "Cannot send messages to this user"}
	// ServerError is an internal error.
	ServerError = Failure{Status: http.StatusInternalServerError, Code: 0, Message: "500: Internal Server Error"}
)

// RateLimited returns a 429 that asks to retry after d, for times requests.
func RateLimited(d time.Duration, times int) Failure {
	return Failure{Status: http.StatusTooManyRequests, Message: "You are being rate limited.", RetryAfter: d.Seconds(), Times: times}
}

// GloballyRateLimited returns the global limit's 429 asking to retry after
// d, for times requests.
func GloballyRateLimited(d time.Duration, times int) Failure {
	f := RateLimited(d, times)
	f.Global = true
	return f
}

type rule struct {
	match func(Request) bool
	fail  Failure
	left  int // remaining failures; <0 for unlimited
}

// Options configure a Server. The zero value is Discord as it is: every
// check on, the real clock.
type Options struct {
	// Relax turns the listed checks off. Only tests written before the fake
	// was strict use it; each relaxed breach is still recorded (Violations).
	Relax []Check
	// Now is the clock of the 3-second response window, the 15-minute
	// token and the pacing of IDENTIFYs; nil means time.Now. Rate limits always run on the real clock,
	// since discordgo waits for them in real time.
	Now func() time.Time
	// HeartbeatInterval is the interval the gateway asks for in HELLO; 0
	// means Discord's 41.25 s.
	HeartbeatInterval time.Duration
	// Shards is the shard count GET /gateway/bot recommends; 0 means 1.
	Shards int
	// MaxConcurrency is the session_start_limit.max_concurrency GET
	// /gateway/bot reports (0 means 1): shards whose ids are equal modulo
	// it share a rate-limit key.
	MaxConcurrency int
	// IdentifyEvery, when set, is how long after an IDENTIFY another of
	// the same rate-limit key is refused (closed with 4008), as Discord
	// allows one a key every 5 s; it is kept on the clock of Now.
	IdentifyEvery time.Duration
}

// Interaction limits of Discord.
const (
	// ResponseWindow is how long after an interaction its initial response
	// is accepted.
	ResponseWindow = 3 * time.Second
	// TokenLife is how long an interaction's token works for follow-ups and
	// edits through its webhook.
	TokenLife = 15 * time.Minute
)

// Identity of the fake's bot.
const (
	// Token is the bot token the fake accepts ("Bot " + Token). It has a
	// bot token's form (three base64url parts), which meeple run checks.
	Token = "ZmFrZQ.fake-token.not-a-secret"
	// BotID is the bot user's id (and its application's).
	BotID = "9000"
	// BotName is the bot user's name.
	BotName = "meeple-test"
)

// interaction is what the fake knows of an interaction it issued.
type interaction struct {
	created time.Time
	message string // the message whose component was used, if any
	channel string // where it was made, when told (InteractionChannel)
	acked   bool
	// delivering, while the interactions endpoint's reply is awaited,
	// is closed once it has been processed (endpoint.go)
	delivering chan struct{}
}

// Server is a fake Discord: its REST API, and a gateway (see gateway.go).
type Server struct {
	srv   *httptest.Server
	conns *http.Transport // the clients' connections to srv
	opts  Options
	relax map[Check]bool
	now   func() time.Time

	mu           sync.Mutex
	nextID       int64
	requests     []Request
	messages     map[string]*discordgo.Message              // by message id
	threads      map[string]*discordgo.Channel              // threads made by ThreadStart, by id
	original     map[string]string                          // interaction token → message id of @original
	interactions map[string]*interaction                    // by token
	closedDM     map[string]bool                            // users who refuse DMs
	outsiders    map[string]bool                            // channels the bot cannot see (see Outsider)
	commands     map[string][]*discordgo.ApplicationCommand // registered, by guild ("" for global)
	rules        []*rule
	holds        []*hold
	watch        func(Request)
	limits       limiter
	storm        *storm
	violations   []Violation

	gw       *gateway
	endpoint *endpointTarget // the Interactions Endpoint URL, when set
}

// NewServer starts a fake Discord; Close stops it.
func NewServer(o Options) *Server {
	s := &Server{
		opts:         o,
		relax:        map[Check]bool{},
		now:          o.Now,
		nextID:       1_000_000,
		messages:     map[string]*discordgo.Message{},
		threads:      map[string]*discordgo.Channel{},
		original:     map[string]string{},
		interactions: map[string]*interaction{},
		closedDM:     map[string]bool{},
		outsiders:    map[string]bool{},
		commands:     map[string][]*discordgo.ApplicationCommand{},
		limits:       limiter{buckets: map[string]*window{}},
	}
	for _, c := range o.Relax {
		s.relax[c] = true
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.gw = newGateway(s)
	mux := http.NewServeMux()
	mux.HandleFunc(gatewayPath, s.gw.serve)
	mux.HandleFunc(gatewayPath+"/", s.gw.serve) // discordgo adds a slash
	mux.HandleFunc("/", s.serve)
	s.srv = httptest.NewServer(mux)
	// as many idle connections as the bot keeps to discord.com (32, see
	// bot's guard), rather than the 2 of Go's default: a client that opens
	// a connection for every concurrent request would measure its dials
	s.conns = s.srv.Client().Transport.(*http.Transport).Clone()
	s.conns.MaxIdleConnsPerHost = 32
	return s
}

// Close shuts the server down, gateway connections included.
func (s *Server) Close() {
	s.gw.close()
	s.srv.Close()
	s.conns.CloseIdleConnections()
}

// URL is the server's base URL, the REST base URL to give the bot.
func (s *Server) URL() string { return s.srv.URL }

// Client returns an http.Client that sends requests for discord.com's API
// to the fake and refuses every other host.
func (s *Server) Client() *http.Client {
	c, err := endpoint.Client(endpoint.Config{REST: s.srv.URL}, onlyTo{host: s.srv.Listener.Addr().String(), next: s.conns})
	if err != nil {
		panic(err) // the URL is the fake's own
	}
	c.Timeout = 10 * time.Second
	return c
}

// NewSession returns a discordgo session with the fake's bot token that
// talks to the fake.
func (s *Server) NewSession() *discordgo.Session {
	sess, _ := discordgo.New("Bot " + Token)
	sess.Client = s.Client()
	sess.MaxRestRetries = 1
	return sess
}

// onlyTo sends requests to one host and refuses the others: nothing leaves
// the machine in tests.
type onlyTo struct {
	host string
	next http.RoundTripper
}

func (t onlyTo) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != t.host {
		return nil, fmt.Errorf("discordtest: refusing request to %s", r.URL.Host)
	}
	return t.next.RoundTrip(r)
}

// StartInteraction tells the fake that Discord has just sent the bot an
// interaction with token: its initial response is due within
// ResponseWindow and its webhook works for TokenLife after that. message,
// when not empty, is the message whose component was used, so that an
// UPDATE_MESSAGE response or an edit of @original changes it, as on
// Discord. The gateway's SendInteraction calls it.
func (s *Server) StartInteraction(token, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interactions[token] = &interaction{created: s.now(), message: message}
	if message != "" {
		s.original[token] = message
	}
}

// InteractionChannel tells the fake in which channel the interaction with
// token was made: its messages (the response, follow-ups) are made there,
// and its webhook calls are counted as calls in that channel (a Failure
// matching the channel applies to them, as Discord refuses them once the
// channel is gone). SendInteraction calls it.
func (s *Server) InteractionChannel(token, channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.interactions[token]; in != nil {
		in.channel = channel
	}
}

// RefuseDMs makes every DM to user fail with Discord's error 50007.
func (s *Server) RefuseDMs(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closedDM[user] = true
}

// Fail makes requests that match answer f (f.Times of them, or all when 0).
func (s *Server) Fail(match func(Request) bool, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := f.Times
	if left == 0 {
		left = -1
	}
	s.rules = append(s.rules, &rule{match: match, fail: f, left: left})
}

// hold keeps matching requests waiting until it is released.
type hold struct {
	match    func(Request) bool
	caught   chan Request
	released chan struct{}
}

// Hold makes requests that match wait, unanswered, until release is
// called; each is sent on caught as it arrives (caught holds up to 100).
// Tests use it to keep work in flight.
func (s *Server) Hold(match func(Request) bool) (caught <-chan Request, release func()) {
	h := &hold{match: match, caught: make(chan Request, 100), released: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	var once sync.Once
	return h.caught, func() {
		once.Do(func() {
			s.mu.Lock()
			for i, x := range s.holds {
				if x == h {
					s.holds = append(s.holds[:i], s.holds[i+1:]...)
					break
				}
			}
			s.mu.Unlock()
			close(h.released)
		})
	}
}

// wait blocks while a hold catches req.
func (s *Server) wait(req Request) {
	s.mu.Lock()
	var h *hold
	for _, x := range s.holds {
		if x.match(req) {
			h = x
			break
		}
	}
	s.mu.Unlock()
	if h == nil {
		return
	}
	select {
	case h.caught <- req:
	default:
	}
	<-h.released
}

// ClearFailures removes every Fail rule.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = nil
}

// Watch calls fn (outside the server's lock) with every request after it is recorded.
func (s *Server) Watch(fn func(Request)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watch = fn
}

// Requests returns a copy of everything recorded, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Violations returns every breach of a check so far, enforced or relaxed,
// in arrival order.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.violations...)
}

// Message returns the latest content of a message the fake holds.
func (s *Server) Message(id string) (*discordgo.Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return nil, false
	}
	c := *m
	return &c, true
}

// Original returns the message id of an interaction's @original response.
func (s *Server) Original(token string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.original[token]
	return id, ok
}

// ChannelMessages returns the current messages of a channel in creation order.
func (s *Server) ChannelMessages(channel string) []*discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range s.messages {
		if m.ChannelID == channel {
			c := *m
			out = append(out, &c)
		}
	}
	sortMessages(out)
	return out
}

func sortMessages(ms []*discordgo.Message) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && idLess(ms[j].ID, ms[j-1].ID); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func idLess(a, b string) bool {
	x, _ := strconv.ParseInt(a, 10, 64)
	y, _ := strconv.ParseInt(b, 10, 64)
	return x < y
}
