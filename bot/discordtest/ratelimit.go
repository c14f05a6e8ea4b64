package discordtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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
	reset := w.start.Add(r.per)
	after := reset.Sub(now)
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
