// Package metrics keeps Meeple's Prometheus metrics and serves them for
// operators, beside a liveness and a readiness probe.
//
// Metrics implements the bot's Observer (bot.Observer: interactions, REST
// calls and 429s, the pacer's queue, store writes, games, images, the
// gateway) and counts the interactions endpoint's requests; it imports
// nothing of Meeple, so the bot, the store and the images stay free of
// Prometheus. Its instruments live in a registry the caller makes (no
// global default registry). Metrics is safe for concurrent use.
//
// docs/operations.md lists every metric and what an alert on it means.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are Meeple's instruments.
type Metrics struct {
	interactions  *prometheus.CounterVec
	answer        *prometheus.HistogramVec
	handling      *prometheus.HistogramVec
	rest          *prometheus.CounterVec
	rateLimited   *prometheus.CounterVec
	pacer         prometheus.Gauge
	storeWrite    *prometheus.HistogramVec
	storeErrors   *prometheus.CounterVec
	started       *prometheus.CounterVec
	ended         *prometheus.CounterVec
	renderTime    *prometheus.HistogramVec
	renderBytes   *prometheus.HistogramVec
	gatewayUp     *prometheus.GaugeVec
	resumes       *prometheus.CounterVec
	disconnects   *prometheus.CounterVec
	endpointCalls *prometheus.CounterVec
}

// New makes the instruments and registers them with reg.
func New(reg prometheus.Registerer) (*Metrics, error) {
	seconds := []float64{.01, .025, .05, .1, .25, .5, 1, 1.5, 2, 2.5, 3, 5, 10, 30}
	m := &Metrics{
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_interactions_total",
			Help: "Interactions handled, by kind (command, autocomplete, component, form, other: a type Meeple does not know) and result (ok, refused, failed, panic, closing)."}, []string{"kind", "result"}),
		answer: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "meeple_interaction_answer_seconds",
			Help: "Time from an interaction's arrival to its initial response going out; Discord drops answers after 3 s.", Buckets: seconds}, []string{"kind"}),
		handling: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "meeple_interaction_seconds",
			Help: "Time an interaction's handling took in all, follow-ups included.", Buckets: seconds}, []string{"kind"}),
		rest: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_discord_requests_total",
			Help: "REST calls to Discord, by route, by the budget they count against (bot: the bot's global 50 a second; interaction: answers and webhooks) and HTTP status (error: no response)."},
			[]string{"route", "budget", "status"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_discord_rate_limited_total",
			Help: "429 answers from Discord, by route and X-RateLimit-Scope (user, global, shared)."}, []string{"route", "scope"}),
		pacer: prometheus.NewGauge(prometheus.GaugeOpts{Name: "meeple_pacer_waiting_requests",
			Help: "Bot-token REST calls waiting for the pacer, which keeps the bot under Discord's 50 a second."}),
		storeWrite: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "meeple_store_write_seconds",
			Help: "Time a write to the store took (commit, create, update, undo, finish), durable on return.", Buckets: seconds}, []string{"op"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_store_write_errors_total",
			Help: "Writes the store failed (not refusals such as a stale version)."}, []string{"op"}),
		started: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_games_started_total",
			Help: "Games started by this process, by game."}, []string{"game"}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_games_ended_total",
			Help: "Games ended by this process, by game and status (finished, abandoned)."}, []string{"game", "status"}),
		renderTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "meeple_render_seconds",
			Help: "Time drawing an image took, by image (board, glance, mat, scores).", Buckets: seconds}, []string{"image"}),
		renderBytes: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "meeple_render_bytes",
			Help: "Size of the PNGs drawn, by image.", Buckets: prometheus.ExponentialBuckets(16<<10, 2, 10)}, []string{"image"}),
		gatewayUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "meeple_gateway_up",
			Help: "1 while a gateway shard's connection is up (ready or resumed), else 0."}, []string{"shard"}),
		resumes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_gateway_resumes_total",
			Help: "Gateway sessions resumed after a drop, by shard."}, []string{"shard"}),
		disconnects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_gateway_disconnects_total",
			Help: "Gateway connections lost, by shard."}, []string{"shard"}),
		endpointCalls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "meeple_endpoint_requests_total",
			Help: "Requests to the HTTP interactions endpoint, by result (" + strings.Join(EndpointResults, ", ") + ")."},
			[]string{"result"}),
	}
	for _, c := range m.collectors() {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	m.zero()
	return m, nil
}

