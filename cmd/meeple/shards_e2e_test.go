package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// The three-process test runs "meeple run" three times, each process with
// one gateway shard of three, on one PostgreSQL database, with every REST
// call going through one rate-limiting proxy to the fake Discord. Games are
// set up and played at once in guilds of every shard (clicks on boards, each
// sent twice at the same moment, and secret choices by DM, which reach the
// process of shard 0 whatever the game's shard), deadlines pass in between,
// and one process is killed with SIGKILL mid-run and started again.

// answerWait is how long an answer may take before the test calls it
// missing: generous, because the test checks what is answered, not how
// fast, and other packages' tests may share the machine.
const answerWait = 45 * time.Second

// turnLimit is the deadline of every decision in the test: short, so that
// deadlines pass during the run.
const turnLimit = 3 * time.Second

// overdueAfter is how long a passed deadline may wait to be handled.
const overdueAfter = 10 * time.Second

// claimReturns is how long after its process died a claimed timer comes
// back to the others: the bot's shortest claim.
const claimReturns = 30 * time.Second

// meepleProcess is one "meeple run" of the test.
type meepleProcess struct {
	cmd    *exec.Cmd
	exited chan error
	stderr *lockedBuffer
}

// startMeeple starts the meeple binary with args and env added to the
// environment (with the fake's token), its log going to logs.
func startMeeple(t *testing.T, args []string, env []string, logs *lockedBuffer) *meepleProcess {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), tokenEnv+"="+discordtest.Token), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &meepleProcess{cmd: cmd, exited: make(chan error, 1), stderr: logs}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *meepleProcess) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.exited:
		if err != nil {
			t.Errorf("meeple run exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("meeple run did not stop after SIGTERM")
	}
}

// answers routes what the fake records to the test's waiters: the
// requests made under an interaction token, and DMs by recipient.
type answers struct {
	mu      sync.Mutex
	byToken map[string]chan discordtest.Request
	byUser  map[string]chan discordtest.Request
	sent    int // interactions sent
}

func watchAnswers(fake *discordtest.Server) *answers {
	a := &answers{byToken: map[string]chan discordtest.Request{}, byUser: map[string]chan discordtest.Request{}}
	fake.Watch(func(q discordtest.Request) {
		a.mu.Lock()
		var ch chan discordtest.Request
		switch {
		case q.Token != "":
			ch = a.byToken[q.Token]
		case q.Kind == discordtest.DirectMessage:
			ch = a.byUser[q.User]
		}
		a.mu.Unlock()
		if ch != nil {
			select {
			case ch <- q:
			default: // nobody reads any more
			}
		}
	})
	return a
}

func (a *answers) channel(m map[string]chan discordtest.Request, key string) chan discordtest.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	ch := make(chan discordtest.Request, 16)
	m[key] = ch
	return ch
}

// interact dispatches raw and returns what the bot answered to it: the
// callback and, after a deferred one, the edit or follow-up that settles
// it. ok is false when nothing came within the wait.
func (a *answers) interact(fake *discordtest.Server, raw map[string]any) (out []discordtest.Request, ok bool) {
	a.mu.Lock()
	a.sent++ // under the lock: interactions sent at once get distinct tokens
	id := fmt.Sprintf("t%d", a.sent)
	ch := make(chan discordtest.Request, 16)
	a.byToken["itok-"+id] = ch
	a.mu.Unlock()
	raw["id"], raw["token"], raw["application_id"], raw["version"] = id, "itok-"+id, discordtest.BotID, 1
	message := ""
	if m, isMap := raw["message"].(map[string]any); isMap {
		message, _ = m["id"].(string)
	}
	fake.StartInteraction("itok-"+id, message)
	if fake.Dispatch("INTERACTION_CREATE", raw) != nil {
		return nil, false
	}
	timeout := time.After(answerWait)
	for {
		select {
		case q := <-ch:
			out = append(out, q)
			deferred := q.Kind == discordtest.Callback && (q.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource || q.Type == discordgo.InteractionResponseDeferredMessageUpdate)
			// a command slow enough to be deferred privately, whose answer
			// is public: "Done." in its private "thinking…", then the
			// answer as a public follow-up
			doneOnly := q.Kind == discordtest.OriginalEdit && q.Text() == "Done."
			if !deferred && !doneOnly {
				return out, true
			}
		case <-timeout:
			return out, false
		}
	}
}

