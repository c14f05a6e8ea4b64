package main

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot"
	"github.com/meeplegames/meeple/bot/endpoint"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
	"github.com/meeplegames/meeple/wording"
)

func runRun(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	configPath := fs.String("config", "", "TOML config file (see config.example.toml); without it every setting has its default")
	shardRange := fs.String("shards", "", `gateway shards this process runs, such as "0-3" (instead of [discord] shards; for a systemd template unit's instance name)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	if *shardRange != "" {
		cfg.Discord.Shards = *shardRange
		if problems := cfg.Discord.shardProblems(); len(problems) > 0 {
			return fmt.Errorf("-shards: %s", problems[0])
		}
	}
	token, err := cfg.token(getenv)
	if err != nil {
		return err
	}
	// the same check as meeple check, before the database is touched: a
	// token pasted wrong is told as such, not as a refusal by Discord
	if r := checkToken(cfg, getenv, false); !r.ok {
		return fmt.Errorf("%s → fix: %s", r.detail, r.fix)
	}
	log := cfg.logger(stderr)
	log.Info("meeple build", readBuild().logAttrs()...)
	applyMemoryLimit(cfg, getenv, log)
	defer startCPUProfile(getenv, log)()
	defer heapProfileOnSignal(getenv, log)()
	reg, err := buildRegistry(cfg.Content)
	if err != nil {
		return err
	}
	database := cfg.database(getenv)
	// Every page of a bbolt file is checked: a damaged file is refused
	// before the bot starts.
	store, err := openStore(database, reg, writeFile, boltdb.Options{Logger: log}, stdout)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the store failed", "err", err)
		}
	}()
	file, onFile := store.(*boltdb.Store)
	if onFile {
		// "meeple backup" asks the running bot for copies over this socket. The
		// bot runs without it when it cannot listen; the [backup] loop still works.
		if backups, err := boltdb.ServeBackups(file, boltdb.BackupSocket(database)); err != nil {
			log.Warn("online backups unavailable: meeple backup needs the bot stopped", "err", err)
		} else {
			defer func() { // before the store closes
				if err := backups.Close(); err != nil {
					log.Warn("closing the backup socket failed", "err", err)
				}
			}()
		}
	} else if cfg.Backup.Dir != "" {
		log.Warn("[backup] copies bbolt files only: back a PostgreSQL database up with pg_dump", "dir", cfg.Backup.Dir)
	}
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	session, err := discordgo.New(token)
	if err != nil {
		return fmt.Errorf("discord session: %w", err)
	}
	if err := endpoint.Apply(session, cfg.Discord.endpoints()); err != nil {
		return fmt.Errorf("discord session: %w", err)
	}
	transport.KeepLimits(session, log) // every REST call from here on keeps Discord's limits
	shards, err := cfg.Discord.shardSet(func() (int, error) {
		gb, err := session.GatewayBot()
		if err != nil {
			return 0, err
		}
		return gb.Shards, nil
	})
	if err != nil {
		return err
	}
	botCfg := bot.Config{
		AppID: cfg.ApplicationID, DevGuild: cfg.DevGuildID, Logger: log, Images: true, Shards: shards, NoGateway: cfg.Discord.gatewayOff(),
	}
	m, promReg, err := operatorMetrics(cfg.HTTP, reg.Names(), func() ([]storage.GameCount, error) {
		ctx, cancel := context.WithTimeout(ctx, countsWait)
		defer cancel()
		return store.GameCounts(ctx)
	})
	if err != nil {
		return err
	}
	if m != nil {
		botCfg.Observer = m
		if !botCfg.NoGateway {
			m.Shards(shards.Normal().IDs)
		}
	}
	cfg.Deadlines.apply(&botCfg)
	cfg.Computers.apply(&botCfg)
	botCfg.ShutdownWait = botShutdownWait
	if cfg.Render.Images != nil {
		botCfg.Images = *cfg.Render.Images
	}
	parts := bot.Parts{Session: session, Store: store, Games: reg, Text: plainText}
	if botCfg.Images {
		if parts.Renderer, err = imaging.NewWith(imaging.Options{LayerCache: int(cfg.Render.LayerCache.n)}); err != nil {
			return err
		}
	}
	b, err := bot.New(parts, botCfg)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	var closing stage
	defer shutdownDeadline(ctx, &closing, log, time.After, func() { os.Exit(1) })()
	if onFile {
		go backupLoop(ctx, file, cfg.Backup, log)
	}
	log.Info("starting Meeple", "database", databaseName(database), "games", strings.Join(reg.Names(), ","), "dev_guild", cfg.DevGuildID,
		"rest_base_url", cfg.Discord.RESTBaseURL, "gateway_url", cfg.Discord.GatewayURL, "shards", shards.String())
	ctx, cancel := context.WithCancel(ctx) // also ends the HTTP servers when Run fails
	servers := &httpServers{log: log}
	defer func() {
		cancel()
		closing.set("the HTTP servers")
		servers.wait()
	}()
	if err := servers.startEndpoint(ctx, cfg.HTTP, b, m, store); err != nil {
		return err
	}
	if err := servers.startMetrics(ctx, cfg.HTTP, promReg, readiness(b, &servers.endpointUp)); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Meeple is starting; press Ctrl-C to stop.")
	closing.set("the bot's work in flight and its gateway connections")
	stopped := b.Run(ctx)
	writeHeapProfile(getenv, log) // the bot's caches are still held here
	runtime.KeepAlive(b)
	return stopped
}

// shutdownLimit bounds how long "meeple run" takes to stop once told to,
// well inside systemd's TimeoutStopSec=30; the bot's work in flight has
// botShutdownWait of it, the rest is for the gateway connections and the
// HTTP servers (which stop meanwhile).
const (
	shutdownLimit   = 20 * time.Second
	botShutdownWait = 15 * time.Second
)

// countsWait bounds the count of games a scrape of /metrics asks the
// database for, well inside a scraper's usual 10 s.
const countsWait = 5 * time.Second

// stage names what a stopping "meeple run" is closing.
type stage struct{ what atomic.Pointer[string] }

func (s *stage) set(what string) { s.what.Store(&what) }

func (s *stage) String() string {
	if p := s.what.Load(); p != nil {
		return *p
	}
	return "start-up"
}

// shutdownDeadline ends the process through exit when it is still
// stopping shutdownLimit after ctx ended (after(shutdownLimit) fires),
// saying what it was closing. Call what it returns once stopped.
func shutdownDeadline(ctx context.Context, closing *stage, log *slog.Logger, after func(time.Duration) <-chan time.Time, exit func()) (stopped func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		select {
		case <-done:
		case <-after(shutdownLimit):
			log.Error("stopping took too long: exiting with work cut short", "limit", shutdownLimit.String(), "closing", closing.String())
			exit()
		}
	}()
	return func() { close(done) }
}

// plainText writes a view as text without terminal colours, for Discord.
func plainText(view any, words *wording.Words) (string, error) {
	return present.View(view, words, present.Style{})
}
