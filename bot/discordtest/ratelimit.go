package discordtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GlobalLimit is how many bot-token requests a second Discord accepts from
// one bot, across all routes. Interaction responses and requests through
// an interaction's webhook do not count.
const GlobalLimit = 50

// route is one of Discord's per-route rate limits: limit requests every
// per, counted separately for each top-level resource (channel, webhook).
// Discord does not publish the figures; these are the ones its headers
// announce for bots.
type route struct {
	name  string
	limit int
	per   time.Duration
}

// routeOf returns req's rate limit, the resource it is counted for, and
// whether it is a bot-token call subject to the global limit.
func routeOf(req *Request) (r route, resource string, global bool) {
	switch req.Kind {
	case Callback:
		return route{}, "", false // one response per interaction is the limit
	case Followup, OriginalEdit, FollowupEdit, WebhookGet:
		return route{"/webhooks/{app}/{token}", 5, 2 * time.Second}, req.Token, false
	case ChannelSend, DirectMessage:
		return route{"POST /channels/{channel}/messages", 5, 5 * time.Second}, req.Channel, true
	case MessageEdit:
		return route{"PATCH /channels/{channel}/messages/{id}", 5, 5 * time.Second}, req.Channel, true
	case MessageDelete:
		return route{"DELETE /channels/{channel}/messages/{id}", 5, time.Second}, req.Channel, true
	case DMOpen:
		return route{"POST /users/@me/channels", 5, time.Second}, "", true
	}
	return route{"other", 50, time.Second}, req.Method + " " + req.Path, true
}

// window counts requests in one fixed window of a limit.
type window struct {
	start time.Time
	count int
}

// limiter applies the global limit and the per-route buckets; the Server's
// lock guards it.
type limiter struct {
	global  window
	buckets map[string]*window
}

// limitResult is what the limiter decided for one request.
type limitResult struct {
	headers http.Header
	// over is non-nil when the request is refused with a 429.
	over map[string]any
}

// admit counts req against its limits at now.
func (l *limiter) admit(req *Request, authorization string, now time.Time) limitResult {
	r, resource, global := routeOf(req)
	h := http.Header{}
	if global && strings.HasPrefix(authorization, "Bot ") {
		if now.Sub(l.global.start) >= time.Second {
			l.global = window{start: now}
		}
		if l.global.count >= GlobalLimit {
			retry := l.global.start.Add(time.Second).Sub(now)
			h.Set("X-RateLimit-Global", "true")
			h.Set("X-RateLimit-Scope", "global")
			h.Set("Retry-After", strconv.Itoa(int(retry.Seconds()+0.999)))
			return limitResult{headers: h, over: map[string]any{"message": "You are being rate limited.", "retry_after": retry.Seconds(), "global": true}}
		}
		l.global.count++
	}
	if r.limit == 0 {
		return limitResult{headers: h}
	}
	key := r.name + " " + resource
	w := l.buckets[key]
	if w == nil {
		w = &window{start: now}
		l.buckets[key] = w
	}
	if now.Sub(w.start) >= r.per {
		*w = window{start: now}
	}
	// The headers carry milliseconds: the reset they announce is rounded up
	// (and a millisecond more, for clients that truncate the fraction), so
	// that a client waiting exactly as told finds the window renewed.
	after := (w.start.Add(r.per).Sub(now) + 2*time.Millisecond - 1).Truncate(time.Millisecond)
	reset := now.Add(after)
	h.Set("X-RateLimit-Limit", strconv.Itoa(r.limit))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(reset.UnixMilli())/1000))
	h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", after.Seconds()))
	h.Set("X-RateLimit-Bucket", bucketHash(r.name))
	if w.count >= r.limit {
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Scope", "user")
		h.Set("Retry-After", strconv.Itoa(int(after.Seconds()+0.999)))
		return limitResult{headers: h, over: map[string]any{"message": "You are being rate limited.", "retry_after": after.Seconds(), "global": false}}
	}
	w.count++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(r.limit-w.count))
	return limitResult{headers: h}
}

// bucketHash is the opaque id Discord gives a route's bucket.
func bucketHash(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:8])
}