// dm sends user's text to the bot and returns the bot's DM reply.
func (a *answers) dm(fake *discordtest.Server, user, text string) (string, bool) {
	ch := a.channel(a.byUser, user)
	if _, err := fake.SendDM(user, text); err != nil {
		return "", false
	}
	select {
	case q := <-ch:
		return q.Text(), true
	case <-time.After(answerWait):
		return "", false
	}
}

func joinText(qs []discordtest.Request) string {
	var parts []string
	for _, q := range qs {
		parts = append(parts, q.Text())
	}
	return strings.Join(parts, "\n")
}

// sent is one action the test sent: what it read before (the game's
// version) and whether the bot acknowledged it.
type sent struct {
	version int
	seat    int
	action  string
	acked   bool
}

// testGame is one game of the run and what was sent to it.
type testGame struct {
	kind, guild, channel string
	users                [2]string
	id                   uint64
	mu                   sync.Mutex
	sends                []sent
	dms                  []sent
}

func (g *testGame) record(s sent, dm bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if dm {
		g.dms = append(g.dms, s)
	} else {
		g.sends = append(g.sends, s)
	}
}

func TestThreeProcessesShareShardsAndPostgres(t *testing.T) {
	t.Parallel() // it mostly waits on other processes
	dsn := pg.Database(t)
	bin := buildMeeple(t)
	games, steps := 36, 6
	if testing.Short() {
		games, steps = 12, 4
	}
	fake := discordtest.NewServer(discordtest.Options{Shards: 3, Relax: []discordtest.Check{discordtest.CheckRateLimits}})
	defer fake.Close()
	proxy, err := discordtest.NewProxy(fake.URL(), discordtest.GlobalLimit-5)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	dir := t.TempDir()
	configs := make([]string, 3)
	for i := range configs {
		configs[i] = filepath.Join(dir, fmt.Sprintf("meeple@%d.toml", i))
		// the stand-ins think for a millisecond: a deadline passes every
		// few seconds in each of twenty games, and what is tested is who
		// handles it, not how well
		text := fmt.Sprintf("application_id = %q\n[render]\nimages = false\n[computers]\nthink = \"1ms\"\n[deadlines]\nturn = %q\nreminder = \"0\"\ncheck_every = \"250ms\"\n"+
			"[discord]\nrest_base_url = %q\ngateway_url = %q\nshards = \"%d\"\nshard_count = 3\n",
			discordtest.BotID, turnLimit, proxy.URL(), fake.GatewayURL(), i)
		if err := os.WriteFile(configs[i], []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{databaseEnv + "=" + dsn}
	logs := make([]*lockedBuffer, 3)
	procs := make([]*meepleProcess, 3)
	for i := range procs {
		logs[i] = &lockedBuffer{}
		procs[i] = startMeeple(t, []string{bin, "run", "-config", configs[i]}, env, logs[i])
	}
	all := []discordtest.Shard{{ID: 0, Count: 3}, {ID: 1, Count: 3}, {ID: 2, Count: 3}}
	if _, err := fake.WaitShards(60*time.Second, all...); err != nil {
		t.Fatalf("the three processes did not connect: %v\n%s%s%s", err, logs[0], logs[1], logs[2])
	}
	ans := watchAnswers(fake)
	reg, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := openStore(dsn, reg, readFile, boltdb.Options{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// the games: 80 Days (clicks) and Crystal Palace (secret dice by DM),
	// in guilds of every shard
	tgs := make([]*testGame, games)
	for i := range tgs {
		kind := "eightydays"
		if i%2 == 1 {
			kind = "crystalpalace"
		}
		// (guild >> 22) % 3 is i % 3
		guild := strconv.FormatUint(uint64(3*(10+i)+i%3)<<22, 10)
		tgs[i] = &testGame{kind: kind, guild: guild, channel: fmt.Sprint(50000 + i),
			users: [2]string{fmt.Sprint(200000 + 2*i), fmt.Sprint(200001 + 2*i)}}
	}
	inGuild := func(g *testGame, raw map[string]any) map[string]any {
		raw["guild_id"] = g.guild
		return raw
	}
	parallel(t, tgs, 12, func(g *testGame) {
		for _, step := range []struct {
			raw  map[string]any
			want string
		}{
			{slash(g.users[0], g.channel, "lobby", "new", map[string]string{"game": g.kind}), "lobby"},
			{slash(g.users[1], g.channel, "lobby", "join", nil), "joined"},
			{slash(g.users[0], g.channel, "lobby", "start", nil), "has started"},
		} {
			out, ok := ans.interact(fake, inGuild(g, step.raw))
			if got := joinText(out); !ok || !strings.Contains(got, step.want) {
				t.Errorf("game in %s: answer %q lacks %q", g.channel, got, step.want)
				return
			}
		}
		rec, err := st.Get(context.Background(), g.channel)
		if err != nil {
			t.Errorf("game in %s: %v", g.channel, err)
			return
		}
		g.id = rec.ID
	})
	if t.Failed() {
		t.FailNow()
	}

	// play, and kill the process of shard 1 in the middle
	var killedAt time.Time
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		time.Sleep(2 * turnLimit)
		killedAt = time.Now()
		if err := procs[1].cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Error(err)
			return
		}
		<-procs[1].exited
		time.Sleep(time.Second)
		procs[1] = startMeeple(t, []string{bin, "run", "-config", configs[1]}, env, logs[1])
	}()
	parallel(t, tgs, 25, func(g *testGame) {
		if g.kind == "crystalpalace" {
			playByDM(t, st, ans, fake, g)
			return
		}
		for step := range steps {
			if step%3 == 2 {
				time.Sleep(turnLimit + time.Second) // a deadline passes
				continue
			}
			clickTwice(t, st, ans, fake, g, inGuild)
		}
	})
	<-killed
	if _, err := fake.WaitShards(60*time.Second, all...); err != nil {
		t.Fatalf("shard 1 did not come back: %v", err)
	}
	// the timers the killed process had claimed come back to the others
	// once their claims run out (30 s); then a deadline more passes
	// everywhere, so that every board is redrawn after the restart
	time.Sleep(max(time.Until(killedAt.Add(claimReturns)), 0) + turnLimit + 2*time.Second)

	// every deadline that has passed gets handled: it is moved on (or its
	// game ends) within overdueAfter
	checkDeadlinesHandled(t, st, tgs)
	for _, p := range procs {
		p.stop(t)
	}

	checkTheRun(t, st, fake, tgs, killedAt)
	peak, refused := fake.GlobalPeak()
	if peak > discordtest.GlobalLimit || refused > 0 {
		t.Errorf("the processes together sent up to %d bot-token requests in a second (limit %d), %d refused", peak, discordtest.GlobalLimit, refused)
	}
	for i, l := range logs {
		if strings.Contains(l.String(), discordtest.Token) {
			t.Errorf("process %d logged the token", i)
		}
	}
	t.Logf("%d games; peak %d bot-token requests a second through the proxy (%d held back)", games, peak, proxy.Held())
}

// checkDeadlinesHandled takes the deadlines that have passed now and
// waits until each has been handled: its game has a new deadline or is
// over. The games' deadlines come in waves (each game's every 3 s) and the
// process that claims a wave handles it one timer after another, so on
// two shared cores a wave of dozens takes seconds; overdueAfter is generous.
func checkDeadlinesHandled(t *testing.T, st store, tgs []*testGame) {
	t.Helper()
	passed := map[string]time.Time{}
	for _, g := range tgs {
		if rec, err := st.Get(context.Background(), g.channel); err == nil && !rec.Deadline.IsZero() && rec.Deadline.Before(time.Now()) {
			passed[g.channel] = rec.Deadline
		}
	}
	until := time.Now().Add(overdueAfter)
	for len(passed) > 0 && time.Now().Before(until) {
		time.Sleep(250 * time.Millisecond)
		for ch, d := range passed {
			if rec, err := st.Get(context.Background(), ch); err != nil || !rec.Deadline.Equal(d) {
				delete(passed, ch)
			}
		}
	}
	for ch, d := range passed {
		t.Errorf("game in %s: its deadline %v passed %v ago and was not handled", ch, d, time.Since(d).Round(time.Millisecond))
	}
}

// parallel runs f for every game, at most n at once.
func parallel(t *testing.T, tgs []*testGame, n int, f func(*testGame)) {
	t.Helper()
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for _, g := range tgs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			f(g)
		})
	}
	wg.Wait()
}

