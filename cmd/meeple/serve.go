package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/bot/interactions"
	"github.com/meeplegames/meeple/metrics"
	"github.com/meeplegames/meeple/storage"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// shutdownWait bounds how long a stopping HTTP server waits for the
// requests in flight (an interaction waits at most 3 s for its answer).
const shutdownWait = 5 * time.Second

// operatorMetrics makes the metrics when [http] metrics is set: Meeple's
// instruments, the store's games by game and status (of games, the games
// this build plays), and Go's and the process's own, in a registry of
// their own. It returns nils when metrics are off.
func operatorMetrics(cfg httpConfig, games []string, counts func() ([]storage.GameCount, error)) (*metrics.Metrics, *prometheus.Registry, error) {
	if cfg.Metrics == "" {
		return nil, nil, nil
	}
	reg := prometheus.NewRegistry()
	for _, c := range []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := reg.Register(c); err != nil {
			return nil, nil, fmt.Errorf("metrics: %w", err)
		}
	}
	m, err := metrics.New(reg)
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	m.Games(games)
	statuses := []string{string(storage.StatusLobby), string(storage.StatusRunning), string(storage.StatusFinished), string(storage.StatusAbandoned)}
	count := func() ([]metrics.GameCount, error) {
		counts, err := counts()
		out := make([]metrics.GameCount, len(counts))
		for i, c := range counts {
			out[i] = metrics.GameCount{Game: c.Kind, Status: string(c.Status), Games: c.Games}
		}
		return out, err
	}
	if err := metrics.CountGames(reg, games, statuses, count); err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	return m, reg, nil
}

// httpServers are the HTTP servers "meeple run" serves beside the bot.
type httpServers struct {
	log      *slog.Logger
	wg       sync.WaitGroup
	endpoint *interactions.Endpoint
	// endpointUp is true while the interactions endpoint listens
	endpointUp atomic.Bool
}

// startEndpoint listens on [http] listen and serves the interactions
// endpoint there, feeding b, until ctx is done.
func (hs *httpServers) startEndpoint(ctx context.Context, cfg httpConfig, b *bot.Bot, m *metrics.Metrics, deliveries storage.Deliveries) error {
	if cfg.Listen == "" {
		return nil
	}
	key, err := interactions.ParsePublicKey(cfg.PublicKey)
	if err != nil {
		return fmt.Errorf("[http] public_key: %w", err)
	}
	o := interactions.Options{
		PublicKey: key, Logger: hs.log,
		Handler: func(ctx context.Context, i *discordgo.Interaction, a *interactions.Answer) {
			b.HandleHTTPInteraction(ctx, i, a)
		},
		FirstDelivery: deliveries.FirstDelivery, // a replay is refused at every process, and after a restart
	}
	if m != nil {
		o.Count = m.EndpointRequest
	}
	ep, err := interactions.New(o)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(cfg.endpointPattern(), ep)
	addr, _ := listenAddress(cfg.Listen) // checked with the config
	srv := ep.Server(addr)
	srv.Handler = mux
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("interactions endpoint: %w", err)
	}
	hs.endpoint = ep
	hs.endpointUp.Store(true)
	hs.log.Info("serving the interactions endpoint", "address", ln.Addr().String(), "path", cfg.endpointPath())
	hs.serve(ctx, srv, ln, "the interactions endpoint", &hs.endpointUp)
	return nil
}

// startMetrics listens on [http] metrics and serves /metrics, /healthz
// and /readyz there until ctx is done.
func (hs *httpServers) startMetrics(ctx context.Context, cfg httpConfig, reg *prometheus.Registry, ready func(ctx context.Context) error) error {
	if reg == nil {
		return nil
	}
	addr, _ := listenAddress(cfg.Metrics)
	srv := &http.Server{Addr: addr, Handler: metrics.Handler(reg, ready), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute, ErrorLog: slog.NewLogLogger(hs.log.Handler(), slog.LevelDebug)}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	hs.log.Info("serving metrics and health", "address", ln.Addr().String())
	hs.serve(ctx, srv, ln, "metrics", nil)
	return nil
}

// serve runs srv on ln until ctx is done, then shuts it down, letting the
// requests in flight finish. up, when given, is cleared once it stops.
func (hs *httpServers) serve(ctx context.Context, srv *http.Server, ln net.Listener, what string, up *atomic.Bool) {
	hs.wg.Go(func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			hs.log.Error("serving "+what+" failed", "err", err)
		}
		if up != nil {
			up.Store(false)
		}
	})
	hs.wg.Go(func() {
		<-ctx.Done()
		stop, cancel := context.WithTimeout(context.Background(), shutdownWait)
		defer cancel()
		if err := srv.Shutdown(stop); err != nil {
			hs.log.Warn("stopping "+what+": requests still in flight were cut", "err", err)
		}
	})
}

// wait returns once every server has stopped.
func (hs *httpServers) wait() {
	hs.wg.Wait()
	if hs.endpoint != nil {
		hs.endpoint.Close()
	}
}

// readiness is /readyz's check: the store takes writes, and the gateway
// or the interactions endpoint is up.
func readiness(b *bot.Bot, endpointUp *atomic.Bool) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		if err := b.StoreWritable(ctx); err != nil {
			return fmt.Errorf("the store takes no writes: %w", err)
		}
		if !b.GatewayUp() && !endpointUp.Load() {
			return errors.New("neither the gateway nor the interactions endpoint is up")
		}
		return nil
	}
}