// The label values Meeple's counters know in advance, created at 0 when
// the instruments are made: a series that first appears at 1 hides its
// first increase from rate() and increase().
var (
	InteractionKinds   = []string{"command", "autocomplete", "component", "form", "other"}
	InteractionResults = []string{"ok", "refused", "failed", "panic", "closing"}
	StoreOps           = []string{"commit", "create", "update", "undo", "finish", "pending"}
	EndpointResults    = []string{"interaction", "ping", "unsigned", "forged", "stale", "replayed", "too_large", "bad_request", "incomplete", "method", "busy", "unrecorded", "no_answer"}
)

// zero creates the counters' known series at 0.
func (m *Metrics) zero() {
	for _, kind := range InteractionKinds {
		for _, result := range InteractionResults {
			m.interactions.WithLabelValues(kind, result)
		}
	}
	for _, op := range StoreOps {
		m.storeErrors.WithLabelValues(op)
	}
	for _, result := range EndpointResults {
		m.endpointCalls.WithLabelValues(result)
	}
}

// Games creates the games' counters at 0 for every game of games.
func (m *Metrics) Games(games []string) {
	for _, game := range games {
		m.started.WithLabelValues(game)
		for _, status := range []string{"finished", "abandoned"} {
			m.ended.WithLabelValues(game, status)
		}
	}
}

// Shards creates the gateway's counters at 0 for every shard of shards.
func (m *Metrics) Shards(shards []int) {
	for _, shard := range shards {
		s := strconv.Itoa(shard)
		m.resumes.WithLabelValues(s)
		m.disconnects.WithLabelValues(s)
		m.gatewayUp.WithLabelValues(s)
	}
}

// collectors are m's instruments, one metric each.
func (m *Metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.interactions, m.answer, m.handling, m.rest, m.rateLimited, m.pacer, m.storeWrite, m.storeErrors,
		m.started, m.ended, m.renderTime, m.renderBytes, m.gatewayUp, m.resumes, m.disconnects, m.endpointCalls}
}

// Interaction counts one interaction handled and how long it took.
func (m *Metrics) Interaction(kind, result string, answer, took time.Duration) {
	m.interactions.WithLabelValues(kind, result).Inc()
	if answer > 0 {
		m.answer.WithLabelValues(kind).Observe(answer.Seconds())
	}
	m.handling.WithLabelValues(kind).Observe(took.Seconds())
}

// REST counts one REST call to Discord.
func (m *Metrics) REST(route string, botToken bool, status int, scope string) {
	budget, code := "interaction", "error"
	if botToken {
		budget = "bot"
	}
	if status != 0 {
		code = strconv.Itoa(status)
	}
	m.rest.WithLabelValues(route, budget, code).Inc()
	if status == http.StatusTooManyRequests {
		m.rateLimited.WithLabelValues(route, scope).Inc()
	}
}

// PacerQueue sets how many calls wait for the pacer.
func (m *Metrics) PacerQueue(waiting int) { m.pacer.Set(float64(waiting)) }

// StoreWrite records one write to the store.
func (m *Metrics) StoreWrite(op string, took time.Duration, err error) {
	m.storeWrite.WithLabelValues(op).Observe(took.Seconds())
	if err != nil {
		m.storeErrors.WithLabelValues(op).Inc()
	}
}

