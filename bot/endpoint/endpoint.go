// Package endpoint points a discordgo session at Discord's API somewhere
// other than discord.com: a rate-limiting REST proxy such as nirn-proxy in
// front of Discord (for a large deployment), or a fake Discord in tests.
//
// discordgo builds every REST URL from package-level variables fixed when
// the program starts. Rather than change those for the whole process, the
// session's HTTP client rewrites each request for discord.com's API to the
// configured base URL. discordgo asks GET /gateway where its websocket
// is; when a gateway URL is configured, the client answers that one
// request itself.
//
// It imports only discordgo; a rewritten client is safe for concurrent use.
package endpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Config is where Discord is. The zero value means Discord itself.
type Config struct {
	// REST is the base URL that replaces https://discord.com: requests go
	// to REST + "/api/v9/...". "" means discord.com.
	REST string
	// Gateway is the websocket URL of the gateway (ws:// or wss://). ""
	// means the one the REST API names.
	Gateway string
}

// Default reports whether c leaves everything at Discord's own addresses.
func (c Config) Default() bool { return c.REST == "" && c.Gateway == "" }

// parse checks c and returns its REST base URL (nil when not set).
func (c Config) parse() (*url.URL, error) {
	var rest *url.URL
	if c.REST != "" {
		u, err := url.Parse(c.REST)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
			return nil, errors.New("the REST base URL is not of the form http(s)://host[:port][/path] (it is not shown: a token pasted there would be)")
		}
		rest = u
	}
	if c.Gateway != "" {
		u, err := url.Parse(c.Gateway)
		if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
			return nil, errors.New("the gateway URL is not of the form ws(s)://host[:port][/path] (it is not shown: a token pasted there would be)")
		}
	}
	return rest, nil
}

// Check reports what is wrong with c, if anything.
func (c Config) Check() error {
	_, err := c.parse()
	return err
}

// Apply makes s talk to the Discord c describes. It keeps the session's
// client timeout and sends other hosts' requests (the CDN) as before.
func Apply(s *discordgo.Session, c Config) error {
	if c.Default() {
		return nil
	}
	client, err := Client(c, s.Client.Transport)
	if err != nil {
		return err
	}
	client.Timeout = s.Client.Timeout
	s.Client = client
	return nil
}

// Client returns an HTTP client that sends requests for discord.com's API
// where c says, and every other request to next (nil means
// http.DefaultTransport).
func Client(c Config, next http.RoundTripper) (*http.Client, error) {
	rest, err := c.parse()
	if err != nil {
		return nil, err
	}
	if next == nil {
		next = http.DefaultTransport
	}
	return &http.Client{Transport: &rewrite{rest: rest, gateway: c.Gateway, gatewayPath: "/api/v" + discordgo.APIVersion + "/gateway", next: next}}, nil
}

type rewrite struct {
	rest    *url.URL
	gateway string
	// gatewayPath is the REST route discordgo asks for the websocket's address.
	gatewayPath string
	next        http.RoundTripper
}

func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	host := r.URL.Hostname()
	if (host != "discord.com" && host != "discordapp.com") || !strings.HasPrefix(r.URL.Path, "/api/") {
		return t.next.RoundTrip(r)
	}
	if t.gateway != "" && r.Method == http.MethodGet && r.URL.Path == t.gatewayPath {
		return t.gatewayAnswer(r)
	}
	if t.rest == nil {
		return t.next.RoundTrip(r)
	}
	out := r.Clone(r.Context())
	out.URL.Scheme = t.rest.Scheme
	out.URL.Host = t.rest.Host
	out.URL.Path = strings.TrimSuffix(t.rest.Path, "/") + r.URL.Path
	out.URL.RawPath = ""
	out.Host = t.rest.Host
	return t.next.RoundTrip(out)
}

// gatewayAnswer answers GET /gateway with the configured websocket URL.
func (t *rewrite) gatewayAnswer(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	body, err := json.Marshal(map[string]string{"url": t.gateway})
	if err != nil {
		return nil, err
	}
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: r,
	}, nil
}
