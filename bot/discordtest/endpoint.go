package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"
)

// EndpointReply is the Path of a Request recorded from the reply of the
// bot's interactions endpoint: the initial response it carried.
const EndpointReply = "(interactions endpoint reply)"

// endpointTarget is where Discord delivers interactions by HTTP.
type endpointTarget struct {
	url    string
	key    ed25519.PrivateKey
	client *http.Client
}

// SetInteractionsEndpoint sets the application's Interactions Endpoint
// URL, as in the Developer Portal, and the key pair whose private half
// signs what the fake sends there (Discord keeps its own; the bot is
// given the public half). With it set, Discord sends interactions only
// there, never over the gateway.
func (s *Server) SetInteractionsEndpoint(url string, key ed25519.PrivateKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint = &endpointTarget{url: url, key: key, client: &http.Client{Timeout: 30 * time.Second}}
}

// CheckEndpoint does what the Developer Portal does when the URL is
// saved: a PING signed with the application's key must get a PONG, and
// one with a bad signature must get 401.
func (s *Server) CheckEndpoint() error {
	ping := []byte(`{"id":"1","application_id":"` + BotID + `","type":1,"token":"ping","version":1}`)
	status, body, _, err := s.post(ping, false)
	if err != nil {
		return err
	}
	var pong struct {
		Type int `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &pong) != nil || pong.Type != 1 {
		return fmt.Errorf("discordtest: a PING got %d %q, want 200 and a PONG", status, body)
	}
	if viol := schemaErrors(Callback, body); len(viol) > 0 {
		return fmt.Errorf("discordtest: the PONG: %s", viol[0].public())
	}
	if status, _, _, err = s.post(ping, true); err != nil {
		return err
	}
	if status != http.StatusUnauthorized {
		return fmt.Errorf("discordtest: a PING with a bad signature got %d, want 401", status)
	}
	return nil
}

// PostInteraction delivers raw (an interaction as Discord sends it) to the
// interactions endpoint by a signed POST and processes the reply as
// Discord does: a 200 reply is the interaction's initial response,
// checked like a callback (limits, schema, one response within
// ResponseWindow) and recorded with Path EndpointReply; a 202 says the
// response went through the REST callback, which must have happened;
// anything else, or a multipart reply (Discord refuses those), is a
// violation. raw without a token is given an id and a token first (as
// SendInteraction does). It returns the token once the reply is
// processed; the bot may still be at work on follow-ups.
//
// While a delivery is in flight, calls through the interaction's webhook
// wait until its reply is processed: Discord has read the reply before a
// request the bot sends after it reaches the API.
func (s *Server) PostInteraction(raw map[string]any) (string, error) {
	token, _ := raw["token"].(string)
	if token == "" {
		s.mu.Lock()
		id := s.id()
		s.mu.Unlock()
		token = "itok" + id
		raw["id"], raw["token"], raw["application_id"], raw["version"] = id, token, BotID, 1
	}
	s.mu.Lock()
	in := s.interactions[token]
	s.mu.Unlock()
	if in == nil {
		message := ""
		if m, ok := raw["message"].(map[string]any); ok {
			message, _ = m["id"].(string)
		}
		s.StartInteraction(token, message)
	}
	body, err := json.Marshal(raw)
	if err != nil {
		return token, err
	}
	delivered := make(chan struct{})
	s.mu.Lock()
	in = s.interactions[token]
	in.delivering = delivered
	s.mu.Unlock()
	defer close(delivered)
	status, reply, ct, err := s.post(body, false)
	if err != nil {
		return token, err
	}
	s.reply(token, status, reply, ct)
	return token, nil
}

// post signs body with the endpoint's key (or, forged, with another) at
// the fake's now, and POSTs it.
func (s *Server) post(body []byte, forged bool) (int, []byte, string, error) {
	s.mu.Lock()
	ep := s.endpoint
	now := s.now()
	s.mu.Unlock()
	if ep == nil {
		return 0, nil, "", errors.New("discordtest: no interactions endpoint set (SetInteractionsEndpoint)")
	}
	key := ep.key
	if forged {
		key = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	}
	stamp := strconv.FormatInt(now.Unix(), 10)
	req, err := http.NewRequest(http.MethodPost, ep.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
	resp, err := ep.client.Do(req)
	if err != nil {
		return 0, nil, "", fmt.Errorf("discordtest: delivering to the interactions endpoint: %w", err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, "", err
	}
	return resp.StatusCode, reply, resp.Header.Get("Content-Type"), nil
}

// reply processes the endpoint's reply to the delivery of token.
func (s *Server) reply(token string, status int, body []byte, contentType string) {
	req := Request{Kind: Callback, Method: http.MethodPost, Path: EndpointReply, Token: token, Raw: body, Status: status, At: time.Now()}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	var found []violation
	switch {
	case status == http.StatusOK && mediaType != "application/json":
		found = append(found, violation{check: CheckInteractions, code: "REPLY_NOT_JSON",
			message: fmt.Sprintf("the endpoint replied %q; Discord takes only a JSON interaction response there", contentType)})
	case status == http.StatusOK:
		decode(&req)
		found = s.payloadViolations(&req)
	case status == http.StatusAccepted:
		if len(bytes.TrimSpace(body)) > 0 {
			found = append(found, violation{check: CheckInteractions, code: "ACCEPTED_WITH_BODY", message: "a 202 reply must have no body"})
		}
	default:
		found = append(found, violation{check: CheckInteractions, code: "ENDPOINT_FAILED",
			message: fmt.Sprintf("the endpoint replied %d: Discord shows the user that the interaction failed", status)})
	}
	s.mu.Lock()
	in := s.interactions[token]
	switch {
	case status == http.StatusOK && len(found) == 0:
		if _, _, bad := s.lifecycle(&req); !bad {
			if enforced := s.note(&req, found); len(enforced) == 0 {
				s.apply(&req, nil, false)
			}
		}
	case status == http.StatusAccepted && len(found) == 0 && !in.acked:
		found = append(found, violation{check: CheckInteractions, code: "ACCEPTED_WITHOUT_RESPONSE",
			message: "the endpoint replied 202 but never sent the initial response through the callback"})
		s.note(&req, found)
	default:
		s.note(&req, found)
	}
	watch := s.watch
	if status == http.StatusOK {
		s.requests = append(s.requests, req)
	}
	s.mu.Unlock()
	if watch != nil && status == http.StatusOK {
		watch(req)
	}
}

// awaitDelivery blocks a webhook call for token while the delivery of its
// interaction waits for the endpoint's reply.
func (s *Server) awaitDelivery(req Request) {
	switch req.Kind {
	case Followup, OriginalEdit, FollowupEdit, WebhookGet:
	default:
		return
	}
	s.mu.Lock()
	var wait chan struct{}
	if in := s.interactions[req.Token]; in != nil {
		wait = in.delivering
	}
	s.mu.Unlock()
	if wait != nil {
		<-wait
	}
}
