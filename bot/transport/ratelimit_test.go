package transport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// jumpWall is a clock that moves only when the transport waits: a wait jumps
// it to the wait's end at once. A test reads from it when each request
// went out, without waiting in real time.
type jumpWall struct {
	mu  sync.Mutex
	now time.Time
}

func (w *jumpWall) Now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

func (w *jumpWall) Sleep(ctx context.Context, t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t.After(w.now) {
		w.now = t
	}
	return ctx.Err()
}

// sent is one request the scripted Discord received.
type sent struct {
	path string
	at   time.Time
}

// scripted is a Discord whose answers a test writes: answer returns the
// response to each request (nil: 200 with rate-limit headers of a roomy
// bucket).
type scripted struct {
	wall   *jumpWall
	answer func(r *http.Request) *http.Response

	mu   sync.Mutex
	sent []sent
}

func (s *scripted) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.sent = append(s.sent, sent{path: r.Method + " " + r.URL.Path, at: s.wall.Now()})
	s.mu.Unlock()
	var resp *http.Response
	if s.answer != nil {
		resp = s.answer(r)
	}
	if resp == nil {
		template, _ := splitRoute(routeKey(r.Method, r.URL.Path))
		resp = response(http.StatusOK, `{}`, "X-RateLimit-Remaining", "4", "X-RateLimit-Reset-After", "1", "X-RateLimit-Bucket", template)
	}
	resp.Request = r
	return resp, nil
}

func (s *scripted) requests() []sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sent(nil), s.sent...)
}

func response(status int, body string, headers ...string) *http.Response {
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

// testTransport returns a limited transport on a jumping clock over a scripted Discord, and
// the bot's clock of its invalid-request window.
func testTransport(answer func(r *http.Request) *http.Response) (*Limiter, *scripted, *jumpWall, *discordtest.Clock) {
	wall := &jumpWall{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	botClock := discordtest.NewClock(wall.now)
	d := &scripted{wall: wall, answer: answer}
	g := &Limiter{next: d, log: slog.New(slog.DiscardHandler), now: botClock.Now, limit: invalidHoldBack, limits: newRateLimits(wall)}
	return g, d, wall, botClock
}

func do(t *testing.T, g *Limiter, method, path string) *http.Response {
	t.Helper()
	r, err := http.NewRequest(method, "https://discord.com/api/v9"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := g.RoundTrip(r)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	_, _ = io.ReadAll(resp.Body)
	return resp
}

// A global 429, in each form Discord sends, holds every bot-token request
// of the process, on every route, until the wait it announced is over; an
// interaction's answer is not held.
func TestAGlobal429HoldsEveryBotTokenRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		body    string
		headers []string
		wait    time.Duration
	}{
		{"as documented: body and Retry-After, no Reset-After", `{"message":"You are being rate limited.","retry_after":1.5,"global":true}`,
			[]string{"Retry-After", "2", "X-RateLimit-Global", "true", "X-RateLimit-Scope", "global"}, 1500 * time.Millisecond},
		{"with Reset-After", `{"message":"You are being rate limited.","retry_after":2.25,"global":true}`,
			[]string{"X-RateLimit-Global", "true", "X-RateLimit-Scope", "global", "X-RateLimit-Reset-After", "2.250"}, 2250 * time.Millisecond},
		{"scope header only, wait in Retry-After", ``, []string{"Retry-After", "3", "X-RateLimit-Scope", "global"}, 3 * time.Second},
		{"body only", `{"retry_after":0.8,"global":true}`, nil, 800 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			first := true
			g, d, wall, _ := testTransport(func(r *http.Request) *http.Response {
				if first && strings.Contains(r.URL.Path, "/channels/") {
					first = false
					return response(http.StatusTooManyRequests, c.body, c.headers...)
				}
				return nil
			})
			start := wall.Now()
			if resp := do(t, g, "POST", "/channels/100000001/messages"); resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("the first request: %d", resp.StatusCode)
			}
			do(t, g, "POST", "/interactions/500001/tok1/callback")
			do(t, g, "PATCH", "/webhooks/9000/tok1/messages/@original")
			for _, path := range []string{"/channels/100000002/messages", "/users/@me/channels", "/guilds/7000/members/101", "/channels/100000001/messages"} {
				do(t, g, "POST", path)
			}
			for _, q := range d.requests()[1:] {
				interaction := strings.Contains(q.path, "/interactions/") || strings.Contains(q.path, "/webhooks/")
				switch {
				case interaction && !q.at.Equal(start):
					t.Errorf("%s waited %v: interaction answers are not bound by the global limit", q.path, q.at.Sub(start))
				case !interaction && q.at.Before(start.Add(c.wait)):
					t.Errorf("%s went %v after the global 429 that asked for %v", q.path, q.at.Sub(start), c.wait)
				}
			}
		})
	}
}