// clickTwice reads g's state, and clicks the action of the player to move
// on the board twice at the same moment, as a double click does.
func clickTwice(t *testing.T, st store, ans *answers, fake *discordtest.Server, g *testGame, inGuild func(*testGame, map[string]any) map[string]any) {
	rec, state, err := st.Load(context.Background(), g.channel)
	if err != nil || state.Over() {
		return
	}
	prompts := state.Prompts()
	if len(prompts) == 0 {
		return
	}
	p := prompts[0]
	action := p.Actions[len(p.Actions)/2]
	user := rec.Seats[p.Seat].User
	board := rec.Messages["board"]
	message := map[string]any{"id": board, "channel_id": g.channel}
	if m, ok := fake.Message(board); ok {
		data, _ := json.Marshal(m)
		_ = json.Unmarshal(data, &message)
	}
	customID := fmt.Sprintf("m2:%s:%s:act:%s", strconv.FormatUint(rec.ID, 36), strconv.FormatUint(rec.Revision, 36), action)
	var wg sync.WaitGroup
	acks := make([]bool, 2)
	for i := range acks {
		wg.Go(func() {
			raw := map[string]any{"type": 3, "channel_id": g.channel, "message": message,
				"data":   map[string]any{"custom_id": customID, "component_type": 2},
				"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user}, "permissions": "0"}}
			out, ok := ans.interact(fake, inGuild(g, raw))
			acks[i] = ok && clickApplied(out)
		})
	}
	wg.Wait()
	if acks[0] && acks[1] {
		t.Errorf("game in %s: a double click on %q at version %d was acknowledged twice", g.channel, action, rec.Version)
	}
	g.record(sent{version: rec.Version, seat: int(p.Seat), action: action, acked: acks[0] || acks[1]}, false)
}

// clickApplied reports whether the answers to a click say it was applied:
// the board was updated in the answer (not a private refusal).
func clickApplied(out []discordtest.Request) bool {
	for _, q := range out {
		if q.Status >= 300 {
			return false
		}
		if q.Kind == discordtest.Callback && q.Type == discordgo.InteractionResponseUpdateMessage {
			return true
		}
		if q.Kind == discordtest.OriginalEdit && !q.Ephemeral() && len(q.Components()) > 0 {
			return true
		}
	}
	return false
}

// playByDM sends every player's secret dice of the first round by DM.
func playByDM(t *testing.T, st store, ans *answers, fake *discordtest.Server, g *testGame) {
	rec, state, err := st.Load(context.Background(), g.channel)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	for _, p := range state.Prompts() {
		user := rec.Seats[p.Seat].User
		action := p.Actions[len(p.Actions)/3]
		wg.Go(func() {
			reply, ok := ans.dm(fake, user, action)
			g.record(sent{version: rec.Version, seat: int(p.Seat), action: action, acked: ok && strings.Contains(reply, "you played")}, true)
		})
	}
	wg.Wait()
}

// unaskedEntries replays g's log and reports which entries were answers
// the bot gave without asking (engine.UnaskedAnswer), by version.
func unaskedEntries(t *testing.T, g *storage.Game) map[int]bool {
	t.Helper()
	games, err := buildRegistry(nil)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := games.Lookup(g.Kind)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.New(g.Setup)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for v, e := range g.Log {
		if p, action, _, ok := engine.FirstUnasked(st); ok && p.Seat == e.Seat && action == e.Action {
			out[v] = true
		}
		if _, err := st.Apply(e.Seat, e.Action); err != nil {
			t.Fatalf("game %d: entry %d does not replay: %v", g.ID, v, err)
		}
	}
	return out
}

// checkTheRun reads every game back and checks the run's promises: no
// acknowledged action lost or applied twice, every deadline fired once,
// every board showing its game's state.
func checkTheRun(t *testing.T, st store, fake *discordtest.Server, tgs []*testGame, killedAt time.Time) {
	t.Helper()
	var acked, standIns, notices int
	for _, g := range tgs {
		rec, err := st.GetByID(context.Background(), g.id)
		if err != nil {
			t.Errorf("game in %s: %v", g.channel, err)
			continue
		}
		log := rec.Log
		byVersion := map[int]sent{}
		for _, s := range g.sends {
			byVersion[s.version] = s
			if !s.acked {
				continue
			}
			acked++
			if s.version >= len(log) || int(log[s.version].Seat) != s.seat || log[s.version].Action != s.action {
				t.Errorf("game in %s: the acknowledged %q of seat %d at version %d is not in the log", g.channel, s.action, s.seat, s.version)
			}
		}
		for _, s := range g.dms {
			if !s.acked {
				continue
			}
			acked++
			found := 0
			for _, e := range log[min(s.version, len(log)):] {
				if int(e.Seat) == s.seat && e.Action == s.action {
					found++
				}
			}
			if found == 0 {
				t.Errorf("game in %s: the acknowledged DM %q of seat %d is not in the log", g.channel, s.action, s.seat)
			}
		}
		checkBoard(t, fake, rec)
		if g.kind != "eightydays" {
			continue
		}
		// 80 Days has one player to move: every entry not sent by the test
		// and not given without asking is a computer's move at a deadline,
		// which comes a whole turn after the move before it; a deadline
		// handled twice would put two moves within a turn
		unasked := unaskedEntries(t, rec)
		mine := 0
		for v := 1; v < len(log); v++ {
			if s, ok := byVersion[v]; ok && int(log[v].Seat) == s.seat && log[v].Action == s.action || unasked[v] {
				continue
			}
			mine++
			// a seat the computer keeps after missed deadlines in a row
			// moves at once, at no deadline
			if gap := log[v].At.Sub(log[v-1].At); gap < turnLimit-100*time.Millisecond && !keptByComputer(rec, log[v].Seat, v) {
				t.Errorf("game in %s: a computer move at version %d came %v after the move before it, before its deadline (%v)", g.channel, v, gap, turnLimit)
			}
		}
		posted := 0
		for _, m := range fake.ChannelMessages(g.channel) {
			if strings.Contains(m.Content, "deadline passed") {
				posted++
			}
		}
		if posted > mine+1 { // +1: the first move may have been a computer's
			t.Errorf("game in %s: %d deadline notices for %d computer moves", g.channel, posted, mine)
		}
		standIns += mine
		notices += posted
	}
	t.Logf("%d acknowledged actions all in the logs once; %d computer moves at deadlines, %d notices; process 1 killed at %s",
		acked, standIns, notices, killedAt.Format(time.TimeOnly))
	if acked == 0 || standIns == 0 {
		t.Errorf("the run shows nothing: %d acknowledged actions, %d deadlines", acked, standIns)
	}
}

// checkBoard checks that the board message of a running game offers
// actions for the game's current version only.
func checkBoard(t *testing.T, fake *discordtest.Server, rec *storage.Game) {
	t.Helper()
	if rec.Status != storage.StatusRunning {
		return
	}
	m, ok := fake.Message(rec.Messages["board"])
	if !ok {
		t.Errorf("game %d: no board message", rec.ID)
		return
	}
	want := fmt.Sprintf("m2:%s:%s:", strconv.FormatUint(rec.ID, 36), strconv.FormatUint(rec.Revision, 36))
	for _, id := range discordtest.CustomIDs(m.Components) {
		if strings.Contains(id, ":act:") || strings.Contains(id, ":pick:") {
			if !strings.HasPrefix(id, want) {
				t.Errorf("game %d at version %d: its board offers %s", rec.ID, rec.Version, id)
			}
		}
	}
}

// keptByComputer reports whether a computer kept seat of g at version v,
// its player having missed deadlines in a row: the seat's last hand-over
// by then was such a lapse.
func keptByComputer(g *storage.Game, seat engine.Seat, v int) bool {
	lapsed := false
	for _, h := range g.Handovers {
		if h.Seat == seat && h.Version <= v {
			lapsed = h.Lapsed
		}
	}
	return lapsed
}
