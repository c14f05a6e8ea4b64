package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// serve answers one REST request as Discord would: rate limits first, then
// the token and the interaction's state, then the payload's limits and
// schema, and only then the effect.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/api/v"+discordgo.APIVersion)
	req := Request{Method: r.Method, Path: path, At: time.Now(), Header: r.Header.Clone()}
	if err := readPayload(r, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	describeFiles(&req)
	seg := strings.Split(strings.Trim(path, "/"), "/")
	classify(&req, seg)
	s.placeWebhookCall(&req)
	found := s.payloadViolations(&req) // pure: outside the lock
	s.wait(req)
	s.awaitDelivery(req)

	s.mu.Lock()
	status, body, headers := s.answer(&req, seg, r, found)
	req.Status, req.Answered = status, time.Now()
	if status == http.StatusTooManyRequests {
		req.Until = req.Answered.Add(retryAfter(body))
	}
	s.requests = append(s.requests, req)
	watch := s.watch
	s.mu.Unlock()
	if watch != nil {
		watch(req)
	}
	for k, v := range headers {
		w.Header()[k] = v
	}
	if body == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// placeWebhookCall gives an interaction's webhook call the channel the
// interaction was made in, when the fake was told (InteractionChannel).
func (s *Server) placeWebhookCall(req *Request) {
	switch req.Kind {
	case Callback, Followup, OriginalEdit, FollowupEdit, WebhookGet:
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.interactions[req.Token]; in != nil && req.Channel == "" {
		req.Channel = in.channel
	}
}

// payloadViolations checks req's body against the hand-listed limits and
// Discord's description of the route.
func (s *Server) payloadViolations(req *Request) []violation {
	var body any
	if len(req.Raw) > 0 {
		if err := json.Unmarshal(req.Raw, &body); err != nil {
			return []violation{{check: CheckSchema, code: "JSON_DECODE", message: "The request body contains invalid JSON."}}
		}
	}
	found := limitErrors(req.Kind, body, req.Files)
	return append(found, schemaErrors(req.Kind, req.Raw)...)
}

// answer decides the status and body of req; s.mu is held.
func (s *Server) answer(req *Request, seg []string, r *http.Request, found []violation) (int, any, http.Header) {
	var headers http.Header
	if h, body, ok := s.storming(req, r.Header.Get("Authorization")); ok {
		return http.StatusTooManyRequests, body, h
	}
	if !s.relax[CheckRateLimits] {
		// counted when it arrived, as Discord counts, not after the
		// fake's own checks and its lock
		lim := s.limits.admit(req, r.Header.Get("Authorization"), req.At)
		headers = lim.headers
		if lim.over != nil {
			scope := "route " + lim.headers.Get("X-RateLimit-Bucket")
			if lim.over["global"] == true {
				scope, req.globalRefused = "global", true
			}
			s.note(req, []violation{{check: CheckRateLimits, path: []string{req.Method + " " + req.Path}, code: "RATE_LIMITED",
				message: fmt.Sprintf("429 (%s), retry after %.3f s", scope, lim.over["retry_after"])}})
			return http.StatusTooManyRequests, lim.over, headers
		}
	}
	if needsBotToken(req.Kind) && r.Header.Get("Authorization") != "Bot "+Token {
		return http.StatusUnauthorized, map[string]any{"code": 0, "message": "401: Unauthorized"}, headers
	}
	if f, ok := s.failure(*req); ok {
		if f.Global {
			// a global 429 as a client obeys it: every request waits
			headers = http.Header{}
			headers.Set("X-RateLimit-Global", "true")
			headers.Set("X-RateLimit-Scope", "global")
			headers.Set("Retry-After", strconv.Itoa(int(f.RetryAfter+0.999)))
			headers.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", f.RetryAfter))
		}
		return f.Status, failureBody(f), headers
	}
	if status, body, bad := s.lifecycle(req); bad {
		return status, body, headers
	}
	found = append(found, s.formViolations(req)...)
	if enforced := s.note(req, found); len(enforced) > 0 {
		return statusFor(enforced), refusal(enforced), headers
	}
	status, body := s.apply(req, seg, r.URL.Query().Get("wait") == "true" || r.URL.Query().Get("with_response") == "true")
	return status, body, headers
}

// note records vs on req and the server, and returns those not relaxed.
func (s *Server) note(req *Request, vs []violation) []violation {
	var enforced []violation
	for _, v := range vs {
		pv := v.public()
		req.Violations = append(req.Violations, pv)
		s.violations = append(s.violations, pv)
		if !s.relax[v.check] {
			enforced = append(enforced, v)
		}
	}
	return enforced
}

// needsBotToken reports whether a request kind is authorised by the bot
// token rather than an interaction's token.
func needsBotToken(k Kind) bool {
	switch k {
	case Callback, Followup, OriginalEdit, FollowupEdit, WebhookGet, GatewayGet:
		return false
	}
	return true
}

// lifecycle applies Discord's rules on interactions to req: a token Discord
// issued, one initial response within ResponseWindow, nothing through the
// webhook before it, and the token's TokenLife. s.mu is held.
func (s *Server) lifecycle(req *Request) (int, any, bool) {
	var status int
	var body any
	var v violation
	switch req.Kind {
	case Callback:
		in := s.interactions[req.Token]
		switch {
		case in == nil:
			status, body = http.StatusNotFound, errorBody(discordgo.ErrCodeUnknownInteraction, "Unknown interaction")
			v = violation{code: "UNKNOWN_INTERACTION", message: "no interaction has this token"}
		case in.acked:
			status, body = http.StatusBadRequest, errorBody(discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, "Interaction has already been acknowledged.")
			v = violation{code: "ALREADY_ACKNOWLEDGED", message: "a second initial response"}
		case (req.Type == discordgo.InteractionResponseUpdateMessage || req.Type == discordgo.InteractionResponseDeferredMessageUpdate) && in.message == "":
			status, body = http.StatusNotFound, errorBody(discordgo.ErrCodeUnknownMessage, "Unknown Message")
			v = violation{code: "NO_MESSAGE_TO_UPDATE", message: "UPDATE_MESSAGE answers an interaction that came from no message's component"}
		case s.now().Sub(in.created) > ResponseWindow:
			status, body = http.StatusNotFound, errorBody(discordgo.ErrCodeUnknownInteraction, "Unknown interaction")
			v = violation{code: "RESPONSE_TOO_LATE", message: fmt.Sprintf("initial response %v after the interaction", s.now().Sub(in.created))}
		default:
			return 0, nil, false
		}
	case Followup, OriginalEdit, FollowupEdit, WebhookGet:
		in := s.interactions[req.Token]
		switch {
		case in == nil || s.now().Sub(in.created) > TokenLife:
			status, body = http.StatusUnauthorized, errorBody(discordgo.ErrCodeInvalidWebhookTokenProvided, "Invalid Webhook Token")
			v = violation{code: "INVALID_WEBHOOK_TOKEN", message: "unknown or expired interaction token"}
		case !in.acked && req.Kind == Followup:
			status, body = http.StatusNotFound, errorBody(discordgo.ErrCodeUnknownWebhook, "Unknown Webhook")
			v = violation{code: "NOT_ACKNOWLEDGED", message: "a follow-up before the initial response"}
		case !in.acked:
			status, body = http.StatusNotFound, errorBody(discordgo.ErrCodeUnknownMessage, "Unknown Message")
			v = violation{code: "NOT_ACKNOWLEDGED", message: "the original response used before it was sent"}
		default:
			return 0, nil, false
		}
	default:
		return 0, nil, false
	}
	v.check = CheckInteractions
	if len(s.note(req, []violation{v})) == 0 {
		return 0, nil, false // relaxed
	}
	return status, body, true
}

func errorBody(code int, message string) map[string]any {
	return map[string]any{"code": code, "message": message}
}

func failureBody(f Failure) map[string]any {
	if f.Status == http.StatusTooManyRequests {
		return map[string]any{"message": f.Message, "retry_after": f.RetryAfter, "global": f.Global}
	}
	return errorBody(f.Code, f.Message)
}

// failure finds a failure for req; s.mu is held.
func (s *Server) failure(req Request) (Failure, bool) {
	if req.Kind == DirectMessage && s.closedDM[req.User] {
		return CannotDM, true
	}
	if s.outsiderCall(req) {
		return MissingAccess, true
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
		index, ok := strings.CutPrefix(p.FormName(), "files[")
		n, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
		if !ok || err != nil || !strings.HasSuffix(index, "]") {
			return fmt.Errorf("unexpected form part %q", p.FormName())
		}
		req.Files = append(req.Files, File{Index: n, Name: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
	}
}

// describeFiles gives each uploaded file the alt text the payload's
// attachments (a callback's, under data) give its index.
func describeFiles(req *Request) {
	if len(req.Files) == 0 || len(req.Raw) == 0 {
		return
	}
	var body struct {
		Attachments []attachmentRequest `json:"attachments"`
		Data        struct {
			Attachments []attachmentRequest `json:"attachments"`
		} `json:"data"`
	}
	if json.Unmarshal(req.Raw, &body) != nil {
		return
	}
	for _, a := range append(body.Attachments, body.Data.Attachments...) {
		for i := range req.Files {
			if a.Description != nil && fmt.Sprint(a.ID) == strconv.Itoa(req.Files[i].Index) {
				req.Files[i].Description = *a.Description
			}
		}
	}
}

// attachmentRequest is an entry of a payload's attachments: an uploaded
// file by its index, or a kept attachment by its id.
type attachmentRequest struct {
	ID          any     `json:"id"`
	Description *string `json:"description"`
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
	case n == 1 && seg[0] == "gateway" && req.Method == http.MethodGet:
		req.Kind = GatewayGet
	case n == 2 && seg[0] == "gateway" && seg[1] == "bot" && req.Method == http.MethodGet:
		req.Kind = GatewayBotGet
	case n == 2 && seg[0] == "users" && seg[1] == "@me" && req.Method == http.MethodGet:
		req.Kind = Me
	case n == 3 && seg[0] == "users" && seg[2] == "channels" && req.Method == http.MethodPost:
		req.Kind = DMOpen
		var body struct {
			RecipientID string `json:"recipient_id"`
		}
		_ = json.Unmarshal(req.Raw, &body)
		req.User = body.RecipientID
	case seg[0] == "applications" && seg[n-1] == "commands" && req.Method == http.MethodPut:
		req.Kind = Commands
	case n == 3 && seg[0] == "channels" && seg[2] == "threads" && req.Method == http.MethodPost:
		req.Kind, req.Channel = ThreadStart, seg[1]
	case n == 2 && seg[0] == "channels" && req.Method == http.MethodPatch:
		req.Kind, req.Channel = ChannelEdit, seg[1]
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
		if in := s.interactions[req.Token]; in != nil {
			in.acked = true
		}
		if req.Type == discordgo.InteractionResponseChannelMessageWithSource || req.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m := s.newMessage(req.Channel, nil)
			edit(m, req)
			s.original[req.Token] = m.ID
		}
		if req.Type == discordgo.InteractionResponseUpdateMessage {
			if m, ok := s.messages[s.original[req.Token]]; ok {
				editExisting(m, req)
			}
		}
		return http.StatusNoContent, nil
	case Followup:
		m := s.newMessage(req.Channel, nil)
		edit(m, req)
		req.Message = m.ID
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
			edit(m, req)
			return http.StatusOK, m
		}
		editExisting(m, req)
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
		editExisting(m, req)
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
		guild := ""
		if len(seg) >= 5 && seg[2] == "guilds" {
			guild = seg[3]
		}
		for _, c := range cmds {
			c.ID = s.id()
			c.ApplicationID = seg[1]
			c.GuildID = guild
		}
		s.keepCommands(guild, cmds)
		return http.StatusOK, cmds
	case GatewayGet:
		return http.StatusOK, map[string]any{"url": s.gw.url()}
	case GatewayBotGet:
		return http.StatusOK, map[string]any{"url": s.gw.url(), "shards": max(1, s.opts.Shards),
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": max(1, s.opts.MaxConcurrency)}}
	case Me:
		return http.StatusOK, botUser()
	case ThreadStart, ChannelEdit:
		return s.applyThread(req)
	}
	return http.StatusNotFound, map[string]any{"code": 0, "message": "404: Not Found"}
}

// botUser is the fake's bot user.
func botUser() map[string]any {
	return map[string]any{"id": BotID, "username": BotName, "discriminator": "0", "bot": true}
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

// editExisting applies an edit or an UPDATE_MESSAGE to a message that
// exists. As on Discord, whether the message is ephemeral is fixed when it
// is created: the edit's flags cannot make it public or private; and a
// Components V2 message stays one.
func editExisting(m *discordgo.Message, req *Request) {
	eph := m.Flags & discordgo.MessageFlagsEphemeral
	v2 := m.Flags & discordgo.MessageFlagsIsComponentsV2
	edit(m, req)
	m.Flags = m.Flags&^discordgo.MessageFlagsEphemeral | eph | v2
}

// formViolations checks an edit against the message it edits: a Components
// V2 message keeps its flag (an edit that sets flags must keep it) and gets
// no content or embeds, and a message with content or embeds never becomes
// one (Discord allows the flag on an edit only of a message without them,
// such as a deferred response). s.mu is held.
func (s *Server) formViolations(req *Request) []violation {
	var body map[string]any
	if json.Unmarshal(req.Raw, &body) != nil {
		return nil
	}
	var target string
	var path []string
	switch req.Kind {
	case MessageEdit, FollowupEdit:
		target = req.Message
	case OriginalEdit:
		target = s.original[req.Token]
	case Callback:
		if req.Type != discordgo.InteractionResponseUpdateMessage {
			return nil
		}
		target, body, path = s.original[req.Token], object(body["data"]), []string{"data"}
	default:
		return nil
	}
	m, ok := s.messages[target]
	if !ok || body == nil {
		return nil
	}
	c := &checker{}
	_, setsFlags := body["flags"]
	card := isV2(body) || hasLayout(body)
	switch was := m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0; {
	case was && setsFlags && !isV2(body):
		c.add(CheckComponentsV2, at(path, "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "The IS_COMPONENTS_V2 flag cannot be removed from a message")
	case was && !card && hasText(body):
		c.add(CheckComponentsV2, path, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
	case !was && card && (m.Content != "" || len(m.Embeds) > 0):
		c.add(CheckComponentsV2, at(path, "flags"), "MESSAGE_CANNOT_ADD_COMPONENTS_V2_FLAG", "A message with content or embeds cannot become a Components V2 message")
	}
	return c.out
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
