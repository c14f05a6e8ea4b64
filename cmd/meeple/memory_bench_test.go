package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
)

// The memory benchmark runs the real "meeple run" (images on, bbolt in a
// temporary folder, the default memory limit) against the strict fake
// Discord and keeps N games going at a steady rate of interactions sent
// through the gateway, while it samples the process's resident memory
// from /proc. Each game is one person against computer players (Crystal
// Palace and 80 Days in turn, two to five players), so every decision the
// person sends sets off the computers' moves and, at each phase, a new
// board. The person reads their legal actions with /play's autocomplete
// and plays one with /play, as a person typing does; one interaction in
// ten or so asks for the whole board (/game board) instead; a game that
// ends is replaced by a new one in its channel.
//
//	go test ./cmd/meeple -run XXX -bench 'RunMemory/games=100$' -benchtime 3000x
//	go test ./cmd/meeple -run XXX -bench 'RunMemory/games=20$' -benchtime 3000x
//
// b.N is the number of interactions of the measured part, sent at
// memoryRate a second. MEEPLE_HEAP_PROFILE=/tmp/heap.pprof, set for the
// benchmark, is passed on to meeple, which writes its heap to
// /tmp/heap.pprof.live when the benchmark sends it SIGUSR1 as the load
// ends, and to /tmp/heap.pprof as it stops (go tool pprof
// -sample_index=inuse_space /tmp/heap.pprof.live; with -v the benchmark
// logs the runtime's memory figures of each moment).
// Setting GOMEMLIMIT (or GOMEMLIMIT=off) for the benchmark does the same
// for meeple's memory limit.

// memoryRate is how many interactions a second the benchmark sends.
const memoryRate = 100

func BenchmarkRunMemory(b *testing.B) {
	// b.Run runs each size once with b.N = 1 before the measured run; both
	// use one process and one set of games, started by the first
	var env *memoryEnv
	b.Cleanup(func() {
		if env != nil {
			env.stop(b)
		}
	})
	// 20 games are twenty tables whose strong computers (the lobby's
	// default) wait for the thinker at once; 100 and 1,000 the load of a
	// large server.
	for _, games := range []int{20, 100, 1000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			if env == nil || len(env.games) != games {
				if env != nil {
					env.stop(b)
				}
				env = startMemoryEnv(b, games)
			}
			env.measure(b)
		})
	}
}

// memoryEnv is a running meeple, the fake Discord it talks to and the
// games it hosts.
type memoryEnv struct {
	fake   *discordtest.Server
	cmd    *exec.Cmd
	exited chan error
	logs   *lockedBuffer
	load   *memoryLoad
	games  []*loadGame
	setup  rss // resident memory once every game had started

	killOnce sync.Once
	dead     atomic.Bool // killed: nothing left to stop
}

// loadGame is one channel of the load and what its person does next.
type loadGame struct {
	n       int
	channel string
	user    string
	kind    string
	players int
	choices []string         // the legal actions last suggested; nil: ask
	setup   []map[string]any // the interactions that open a new game, in order
}

// memoryLoad drives the games and counts what happened.
type memoryLoad struct {
	fake *discordtest.Server
	ans  *answers
	rng  *rand.Rand
	rmu  sync.Mutex

	sent, lost, refused, started, actions atomic.Int64

	omu sync.Mutex
	odd []string // the first answers that were neither expected nor refusals, for a failure's message
}

// note keeps the first few unexpected answers.
func (l *memoryLoad) note(what string) {
	l.omu.Lock()
	defer l.omu.Unlock()
	if len(l.odd) < 5 {
		l.odd = append(l.odd, what)
	}
}

// startMemoryEnv starts meeple and opens games games in it.
func startMemoryEnv(b *testing.B, games int) *memoryEnv {
	bin := buildMeeple(b)
	fake := discordtest.NewServer(discordtest.Options{})
	dir, err := os.MkdirTemp("", "meeple-memory")
	if err != nil {
		b.Fatal(err)
	}
	config := filepath.Join(dir, "config.toml")
	text := fmt.Sprintf("database = %q\napplication_id = %q\n[deadlines]\nturn = \"0\"\nreminder = \"0\"\n[discord]\nrest_base_url = %q\ngateway_url = %q\n",
		filepath.Join(dir, "meeple.db"), discordtest.BotID, fake.URL(), fake.GatewayURL())
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	env := &memoryEnv{fake: fake, logs: &lockedBuffer{}, exited: make(chan error, 1)}
	env.cmd = exec.Command(bin, "run", "-config", config)
	env.cmd.Env = append(os.Environ(), tokenEnv+"="+discordtest.Token)
	env.cmd.Stderr = env.logs
	if err := env.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() {
		env.exited <- env.cmd.Wait()
		os.RemoveAll(dir)
	}()
	if _, err := fake.WaitConnected(30 * time.Second); err != nil {
		env.kill()
		b.Fatalf("meeple never connected: %v\n%s", err, env.logs)
	}
	env.load = &memoryLoad{fake: fake, ans: watchAnswers(fake), rng: rand.New(rand.NewPCG(1, 2))}
	env.games = make([]*loadGame, games)
	for n := range env.games {
		kind := "crystalpalace"
		if n%2 == 1 {
			kind = "eightydays"
		}
		env.games[n] = &loadGame{n: n, channel: fmt.Sprint(70000 + n), user: fmt.Sprint(400000 + n), kind: kind, players: 2 + (n/2)%4}
	}
	// open every game, a few at a time: this is bound by Discord's limit
	// on the bot's own calls (each lobby and each board is a new message)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for _, g := range env.games {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			g.setup = g.openGame()
			for len(g.setup) > 0 {
				env.load.step(g)
			}
		})
	}
	wg.Wait()
	if n := env.load.started.Load(); n != int64(games) {
		env.kill()
		b.Fatalf("%d of %d games started; answers: %q\n%s", n, games, env.load.odd, tail(env.logs.String()))
	}
	env.setup, _ = residentMB(env.cmd.Process.Pid)
	return env
}

