// Package discordtest is an in-process fake of Discord's REST API for tests
// and benchmarks: a *discordgo.Session built by NewSession sends every REST
// call through discordgo's real request code to a Server, which records
// interaction responses, follow-ups, channel messages, edits, DMs and file
// uploads, keeps the latest content of every message, and can be told to
// answer with Discord's errors (50007, 429, 500).
//
// It imports nothing of Meeple. A Server is safe for concurrent use.
package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
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
	Other         Kind = "other"
)

// File is an uploaded attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Request is one REST call the fake received.
type Request struct {
	Kind   Kind
	Method string
	Path   string // without /api/v9
	// Token is the interaction token of interaction calls; Channel and
	// Message the ids of channel calls; User the recipient of a DM.
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
	// Status is the HTTP status the fake answered.
	Status int
	At     time.Time
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
	}
	return b.String()
}

// MessageText is everything a person reads in a message: content, embeds and
// component labels.
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

// CustomIDs lists the custom_id of every component, in order.
func CustomIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			out = append(out, CustomIDs(c.Components)...)
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

func componentText(c discordgo.MessageComponent) string {
	var b strings.Builder
	switch c := c.(type) {
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

type rule struct {
	match func(Request) bool
	fail  Failure
	left  int // remaining failures; <0 for unlimited
}

// Server is a fake Discord REST API.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	nextID   int64
	requests []Request
	messages map[string]*discordgo.Message // by message id
	original map[string]string             // interaction token → message id of @original
	closedDM map[string]bool               // users who refuse DMs
	rules    []*rule
	watch    func(Request)
}

// NewServer starts a fake Discord; Close stops it.
func NewServer() *Server {
	s := &Server{
		nextID:   1_000_000,
		messages: map[string]*discordgo.Message{},
		original: map[string]string{},
		closedDM: map[string]bool{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// URL is the server's base URL.
func (s *Server) URL() string { return s.srv.URL }

// Client returns an http.Client that sends requests for discord.com to the fake.
func (s *Server) Client() *http.Client {
	target, _ := url.Parse(s.srv.URL)
	return &http.Client{Transport: &rewrite{target: target, next: s.srv.Client().Transport}, Timeout: 10 * time.Second}
}

// NewSession returns a discordgo session with a bot token that talks to the fake.
func (s *Server) NewSession() *discordgo.Session {
	sess, _ := discordgo.New("Bot fake-token")
	sess.Client = s.Client()
	sess.MaxRestRetries = 1
	return sess
}

type rewrite struct {
	target *url.URL
	next   http.RoundTripper
}

func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Host, "discord.com") && !strings.HasSuffix(r.URL.Host, "discordapp.com") {
		return nil, fmt.Errorf("discordtest: refusing request to %s", r.URL.Host)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme = t.target.Scheme
	r.URL.Host = t.target.Host
	r.Host = t.target.Host
	return t.next.RoundTrip(r)
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

// Reset forgets the recorded requests (messages are kept).
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
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

// ComponentOn tells the fake that the interaction with token was a click on
// a component of message id, so an UPDATE_MESSAGE response or an edit of
// @original changes that message, as on Discord.
func (s *Server) ComponentOn(token, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.original[token] = id
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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v"+discordgo.APIVersion)
	req := Request{Method: r.Method, Path: path, At: time.Now()}
	if err := readPayload(r, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	seg := strings.Split(strings.Trim(path, "/"), "/")
	classify(&req, seg)

	s.mu.Lock()
	if f, ok := s.failure(req); ok {
		req.Status = f.Status
		s.requests = append(s.requests, req)
		watch := s.watch
		s.mu.Unlock()
		if watch != nil {
			watch(req)
		}
		writeFailure(w, f)
		return
	}
	status, body := s.apply(&req, seg, r.URL.Query().Get("wait") == "true" || r.URL.Query().Get("with_response") == "true")
	req.Status = status
	s.requests = append(s.requests, req)
	watch := s.watch
	s.mu.Unlock()
	if watch != nil {
		watch(req)
	}
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func writeFailure(w http.ResponseWriter, f Failure) {
	w.Header().Set("Content-Type", "application/json")
	if f.Status == http.StatusTooManyRequests {
		w.WriteHeader(f.Status)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": f.Message, "retry_after": f.RetryAfter, "global": false})
		return
	}
	w.WriteHeader(f.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": f.Code, "message": f.Message})
}

// failure finds a failure for req; s.mu is held.
func (s *Server) failure(req Request) (Failure, bool) {
	if req.Kind == DirectMessage && s.closedDM[req.User] {
		return CannotDM, true
	}
	for _, r := range s.rules {
		if r.left != 0 && r.match(req) {
			if r.left > 0 {
				r.left--
			}
			return r.fail, true
		}
	}
	return Failure{}, false
}

func readPayload(r *http.Request, req *Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil || len(body) == 0 {
		return err
	}
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		req.Raw = body
		return nil
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return err
		}
		if p.FormName() == "payload_json" {
			req.Raw = data
			continue
		}
		if !strings.HasPrefix(p.FormName(), "files[") {
			return fmt.Errorf("unexpected form part %q", p.FormName())
		}
		req.Files = append(req.Files, File{Name: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
	}
}

func classify(req *Request, seg []string) {
	n := len(seg)
	switch {
	case n == 4 && seg[0] == "interactions" && seg[3] == "callback" && req.Method == http.MethodPost:
		req.Kind, req.Token = Callback, seg[2]
	case n == 3 && seg[0] == "webhooks" && req.Method == http.MethodPost:
		req.Kind, req.Token = Followup, seg[2]
	case n == 5 && seg[0] == "webhooks" && seg[3] == "messages" && req.Method == http.MethodPatch:
		req.Token, req.Message = seg[2], seg[4]
		req.Kind = FollowupEdit
		if seg[4] == "@original" {
			req.Kind = OriginalEdit
		}
	case n == 5 && seg[0] == "webhooks" && seg[3] == "messages" && req.Method == http.MethodGet:
		req.Kind, req.Token, req.Message = WebhookGet, seg[2], seg[4]
	case n == 3 && seg[0] == "channels" && seg[2] == "messages" && req.Method == http.MethodPost:
		req.Channel = seg[1]
		req.Kind = ChannelSend
		if user, ok := strings.CutPrefix(seg[1], "dm"); ok {
			req.Kind, req.User = DirectMessage, user
		}
	case n == 4 && seg[0] == "channels" && seg[2] == "messages" && req.Method == http.MethodPatch:
		req.Kind, req.Channel, req.Message = MessageEdit, seg[1], seg[3]
	case n == 4 && seg[0] == "channels" && seg[2] == "messages" && req.Method == http.MethodDelete:
		req.Kind, req.Channel, req.Message = MessageDelete, seg[1], seg[3]
	case n == 3 && seg[0] == "users" && seg[2] == "channels" && req.Method == http.MethodPost:
		req.Kind = DMOpen
		var body struct {
			RecipientID string `json:"recipient_id"`
		}
		_ = json.Unmarshal(req.Raw, &body)
		req.User = body.RecipientID
	case seg[0] == "applications" && seg[n-1] == "commands" && req.Method == http.MethodPut:
		req.Kind = Commands
	default:
		req.Kind = Other
	}
	decode(req)
}

func decode(req *Request) {
	if len(req.Raw) == 0 {
		return
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(req.Raw, &keys) != nil {
		return
	}
	req.present = map[string]bool{}
	for k := range keys {
		req.present[k] = true
	}
	switch req.Kind {
	case Callback:
		var ir struct {
			Type discordgo.InteractionResponseType `json:"type"`
			Data json.RawMessage                   `json:"data"`
		}
		if json.Unmarshal(req.Raw, &ir) != nil {
			return
		}
		req.Type = ir.Type
		if len(ir.Data) == 0 || string(ir.Data) == "null" {
			return
		}
		var m discordgo.Message
		if json.Unmarshal(ir.Data, &m) == nil {
			req.Msg = &m
		}
		var extra struct {
			Choices  []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
			Title    string                                      `json:"title"`
			CustomID string                                      `json:"custom_id"`
		}
		if json.Unmarshal(ir.Data, &extra) == nil {
			req.Choices, req.Title, req.CustomID = extra.Choices, extra.Title, extra.CustomID
		}
	case Followup, OriginalEdit, FollowupEdit, ChannelSend, DirectMessage, MessageEdit:
		var m discordgo.Message
		if json.Unmarshal(req.Raw, &m) == nil {
			req.Msg = &m
		}
	}
}

// apply performs req on the fake's messages; s.mu is held.
func (s *Server) apply(req *Request, seg []string, wait bool) (int, any) {
	switch req.Kind {
	case Callback:
		if req.Type == 0 {
			return http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body"}
		}
		if req.Type == discordgo.InteractionResponseChannelMessageWithSource || req.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m := s.newMessage("", nil)
			edit(m, req)
			s.original[req.Token] = m.ID
		}
		if req.Type == discordgo.InteractionResponseUpdateMessage {
			if m, ok := s.messages[s.original[req.Token]]; ok {
				edit(m, req)
			}
		}
		return http.StatusNoContent, nil
	case Followup:
		m := s.newMessage("", nil)
		edit(m, req)
		if wait {
			return http.StatusOK, m
		}
		return http.StatusNoContent, nil
	case OriginalEdit, FollowupEdit:
		id := req.Message
		if req.Kind == OriginalEdit {
			id = s.original[req.Token]
		}
		m, ok := s.messages[id]
		if !ok {
			m = s.newMessage("", nil)
			s.original[req.Token] = m.ID
		}
		edit(m, req)
		return http.StatusOK, m
	case ChannelSend, DirectMessage:
		m := s.newMessage(req.Channel, nil)
		edit(m, req)
		req.Message = m.ID
		return http.StatusOK, m
	case MessageEdit:
		m, ok := s.messages[req.Message]
		if !ok {
			return http.StatusNotFound, map[string]any{"code": discordgo.ErrCodeUnknownMessage, "message": "Unknown Message"}
		}
		edit(m, req)
		return http.StatusOK, m
	case WebhookGet:
		id := req.Message
		if id == "@original" {
			id = s.original[req.Token]
		}
		m, ok := s.messages[id]
		if !ok {
			return http.StatusNotFound, map[string]any{"code": discordgo.ErrCodeUnknownMessage, "message": "Unknown Message"}
		}
		return http.StatusOK, m
	case MessageDelete:
		if _, ok := s.messages[req.Message]; !ok {
			return http.StatusNotFound, map[string]any{"code": discordgo.ErrCodeUnknownMessage, "message": "Unknown Message"}
		}
		delete(s.messages, req.Message)
		return http.StatusNoContent, nil
	case DMOpen:
		return http.StatusOK, &discordgo.Channel{ID: "dm" + req.User, Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{{ID: req.User}}}
	case Commands:
		var cmds []*discordgo.ApplicationCommand
		if err := json.Unmarshal(req.Raw, &cmds); err != nil {
			return http.StatusBadRequest, map[string]any{"code": 50035, "message": err.Error()}
		}
		for _, c := range cmds {
			c.ID = s.id()
			c.ApplicationID = seg[1]
		}
		return http.StatusOK, cmds
	}
	return http.StatusNotFound, map[string]any{"code": 0, "message": "404: Not Found"}
}

func (s *Server) id() string {
	s.nextID++
	return strconv.FormatInt(s.nextID, 10)
}

func (s *Server) newMessage(channel string, _ any) *discordgo.Message {
	m := &discordgo.Message{ID: s.id(), ChannelID: channel, Timestamp: time.Now()}
	s.messages[m.ID] = m
	return m
}

// edit applies the fields present in the payload to m, as Discord does for a PATCH.
func edit(m *discordgo.Message, req *Request) {
	if d := req.Msg; d != nil {
		if req.present["content"] || req.Kind == Callback {
			m.Content = d.Content
		}
		if req.present["embeds"] || req.Kind == Callback {
			m.Embeds = d.Embeds
		}
		if req.present["components"] || req.Kind == Callback {
			m.Components = d.Components
		}
		if req.present["flags"] || req.Kind == Callback {
			m.Flags = d.Flags
		}
		if req.present["attachments"] {
			m.Attachments = nil
		}
	}
	for _, f := range req.Files {
		m.Attachments = append(m.Attachments, &discordgo.MessageAttachment{Filename: f.Name, ContentType: f.ContentType, Size: len(f.Data)})
	}
}