// After a global window the transport lets one request go and holds the others
// until Discord accepted it: a window that follows meets no burst.
func TestAfterAGlobalWindowOneRequestGoesFirst(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	n := 0
	g, d, wall, _ := testTransport(func(r *http.Request) *http.Response {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		switch k {
		case 1:
			return response(http.StatusTooManyRequests, `{"retry_after":1,"global":true}`, "X-RateLimit-Global", "true")
		case 2:
			<-release // the first request after the window: still out
		}
		return nil
	})
	start := wall.Now()
	do(t, g, "POST", "/channels/100000001/messages")
	// one request is out, and the five others wait for its answer
	wg := sendAll(t, g, 5, "/channels/100000010/messages", "/channels/100000011/messages", "/channels/100000012/messages",
		"/channels/100000013/messages", "/channels/100000014/messages", "/channels/100000015/messages")
	if got := len(d.requests()); got != 2 {
		t.Errorf("%d requests out while the first after the window was unanswered; want 2 (the 429'd one and it)", got)
	}
	close(release)
	wg.Wait()
	reqs := d.requests()
	if len(reqs) != 7 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, q := range reqs[1:] {
		if q.at.Before(start.Add(time.Second)) {
			t.Errorf("%s went inside the window", q.path)
		}
	}
}

// A per-route 429 holds its bucket and no other; a shared resource's 429
// does too, and is not counted against the bot.
func TestARoute429HoldsItsBucketOnly(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"user", "shared"} {
		t.Run(scope, func(t *testing.T) {
			first := true
			g, d, wall, _ := testTransport(func(r *http.Request) *http.Response {
				if first {
					first = false
					return response(http.StatusTooManyRequests, `{"retry_after":4,"global":false}`, "X-RateLimit-Scope", scope,
						"X-RateLimit-Remaining", "0", "X-RateLimit-Reset-After", "4", "X-RateLimit-Bucket", "POST /channels/:major/messages")
				}
				return nil
			})
			start := wall.Now()
			do(t, g, "POST", "/channels/100000001/messages")
			do(t, g, "POST", "/channels/100000002/messages") // another channel: its own bucket
			if at := d.requests()[1].at; !at.Equal(start) {
				t.Errorf("another channel's post waited %v", at.Sub(start))
			}
			do(t, g, "POST", "/channels/100000001/messages")
			if at := d.requests()[2].at; at.Before(start.Add(4 * time.Second)) {
				t.Errorf("the limited channel's next post went after %v, inside the 4 s", at.Sub(start))
			}
			want := map[string]int{"user": 1, "shared": 0}[scope]
			if n := g.InvalidCount(); n != want {
				t.Errorf("%d invalid responses counted, want %d", n, want)
			}
		})
	}
}

