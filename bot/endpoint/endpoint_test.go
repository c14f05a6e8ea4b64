package endpoint

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestRequestsGoToTheConfiguredBase(t *testing.T) {
	var paths []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"1","username":"bot","url":"wss://from-rest"}`)
	}))
	defer proxy.Close()

	s, _ := discordgo.New("Bot secret")
	if err := Apply(s, Config{REST: proxy.URL + "/discord/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.User("@me"); err != nil {
		t.Fatal(err)
	}
	url, err := s.Gateway()
	if err != nil || url != "wss://from-rest/" {
		t.Errorf("gateway from the REST base: %q %v", url, err)
	}
	want := []string{"GET /discord/api/v9/users/@me Bot secret", "GET /discord/api/v9/gateway Bot secret"}
	if strings.Join(paths, "|") != strings.Join(want, "|") {
		t.Errorf("requests reached the base as %q, want %q", paths, want)
	}

	// a configured gateway URL is answered without asking the REST base
	if err := Apply(s, Config{REST: proxy.URL, Gateway: "ws://127.0.0.1:1/gw"}); err != nil {
		t.Fatal(err)
	}
	paths = nil
	if url, err := s.Gateway(); err != nil || url != "ws://127.0.0.1:1/gw/" || len(paths) != 0 {
		t.Errorf("configured gateway: %q %v, REST asked %v", url, err, paths)
	}
}

func TestOtherHostsAreLeftAlone(t *testing.T) {
	var got string
	next := roundTrip(func(r *http.Request) (*http.Response, error) {
		got = r.URL.String()
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
	})
	c, err := Client(Config{REST: "http://127.0.0.1:8080"}, next)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get("https://cdn.discordapp.com/avatars/1/a.png"); err != nil || got != "https://cdn.discordapp.com/avatars/1/a.png" {
		t.Errorf("CDN request went to %q (%v)", got, err)
	}
	if _, err := c.Get("https://discord.com/api/v9/users/@me"); err != nil || got != "http://127.0.0.1:8080/api/v9/users/@me" {
		t.Errorf("API request went to %q (%v)", got, err)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestBadURLsAreRefused(t *testing.T) {
	for _, c := range []Config{
		{REST: "discord.example"},
		{REST: "ftp://proxy"},
		{REST: "http://proxy?x=1"},
		{Gateway: "http://gateway"},
		{Gateway: "wss://"},
	} {
		if err := c.Check(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if err := (Config{REST: "https://proxy.internal:8080", Gateway: "wss://gw.internal"}).Check(); err != nil {
		t.Error(err)
	}
	s, _ := discordgo.New("Bot x")
	before := s.Client
	if err := Apply(s, Config{}); err != nil || s.Client != before {
		t.Error("the default config changed the client")
	}
}
