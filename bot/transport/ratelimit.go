package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Discord's rate limits, kept by the transport for every request of the
// process (every shard and goroutine shares the session's HTTP client, and
// so one transport). discordgo keeps per-route buckets too, but it honours a
// global 429 only when the answer carries X-RateLimit-Reset-After, and
// then only in the session that received it, while the request that got
// the 429 is the only one that sleeps. The transport therefore:
//
//   - on a global 429 (X-RateLimit-Global, X-RateLimit-Scope: global or
//     "global": true in the body), holds every bot-token request until the
//     wait it announced (retry_after, Retry-After or Reset-After, the
//     longest) is over, then sends one request alone and releases the
//     others only when Discord accepted it: a storm meets one request per
//     window, never a burst;
//   - on a per-route 429, or a bucket with no requests left, holds that
//     bucket (Discord's X-RateLimit-Bucket, per channel, guild or webhook)
//     until it resets;
//   - sends one request at a time on a bucket it knows nothing of yet (at
//     the start, or after a restart), so that the next ones follow the
//     headers of its answer.
//
// Interaction calls (a token in the URL) are not bound by the global limit
// (Discord: "Interaction endpoints are not bound to the bot's Global Rate
// Limit"), so a bot-token 429 never holds them. Should one of them be
// answered with a global 429 itself, its retry_after is honoured, as
// Discord asks of every 429, by the interaction calls alone.

// Wall is the clock rate limits are kept on: Discord's windows are real
// time. Tests give the transport a clock that jumps to the end of each wait.
type Wall interface {
	Now() time.Time
	// Sleep waits until t or until ctx ends.
	Sleep(ctx context.Context, t time.Time) error
}

type RealWall struct{}

func (RealWall) Now() time.Time { return time.Now() }

func (RealWall) Sleep(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rateLimits is the transport's record of Discord's limits. It is safe for
// concurrent use.
type rateLimits struct {
	wall Wall
	// trace, when set (by tests), is called under mu with each bot-token
	// request let go and each global 429 taken in.
	trace *Trace

	mu sync.Mutex
	// changed is closed and replaced whenever a wait may be over early
	// (a probe answered, a bucket's request answered).
	changed chan struct{}
	bot     gate // the global limit of bot-token calls
	hooks   gate // interaction calls: only a global 429 of their own holds them
	// paced is when the steady pace would send the next bot-token request
	// (a generic cell rate algorithm: at most paceBurst ahead of it).
	paced   time.Time
	buckets map[string]*bucket
	hashes  map[string]string // route → Discord's bucket id, from X-RateLimit-Bucket
	waiting int               // requests waiting for an answer (a probe's, a new bucket's)
}

// Trace lets a test see the order of what the transport lets go and what
// it learns.
type Trace struct {
	Sent   func(r *http.Request)
	Paused func(r *http.Request, until time.Time)
}

// gate is one global limit: closed until a time, then open to one probe.
type gate struct {
	until   time.Time
	probing bool // after a global 429: one request at a time until one is accepted
	probe   bool // the probe is in flight
}

// bucket is one of Discord's per-route limits, for one top-level resource.
type bucket struct {
	known     bool // an answer's headers told its state
	remaining int
	reset     time.Time
	inFlight  int
}

// maxBuckets bounds the bucket table; past it, buckets with nothing in
// flight whose reset passed are dropped.
const maxBuckets = 4096

func newRateLimits(w Wall) *rateLimits {
	return &rateLimits{wall: w, changed: make(chan struct{}), buckets: map[string]*bucket{}, hashes: map[string]string{}}
}

// ticket is what admit hands a request for release.
type ticket struct {
	interaction bool
	route       string // method and path, ids of the top-level resource kept
	bucket      string // key in buckets
	probe       bool
}

// admit waits until r may be sent under every limit that binds it, and
// reserves its place.
func (l *rateLimits) admit(ctx context.Context, r *http.Request) (ticket, error) {
	t := ticket{interaction: IsInteractionCall(r.URL.Path)}
	if !t.interaction {
		t.route = routeKey(r.Method, r.URL.Path)
	}
	for {
		l.mu.Lock()
		g := l.gateFor(t.interaction)
		var b *bucket
		if !t.interaction {
			t.bucket = l.bucketKey(t.route)
			b = l.buckets[t.bucket]
		}
		now := l.wall.Now()
		var until time.Time
		wait := false
		switch {
		case now.Before(g.until):
			until = g.until
		case !t.interaction && now.Before(l.paced.Add(-(paceBurst-1)*paceInterval)):
			until = l.paced.Add(-(paceBurst - 1) * paceInterval)
		case g.probing && g.probe:
			wait = true // the probe's answer decides
		case b != nil && b.known && b.remaining-b.inFlight <= 0 && now.Before(b.reset):
			until = b.reset
		case b != nil && (!b.known || !now.Before(b.reset) && b.remaining <= 0) && b.inFlight > 0:
			wait = true // the first answer tells the bucket's state
		default:
			if g.probing {
				g.probe, t.probe = true, true
			}
			if !t.interaction {
				if b == nil {
					b = &bucket{}
					l.addBucket(t.bucket, b)
				}
				if b.known && !now.Before(b.reset) && b.remaining <= 0 {
					b.known = false // reset: unknown again until an answer says
				}
				b.inFlight++
				l.paced = later(l.paced, now).Add(paceInterval)
				if l.trace != nil {
					l.trace.Sent(r)
				}
			}
			l.mu.Unlock()
			return t, nil
		}
		changed := l.changed
		if wait {
			l.waiting++
		}
		l.mu.Unlock()
		var err error
		if wait {
			select {
			case <-changed:
			case <-ctx.Done():
				err = ctx.Err()
			}
			l.mu.Lock()
			l.waiting--
			l.mu.Unlock()
		} else {
			err = l.wall.Sleep(ctx, until)
		}
		if err != nil {
			return t, err
		}
	}
}

// waitingForAnswer returns how many requests wait for another's answer.
func (l *rateLimits) waitingForAnswer() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting
}