// measure sends b.N interactions at memoryRate a second, each to a game
// with no interaction in flight, sampling meeple's resident memory every
// second, and reports it.
func (env *memoryEnv) measure(b *testing.B) {
	load, pid := env.load, env.cmd.Process.Pid
	load.sent.Store(0)
	load.lost.Store(0)
	load.refused.Store(0)
	load.actions.Store(0)
	started := load.started.Load()
	idle := make(chan *loadGame, len(env.games))
	for _, g := range env.games {
		idle <- g
	}
	var samples []float64
	var wg sync.WaitGroup
	sampled := time.Now()
	tick := time.NewTicker(time.Second / memoryRate)
	busy := 0
	began := time.Now()
	cpuBefore, _ := cpuTime(pid)
	b.ResetTimer()
	for range b.N {
		<-tick.C
		var g *loadGame
		select {
		case g = <-idle:
		default:
			busy++ // every game waits for an answer: the bot is behind
			g = <-idle
		}
		wg.Go(func() {
			load.step(g)
			idle <- g
		})
		if time.Since(sampled) >= time.Second {
			sampled = time.Now()
			if r, ok := residentMB(pid); ok {
				samples = append(samples, r.now)
			}
		}
	}
	tick.Stop()
	wg.Wait()
	b.StopTimer()
	cpuAfter, _ := cpuTime(pid)
	after, ok := residentMB(pid)
	if os.Getenv(heapProfileEnv) != "" {
		// the heap as the load ends, before the queues drain
		_ = env.cmd.Process.Signal(syscall.SIGUSR1)
		time.Sleep(3 * time.Second)
	}
	if !ok {
		b.Fatalf("meeple is gone\n%s", tail(env.logs.String()))
	}
	if lost := load.lost.Load(); lost > 0 {
		b.Errorf("%d of %d interactions got no answer within %v: %q", lost, load.sent.Load(), answerWait, load.odd)
	}
	images, bytes := 0, 0
	for _, q := range env.fake.Requests() {
		if q.At.After(began) {
			for _, f := range q.Files {
				images++
				bytes += len(f.Data)
			}
		}
	}
	b.ReportMetric(float64(images)/float64(b.N), "images/op")
	if images > 0 {
		b.ReportMetric(float64(bytes)/float64(images)/1024, "KB/image")
	}
	b.Logf("resident MB, a sample a second: %.0f", samples)
	mean := 0.0
	for _, s := range samples {
		mean += s
	}
	if len(samples) > 0 {
		mean /= float64(len(samples))
	}
	b.ReportMetric(after.now, "rss-MB")
	b.ReportMetric(mean, "mean-rss-MB")
	b.ReportMetric(after.peak, "peak-rss-MB")
	b.ReportMetric(env.setup.now, "setup-rss-MB")
	b.ReportMetric(after.anon, "anon-MB")
	b.ReportMetric(after.file, "file-MB")
	b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(load.actions.Load()), "actions")
	b.ReportMetric(float64(load.started.Load()-started), "games-started")
	b.ReportMetric(float64(load.refused.Load())/float64(b.N), "refused/op")
	if load.refused.Load() > 0 {
		b.Logf("first unexpected answers: %q", load.odd)
	}
	b.ReportMetric(float64(busy)/float64(b.N), "late/op")
	b.ReportMetric(0, "ns/op")
}

// stop ends meeple with SIGTERM, as systemd does, and checks that it
// stopped cleanly without logging an error. The heap profile meeple
// writes as it stops (MEEPLE_HEAP_PROFILE) is logged with its summary.
func (env *memoryEnv) stop(b *testing.B) {
	if env.dead.Load() {
		return
	}
	defer env.fake.Close()
	if err := env.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Error(err)
	}
	select {
	case err := <-env.exited:
		if err != nil {
			b.Errorf("meeple run exited with %v\n%s", err, tail(env.logs.String()))
		}
	case <-time.After(60 * time.Second):
		env.kill()
		b.Errorf("meeple run did not stop after SIGTERM\n%s", tail(env.logs.String()))
	}
	logs := env.logs.String()
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "heap profile") {
			b.Log(line)
		}
	}
	if strings.Contains(logs, "level=ERROR") {
		b.Errorf("meeple logged errors:\n%s", tail(logs))
	}
}

