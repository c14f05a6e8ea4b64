package transport

import (
	"net/http"
	"strings"
)

// Observer hears of every REST call the transport passes on, for an
// operator's metrics (bot.Observer is one). Its methods are called on hot
// paths and from many goroutines at once, so they must be quick.
type Observer interface {
	// REST: one REST call to Discord went out: its route with ids replaced
	// ("PATCH /channels/:id/messages/:id"), whether a bot token paid for
	// it (interaction answers and webhooks do not), and its HTTP status (0
	// when no response came). scope is a 429's X-RateLimit-Scope ("user",
	// "global", "shared"), else "".
	REST(route string, botToken bool, status int, scope string)
	// PacerQueue: how many bot-token calls now wait for Discord's limits
	// (the pace, a bucket, a global 429).
	PacerQueue(waiting int)
}

// routeOf is a REST path as a metric label: the API version dropped,
// interaction and webhook tokens and every id replaced, so that one
// route is one label however many channels the bot talks to.
func routeOf(method, path string) string {
	path = redactTokens(path)
	if _, rest, ok := strings.Cut(path, "/api/v"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok {
			path = "/" + after
		}
	}
	seg := strings.Split(path, "/")
	for n, s := range seg {
		if strings.ContainsAny(s, "0123456789") {
			seg[n] = ":id"
		}
	}
	return method + " " + strings.Join(seg, "/")
}

// seen tells the observer about one REST call the transport passed on.
func (g *Limiter) seen(r *http.Request, resp *http.Response, err error) {
	if g.obs == nil {
		return
	}
	status, scope := 0, ""
	if err == nil {
		status = resp.StatusCode
		if status == http.StatusTooManyRequests {
			scope = resp.Header.Get("X-RateLimit-Scope")
			if scope == "" && resp.Header.Get("X-RateLimit-Global") == "true" {
				scope = "global"
			}
		}
	}
	g.obs.REST(routeOf(r.Method, r.URL.Path), !IsInteractionCall(r.URL.Path), status, scope)
}

// admitted waits until Discord's limits let r go (rateLimits.admit: the
// global limit, r's bucket, the pace), counting the bot-token calls that
// wait.
func (g *Limiter) admitted(r *http.Request) (ticket, error) {
	if g.obs == nil || IsInteractionCall(r.URL.Path) {
		return g.limits.admit(r.Context(), r)
	}
	g.obs.PacerQueue(int(g.queued.Add(1)))
	defer func() { g.obs.PacerQueue(int(g.queued.Add(-1))) }()
	return g.limits.admit(r.Context(), r)
}
