package discordtest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Proxy stands in for a rate-limiting REST proxy such as nirn-proxy, for
// tests of several bot processes sharing one token: each process points
// its REST base URL at the proxy, which forwards to the fake and holds
// bot-token requests so that all of them together stay within a budget a
// second. Interaction responses and webhook calls, which Discord's global
// limit does not count, pass at once (an interaction must be answered
// within 3 seconds). It keeps no per-route buckets: discordgo in each
// process keeps those from the headers the fake returns.
type Proxy struct {
	srv *httptest.Server
	// tokens holds one token per request the budget allows a second; a
	// request takes one and gives it back a second after its answer came.
	tokens chan struct{}

	mu   sync.Mutex
	held int // requests that waited for a token
}

// NewProxy starts a proxy in front of the fake at target (Server.URL)
// that lets perSecond bot-token requests through in any one second.
func NewProxy(target string, perSecond int) (*Proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &Proxy{tokens: make(chan struct{}, max(perSecond, 1))}
	forward := httputil.NewSingleHostReverseProxy(u)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if countsGlobally(r.URL.Path) {
			p.take()
			defer time.AfterFunc(time.Second, func() { <-p.tokens })
		}
		forward.ServeHTTP(w, r)
	}))
	return p, nil
}

// URL is the proxy's base URL, for [discord] rest_base_url.
func (p *Proxy) URL() string { return p.srv.URL }

// Close stops the proxy.
func (p *Proxy) Close() { p.srv.Close() }

// Held returns how many requests waited for the budget.
func (p *Proxy) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// take waits for a token. Tokens come back a second after the answer to
// the request that took them, which is after that request reached the
// server: so no second at the server sees more requests than there are
// tokens.
func (p *Proxy) take() {
	select {
	case p.tokens <- struct{}{}:
		return
	default:
	}
	p.mu.Lock()
	p.held++
	p.mu.Unlock()
	p.tokens <- struct{}{}
}

// countsGlobally reports whether a REST path is a bot-token call that
// Discord's global limit counts: not an interaction response nor a call
// through an interaction's webhook.
func countsGlobally(path string) bool {
	path = strings.TrimPrefix(path, "/api/v10")
	path = strings.TrimPrefix(path, "/api/v9")
	return !strings.HasPrefix(path, "/interactions/") && !strings.HasPrefix(path, "/webhooks/")
}