func (l *rateLimits) gateFor(interaction bool) *gate {
	if interaction {
		return &l.hooks
	}
	return &l.bot
}

// bucketKey is the key of route's bucket: Discord's bucket id once an
// answer named it, with the top-level resource; the route until then.
func (l *rateLimits) bucketKey(route string) string {
	if route == "" {
		return ""
	}
	template, major := splitRoute(route)
	if hash, ok := l.hashes[template]; ok {
		return hash + " " + major
	}
	return route
}

func (l *rateLimits) addBucket(key string, b *bucket) {
	if len(l.buckets) >= maxBuckets {
		now := l.wall.Now()
		for k, x := range l.buckets {
			if x.inFlight == 0 && !now.Before(x.reset) {
				delete(l.buckets, k)
			}
		}
	}
	l.buckets[key] = b
}

// release records what the answer to a request admitted with t says of the
// limits (resp is nil when the request failed), and returns resp with its
// body intact.
func (l *rateLimits) release(t ticket, r *http.Request, resp *http.Response) *http.Response {
	var limited rateLimited
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		resp, limited = readRateLimited(resp)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.wall.Now()
	g := l.gateFor(t.interaction)
	if t.probe {
		g.probe = false
	}
	if b := l.buckets[t.bucket]; b != nil && b.inFlight > 0 {
		b.inFlight--
	}
	if resp != nil {
		switch {
		case limited.global:
			until := now.Add(limited.wait)
			if until.After(g.until) {
				g.until = until
			}
			g.probing = true
			if !t.interaction && l.trace != nil {
				l.trace.Paused(r, until)
			}
		default:
			if t.probe {
				g.probing = false // Discord took a request again
			}
			if !t.interaction {
				l.learn(t, resp.Header, now, limited)
			}
		}
	}
	close(l.changed)
	l.changed = make(chan struct{})
	return resp
}