// A bucket the transport knows nothing of (at the start, after a restart)
// gets one request; the others follow the headers of its answer.
func TestAnUnknownBucketIsAskedOnceFirst(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var once sync.Once
	g, d, wall, _ := testTransport(func(r *http.Request) *http.Response {
		wait := false
		once.Do(func() { wait = true })
		if wait {
			<-release
			return response(http.StatusOK, `{}`, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset-After", "2.5", "X-RateLimit-Bucket", "POST /channels/:major/messages")
		}
		return nil
	})
	start := wall.Now()
	p := "/channels/100000001/messages"
	wg := sendAll(t, g, 3, p, p, p, p)
	if n := len(d.requests()); n != 1 {
		t.Errorf("%d requests on a bucket nothing was known of; want 1", n)
	}
	close(release)
	wg.Wait()
	for _, q := range d.requests()[1:] {
		if q.at.Before(start.Add(2500 * time.Millisecond)) {
			t.Errorf("a request went %v after an answer that said the bucket was empty for 2.5 s", q.at.Sub(start))
		}
	}
}

// A global 429 on an interaction's call holds interaction calls for its
// wait, as Discord asks of any 429, and not the bot-token calls.
func TestAnInteractionsGlobal429HoldsOnlyInteractionCalls(t *testing.T) {
	t.Parallel()
	first := true
	g, d, wall, _ := testTransport(func(r *http.Request) *http.Response {
		if first {
			first = false
			return response(http.StatusTooManyRequests, `{"retry_after":1.2,"global":true}`, "X-RateLimit-Global", "true", "X-RateLimit-Scope", "global")
		}
		return nil
	})
	start := wall.Now()
	do(t, g, "POST", "/webhooks/9000/tok1")
	do(t, g, "POST", "/channels/100000001/messages")
	do(t, g, "POST", "/webhooks/9000/tok2")
	reqs := d.requests()
	if !reqs[1].at.Equal(start) {
		t.Errorf("a bot-token call waited %v for an interaction's 429", reqs[1].at.Sub(start))
	}
	if reqs[2].at.Before(start.Add(1200 * time.Millisecond)) {
		t.Errorf("an interaction call went %v after an interaction's global 429 asked for 1.2 s", reqs[2].at.Sub(start))
	}
}

// Invalid responses are counted in a sliding ten-minute window: the transport
// holds back at the limit, and sends again as soon as the oldest of them
// is ten minutes old (not at a minute's boundary).
func TestInvalidResponsesSlideOutOfTheWindow(t *testing.T) {
	t.Parallel()
	g, d, _, clock := testTransport(func(r *http.Request) *http.Response {
		if strings.Contains(r.URL.Path, "/interactions/") {
			return response(http.StatusNoContent, ``)
		}
		return response(http.StatusForbidden, `{"code":50013,"message":"Missing Permissions"}`)
	})
	g.limit = 3
	start := clock.Now()
	for _, at := range []time.Duration{0, 4*time.Minute + 30*time.Second, 9 * time.Minute} {
		clock.Advance(at - clock.Now().Sub(start))
		do(t, g, "POST", "/channels/100000001/messages")
	}
	if len(d.requests()) != 3 {
		t.Fatalf("%d requests", len(d.requests()))
	}
	r, _ := http.NewRequest("POST", "https://discord.com/api/v9/channels/100000001/messages", nil)
	if _, err := g.RoundTrip(r); err != errHoldingBack {
		t.Fatalf("at the limit: %v, want errHoldingBack", err)
	}
	if _, err := g.RoundTrip(mustRequest(t, "POST", "/interactions/1/tok/callback")); err != nil {
		t.Errorf("an interaction answer while holding back: %v", err)
	}
	clock.Advance(59*time.Second + 999*time.Millisecond) // 9:59.999 after the first
	if _, err := g.RoundTrip(mustRequest(t, "POST", "/channels/100000001/messages")); err != errHoldingBack {
		t.Errorf("just before the first left the window: %v", err)
	}
	clock.Advance(time.Millisecond)
	if _, err := g.RoundTrip(mustRequest(t, "POST", "/channels/100000001/messages")); err != nil {
		t.Errorf("once the first left the window: %v", err)
	}
	if n := g.InvalidCount(); n != 3 {
		t.Errorf("%d in the window, want 3 (two old, one new)", n)
	}
}

// sendAll posts to each path from a goroutine of its own, and returns once
// waiting of them wait for another's answer.
func sendAll(t *testing.T, g *Limiter, waiting int, paths ...string) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			do(t, g, "POST", p)
		}()
	}
	for g.limits.waitingForAnswer() < waiting {
		time.Sleep(time.Millisecond)
	}
	return &wg
}

func mustRequest(t *testing.T, method, path string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(method, "https://discord.com/api/v9"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRouteKeysKeepTheTopLevelResource(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/api/v9/channels/123456789/messages/987654321": "PATCH /channels/123456789/messages/:id",
		"/api/v10/guilds/7000000/members/101010101":     "PATCH /guilds/7000000/members/:id",
		"/api/v9/users/@me/channels":                    "PATCH /users/@me/channels",
	} {
		if got := routeKey("PATCH", in); got != want {
			t.Errorf("routeKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkGuardRoundTrip measures what the transport adds to a bot-token
// request (limits, pacing on a clock that does not wait, counting), over a
// Discord that answers at once.
func BenchmarkGuardRoundTrip(b *testing.B) {
	g, _, _, _ := testTransport(nil)
	reqs := make([]*http.Request, 64)
	for i := range reqs {
		reqs[i], _ = http.NewRequest("POST", fmt.Sprintf("https://discord.com/api/v9/channels/%d/messages", 100000000+i), nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		resp, err := g.RoundTrip(reqs[i%len(reqs)])
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