// kill ends meeple at once; stop does nothing after it.
func (env *memoryEnv) kill() {
	env.killOnce.Do(func() {
		env.dead.Store(true)
		_ = env.cmd.Process.Kill()
		<-env.exited
		env.fake.Close()
	})
}

// openGame lists the interactions that open a game in g's channel: a
// lobby, its computer players, the start.
func (g *loadGame) openGame() []map[string]any {
	out := []map[string]any{
		g.slash("lobby", "new", map[string]any{"game": g.kind, "players": g.players}),
	}
	for range g.players - 1 {
		out = append(out, g.slash("lobby", "add-computer", nil))
	}
	return append(out, g.slash("lobby", "start", nil))
}

func (g *loadGame) slash(name, sub string, opts map[string]any) map[string]any {
	var options []map[string]any
	for k, v := range opts {
		typ := 3
		if _, ok := v.(int); ok {
			typ = 4
		}
		options = append(options, map[string]any{"name": k, "type": typ, "value": v})
	}
	if sub != "" {
		options = []map[string]any{{"name": sub, "type": 1, "options": options}}
	}
	return map[string]any{"type": 2, "guild_id": "7000", "channel_id": g.channel, "member": g.member(),
		"data": map[string]any{"id": "1", "name": name, "type": 1, "options": options}}
}

func (g *loadGame) member() map[string]any {
	return map[string]any{"user": map[string]any{"id": g.user, "username": "user" + g.user}, "permissions": "0"}
}

// suggest is the autocomplete of /play's action, nothing typed yet.
func (g *loadGame) suggest() map[string]any {
	return map[string]any{"type": 4, "guild_id": "7000", "channel_id": g.channel, "member": g.member(),
		"data": map[string]any{"id": "1", "name": "play", "type": 1,
			"options": []map[string]any{{"name": "action", "type": 3, "value": "", "focused": true}}}}
}

// step sends g's next interaction and reads its answer.
func (l *memoryLoad) step(g *loadGame) {
	var raw map[string]any
	playing, starting := false, false
	switch {
	case len(g.setup) > 0:
		raw, g.setup, starting = g.setup[0], g.setup[1:], len(g.setup) == 1
	case g.choices == nil:
		raw = g.suggest()
	case l.chance(10):
		// now and then someone asks for the whole board
		raw = g.slash("game", "board", nil)
	default:
		// the person's prompt comes first in the list, free actions after
		l.rmu.Lock()
		pick := g.choices[l.rng.IntN(min(len(g.choices), 3))]
		l.rmu.Unlock()
		raw = g.slash("play", "", map[string]any{"action": pick})
		g.choices, playing = nil, true
	}
	l.sent.Add(1)
	out, ok := l.ans.interact(l.fake, raw)
	if !ok {
		l.lost.Add(1)
		l.note(fmt.Sprintf("no answer to %v in %s: %q", raw["data"], g.channel, joinText(out)))
		return
	}
	text := joinText(out)
	for _, q := range out {
		if q.Kind != discordtest.Callback || q.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
			continue
		}
		g.choices = []string{}
		for _, c := range q.Choices {
			g.choices = append(g.choices, fmt.Sprint(c.Value)) // the name may describe it
		}
		if len(g.choices) == 0 {
			g.choices, g.setup = nil, g.openGame() // the game is over
		}
		return
	}
	switch {
	case strings.Contains(text, "has started"):
		l.started.Add(1)
	case starting:
		l.note(fmt.Sprintf("the start in %s was answered %q", g.channel, text))
	case !playing:
	case strings.Contains(text, "you played"):
		l.actions.Add(1)
	default:
		l.refused.Add(1)
		l.note(fmt.Sprintf("%v in %s was answered %q", raw["data"], g.channel, text))
	}
}

// chance reports true once in n calls, at random.
func (l *memoryLoad) chance(n int) bool {
	l.rmu.Lock()
	defer l.rmu.Unlock()
	return l.rng.IntN(n) == 0
}

// rss is a process's resident memory now and at its peak, and the part
// of it that is anonymous (the Go heap, stacks) and file pages (the
// program, bbolt's mapped file), in MB.
type rss struct{ now, peak, anon, file float64 }

// residentMB reads VmRSS and VmHWM of process pid.
func residentMB(pid int) (rss, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return rss{}, false
	}
	defer f.Close()
	var r rss
	found := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		field := map[string]*float64{"VmRSS": &r.now, "VmHWM": &r.peak, "RssAnon": &r.anon, "RssFile": &r.file}[key]
		if !ok || field == nil {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 64)
		if err != nil {
			return rss{}, false
		}
		*field = kb / 1024
		found++
	}
	return r, found == 4
}

// cpuTime is the CPU time process pid has used, user and system, as
// /proc/PID/stat counts it (in clock ticks, 100 a second on Linux).
func cpuTime(pid int) (time.Duration, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// the fields after the command name, which is in parentheses
	_, rest, ok := strings.Cut(string(data), ") ")
	fields := strings.Fields(rest)
	if !ok || len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / 100, true
}

// tail is the end of a log, enough to see why something failed.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}