// learn updates the request's bucket from an answer's headers.
func (l *rateLimits) learn(t ticket, h http.Header, now time.Time, limited rateLimited) {
	key := t.bucket
	if hash := h.Get("X-RateLimit-Bucket"); hash != "" {
		template, major := splitRoute(t.route)
		if l.hashes[template] != hash {
			if len(l.hashes) >= maxBuckets {
				clear(l.hashes)
			}
			l.hashes[template] = hash
		}
		key = hash + " " + major
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{}
		l.addBucket(key, b)
	}
	if remaining, err := strconv.Atoi(h.Get("X-RateLimit-Remaining")); err == nil {
		b.known, b.remaining = true, remaining
	} else if !b.known {
		// an answer without the headers: a route Discord does not limit
		// (or an error before the limits): nothing to wait for
		b.known, b.remaining = true, math.MaxInt32
	}
	if after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err == nil {
		b.known, b.reset = true, now.Add(seconds(after))
	}
	if limited.limited {
		// a per-route or shared 429: nothing more until the wait is over
		b.known, b.remaining = true, 0
		if until := now.Add(limited.wait); until.After(b.reset) {
			b.reset = until
		}
	}
}

// rateLimited is what a 429 says.
type rateLimited struct {
	limited bool
	global  bool
	shared  bool
	wait    time.Duration // the longest of the waits it announces
}

// readRateLimited reads a 429's headers and body, and returns resp with
// its body restored for discordgo.
func readRateLimited(resp *http.Response) (*http.Response, rateLimited) {
	rl := rateLimited{limited: true}
	var body struct {
		RetryAfter *float64 `json:"retry_after"`
		Global     bool     `json:"global"`
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	_ = json.Unmarshal(data, &body)
	h := resp.Header
	scope := strings.ToLower(h.Get("X-RateLimit-Scope"))
	rl.global = body.Global || scope == "global" || strings.EqualFold(h.Get("X-RateLimit-Global"), "true")
	rl.shared = scope == "shared"
	if body.RetryAfter != nil {
		rl.wait = seconds(*body.RetryAfter)
	} else if after, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil {
		rl.wait = seconds(after)
	}
	if after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64); err == nil {
		rl.wait = max(rl.wait, seconds(after))
	}
	if rl.wait <= 0 {
		rl.wait = time.Second // a 429 that names no wait: Discord's global window is a second
	}
	return resp, rl
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// seconds converts Discord's fractional seconds, rounding up to the
// millisecond.
func seconds(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return time.Duration(math.Ceil(min(s, 3600*24)*1000)) * time.Millisecond
}

// idSegment matches a snowflake in a REST path.
var idSegment = regexp.MustCompile(`^[0-9]{5,20}$`)

// routeKey returns a request's route: its method and path without the API
// version, with every id but those of the top-level resource (the channel,
// guild or webhook Discord counts a bucket for) replaced by ":id".
func routeKey(method, path string) string {
	seg := strings.Split(strings.Trim(path, "/"), "/")
	if len(seg) >= 2 && seg[0] == "api" && strings.HasPrefix(seg[1], "v") {
		seg = seg[2:]
	}
	for n := range seg {
		major := n == 1 && (seg[0] == "channels" || seg[0] == "guilds" || seg[0] == "webhooks")
		if !major && idSegment.MatchString(seg[n]) {
			seg[n] = ":id"
		}
	}
	return method + " /" + strings.Join(seg, "/")
}

// splitRoute splits a route into its template (the top-level id replaced)
// and that id.
func splitRoute(route string) (template, major string) {
	method, path, _ := strings.Cut(route, " ")
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(seg) >= 2 && (seg[0] == "channels" || seg[0] == "guilds" || seg[0] == "webhooks") {
		major = seg[1]
		seg[1] = ":major"
	}
	return method + " /" + strings.Join(seg, "/"), major
}

// setTrace installs a test's trace.
func (l *rateLimits) setTrace(t *Trace) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.trace = t
}

// SetTrace lets a test see, in order, each bot-token request the
// transport lets go and each global 429 it takes in.
func (g *Limiter) SetTrace(t *Trace) { g.limits.setTrace(t) }