// GlobalPeak returns the most requests that Discord's global limit counts
// (bot-token calls; not interaction responses nor webhook calls) the fake
// accepted within any one second, and how many it refused with a global
// 429. It counts whether or not the rate limits are relaxed, so that a test
// can check what several processes together sent.
func (s *Server) GlobalPeak() (peak, refused int) {
	s.mu.Lock()
	var times []time.Time
	for _, q := range s.requests {
		if _, _, global := routeOf(&q); !global {
			continue
		}
		if q.globalRefused {
			refused++
			continue
		}
		times = append(times, q.At)
	}
	s.mu.Unlock()
	slices.SortFunc(times, time.Time.Compare)
	first := 0
	for i, t := range times {
		for t.Sub(times[first]) >= time.Second {
			first++
		}
		peak = max(peak, i-first+1)
	}
	return peak, refused
}

// Storm describes a global 429 storm: for a while, Discord answers every
// bot-token request with the global limit's 429, as its documentation
// shows it (Retry-After in whole seconds, X-RateLimit-Global: true,
// X-RateLimit-Scope: global, and retry_after and global: true in the JSON
// body), each answer asking for a wait of its own.
type Storm struct {
	// For is how long the storm lasts from the call to GlobalStorm.
	For time.Duration
	// RetryAfter is the wait each 429 asks for.
	RetryAfter time.Duration
	// ResetAfter says which answers also carry X-RateLimit-Reset-After
	// (as some of Discord's do): never, always, or every other one.
	ResetAfter ResetAfter
}

// ResetAfter says which of a storm's 429s carry X-RateLimit-Reset-After.
type ResetAfter int

// Which of a storm's 429s carry X-RateLimit-Reset-After.
const (
	ResetAfterNever ResetAfter = iota
	ResetAfterAlways
	ResetAfterAlternate
)

type storm struct {
	Storm
	end      time.Time
	answered int
}

// GlobalStorm starts a storm of global 429s now. Interaction calls are not
// touched: Discord's global limit does not bind them.
func (s *Server) GlobalStorm(st Storm) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.storm = &storm{Storm: st, end: time.Now().Add(st.For)}
}

// storming answers req with a storm's global 429 when a storm is on and
// req is a bot-token call; s.mu is held.
func (s *Server) storming(req *Request, authorization string) (http.Header, map[string]any, bool) {
	st := s.storm
	if st == nil || !time.Now().Before(st.end) {
		return nil, nil, false
	}
	if _, _, global := routeOf(req); !global || !strings.HasPrefix(authorization, "Bot ") {
		return nil, nil, false
	}
	st.answered++
	retry := st.RetryAfter.Seconds()
	h := http.Header{}
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(retry))))
	h.Set("X-RateLimit-Global", "true")
	h.Set("X-RateLimit-Scope", "global")
	if st.ResetAfter == ResetAfterAlways || (st.ResetAfter == ResetAfterAlternate && st.answered%2 == 0) {
		h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(retry, 'f', 3, 64))
	}
	req.globalRefused = true
	return h, map[string]any{"message": "You are being rate limited.", "retry_after": retry, "global": true}, true
}

// retryAfter is the wait a 429's body asks for.
func retryAfter(body any) time.Duration {
	m, _ := body.(map[string]any)
	f, _ := m["retry_after"].(float64)
	return time.Duration(f * float64(time.Second))
}

// Breach is a bot-token request that reached the fake inside the window a
// global 429 announced.
type Breach struct {
	Request, Window Request
}

// GlobalBreaches lists the bot-token requests that arrived inside a window
// announced by a global 429 (from its answer to the end of the wait it
// asked for), the requests being the kind Discord's global limit binds.
// A request that the client had sent before it could know of the window
// (one in flight when the 429 was answered) is no breach of the client's:
// inFlight tells which, and those are counted apart. inFlight nil counts
// every request inside a window as a breach.
func (s *Server) GlobalBreaches(inFlight func(r, window Request) bool) (breaches []Breach, excused int) {
	reqs := s.Requests()
	var windows []Request
	for _, q := range reqs {
		if q.globalRefused && !q.Until.IsZero() {
			windows = append(windows, q)
		}
	}
	for _, q := range reqs {
		if _, _, global := routeOf(&q); !global {
			continue
		}
		for _, w := range windows {
			if q.At.Before(w.Answered) || !q.At.Before(w.Until) {
				continue
			}
			if inFlight != nil && inFlight(q, w) {
				excused++
				continue
			}
			breaches = append(breaches, Breach{Request: q, Window: w})
		}
	}
	return breaches, excused
}
