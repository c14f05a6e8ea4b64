package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// scriptedEndpoint verifies Discord's signature as a bot must and replies
// with reply (for interactions other than PING).
func scriptedEndpoint(t *testing.T, key ed25519.PublicKey, reply func(w http.ResponseWriter)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if !ed25519.Verify(key, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if bytes.Contains(body, []byte(`"type":1,`)) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		reply(w)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func jsonReply(body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}
}

func TestTheEndpointsRepliesAreCheckedLikeCallbacks(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, ed25519.SeedSize))
	cases := []struct {
		name  string
		reply func(w http.ResponseWriter)
		code  string // the violation expected; "" for none
	}{
		{"a message", jsonReply(`{"type":4,"data":{"content":"hi","flags":64}}`), ""},
		{"content over 2,000 characters", jsonReply(`{"type":4,"data":{"content":"` + strings.Repeat("x", 2001) + `"}}`), "BASE_TYPE_MAX_LENGTH"},
		{"outside Discord's schema", jsonReply(`{"type":4,"data":{"content":5}}`), ""},
		{"an update without a message", jsonReply(`{"type":7,"data":{"content":"x"}}`), "NO_MESSAGE_TO_UPDATE"},
		{"multipart", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "multipart/form-data; boundary=x")
			_, _ = w.Write([]byte("--x--"))
		}, "REPLY_NOT_JSON"},
		{"202 with no callback", func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }, "ACCEPTED_WITHOUT_RESPONSE"},
		{"a failure", func(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) }, "ENDPOINT_FAILED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewServer(Options{})
			defer s.Close()
			s.SetInteractionsEndpoint(scriptedEndpoint(t, key.Public().(ed25519.PublicKey), c.reply).URL, key)
			if err := s.CheckEndpoint(); err != nil {
				t.Fatal(err)
			}
			token, err := s.PostInteraction(map[string]any{"type": 2, "channel_id": "1", "guild_id": "2",
				"member": map[string]any{"user": map[string]any{"id": "3", "username": "u"}}, "data": map[string]any{"id": "4", "name": "x", "type": 1}})
			if err != nil {
				t.Fatal(err)
			}
			vs := s.Violations()
			switch {
			case c.name == "outside Discord's schema":
				schema := false
				for _, v := range vs {
					schema = schema || v.Check == CheckSchema
				}
				if !schema {
					t.Errorf("violations %v, want a schema one", vs)
				}
			case c.code == "" && len(vs) > 0:
				t.Errorf("violations %v, want none", vs)
			case c.code != "" && (len(vs) == 0 || vs[0].Code != c.code):
				t.Errorf("violations %v, want %s", vs, c.code)
			}
			if c.code == "" && c.name == "a message" {
				id, ok := s.Original(token)
				if m, found := s.Message(id); !ok || !found || m.Content != "hi" {
					t.Errorf("the reply's message was not kept: %v %v", ok, found)
				}
			}
		})
	}
}

func TestCheckEndpointRefusesAnEndpointThatTakesForgeries(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{4}, ed25519.SeedSize))
	trusting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":1}`))
	}))
	defer trusting.Close()
	s := NewServer(Options{})
	defer s.Close()
	s.SetInteractionsEndpoint(trusting.URL, key)
	if err := s.CheckEndpoint(); err == nil || !strings.Contains(err.Error(), "bad signature") {
		t.Errorf("an endpoint that answers forged PINGs passed: %v", err)
	}
}