// GameStarted counts a game started.
func (m *Metrics) GameStarted(kind string) { m.started.WithLabelValues(kind).Inc() }

// GameEnded counts a game ended.
func (m *Metrics) GameEnded(kind, status string) { m.ended.WithLabelValues(kind, status).Inc() }

// Rendered records an image drawn.
func (m *Metrics) Rendered(image string, took time.Duration, bytes int) {
	m.renderTime.WithLabelValues(image).Observe(took.Seconds())
	m.renderBytes.WithLabelValues(image).Observe(float64(bytes))
}

// Gateway records a shard's connection going up or down (each down is a
// connection lost).
func (m *Metrics) Gateway(shard int, up bool) {
	s := strconv.Itoa(shard)
	if up {
		m.gatewayUp.WithLabelValues(s).Set(1)
		return
	}
	m.disconnects.WithLabelValues(s).Inc()
	m.gatewayUp.WithLabelValues(s).Set(0)
}

// Resumed counts a resumed gateway session.
func (m *Metrics) Resumed(shard int) { m.resumes.WithLabelValues(strconv.Itoa(shard)).Inc() }

// EndpointRequest counts a request to the interactions endpoint (its
// Options.Count).
func (m *Metrics) EndpointRequest(result string) { m.endpointCalls.WithLabelValues(result).Inc() }

// GameCount is how many games of one game (kind) stand at one status
// (lobby, running, finished, abandoned) in the store.
type GameCount struct {
	Game, Status string
	Games        int
}

// CountGames registers meeple_games, the store's games by game and
// status, read when scraped: count returns the store's counts (which the
// store keeps as games move, so a scrape walks no games). Every game of
// games at every status of statuses reads 0 when count has no entry for
// it, so that a series does not vanish when its last game moves on.
func CountGames(reg prometheus.Registerer, games, statuses []string, count func() ([]GameCount, error)) error {
	return reg.Register(gamesCollector{count: count, games: games, statuses: statuses, desc: prometheus.NewDesc("meeple_games",
		"Games in the store, by game and status (lobby, running, finished, abandoned).", []string{"game", "status"}, nil)})
}

// collectorUp says whether a collector that reads the store when scraped
// could read it: when it cannot, its metrics are left out of the scrape
// and the rest are served.
var collectorUp = prometheus.NewDesc("meeple_collector_up",
	"1 when a collector that reads when scraped (games: meeple_games from the store) read what it serves, 0 when it failed and its metrics are missing from this scrape.",
	[]string{"collector"}, nil)

type gamesCollector struct {
	count           func() ([]GameCount, error)
	games, statuses []string
	desc            *prometheus.Desc
}

func (c gamesCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc; ch <- collectorUp }

func (c gamesCollector) Collect(ch chan<- prometheus.Metric) {
	counts, err := c.count()
	up := 1.0
	if err != nil {
		up = 0
	}
	ch <- prometheus.MustNewConstMetric(collectorUp, prometheus.GaugeValue, up, "games")
	if err != nil {
		return // the scrape serves every other metric
	}
	n := map[[2]string]int{}
	for _, game := range c.games {
		for _, status := range c.statuses {
			n[[2]string{game, status}] = 0
		}
	}
	for _, gc := range counts {
		n[[2]string{gc.Game, gc.Status}] += gc.Games
	}
	for k, v := range n {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(v), k[0], k[1])
	}
}

// Handler serves the operator's endpoints: /metrics (what g gathers),
// /healthz (200 while the process serves HTTP at all) and /readyz (200
// when ready, given the request's context, returns nil, else 503 with
// its reason).
func Handler(g prometheus.Gatherer, ready func(ctx context.Context) error) http.Handler {
	mux := http.NewServeMux()
	// What can be gathered is served: a failing collector leaves its own
	// metrics out (and says so in meeple_collector_up), not all of them.
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := ready(r.Context()); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	return mux
}
