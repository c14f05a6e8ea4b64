package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// BenchmarkClicks plays 100 concurrent 4-player Crystal Palace games with
// images on, 100 interactions a second, as players do: each interaction is
// a game's next decision made on its board (a button, a select menu, or
// the secret form's answer), or with /play when the board offers no
// component for it (the private picker's actions). It reports:
//
//   - ack-p50-ms, ack-p99-ms: from the interaction reaching the bot to
//     Discord receiving its initial response (the acknowledgement);
//   - board-p50-ms, board-p99-ms: from a decision reaching the bot to
//     Discord receiving a board of its game that shows a later version
//     (an edit, or a new board after a phase: the click to the new board
//     visible), over the decisions the game took;
//   - rest/decision, and by route: the bot-token REST calls per decision
//     the games took (interaction answers and webhooks are not counted).
//
// "spread" sends the interactions round robin over the games (one a second
// for each game); "burst" sends four in a row to one game, so that a game's
// four players act within the same 40 ms in one channel (where secret
// choices are simultaneous, each player makes theirs; otherwise all but
// one are refused as out of date, as when four people click at once).
// "thinking" is "spread" while 20 more games, each of two strong computers
// at their default budget, keep the thinker busy from start to end.
func BenchmarkClicks(b *testing.B) {
	for _, mode := range []struct {
		name            string
		burst, thinking int
	}{{"spread", 1, 0}, {"burst", 4, 0}, {"thinking", 1, 20}} {
		b.Run(mode.name, func(b *testing.B) { benchmarkClicks(b, mode.burst, mode.thinking) })
	}
}

func benchmarkClicks(b *testing.B, burst, thinking int) {
	reg := realRegistry(b)
	cfg := Config{Images: true}
	if thinking > 0 {
		cfg.Think = time.Second
	}
	h := newHarness(b, reg, cfg, realRenderer(b), nil)
	chans := benchTables(b, h, "crystalpalace", 4)
	computerTables(b, h, thinking)
	rules, _ := reg.Lookup("crystalpalace")
	player, _ := ai.Lookup(rules, "heuristic")
	users := map[string]tester{alice.ID: alice, bob.ID: bob, carol.ID: carol, dave.ID: dave}
	rng := engine.NewRNG(1)
	cl := newClickLatencies()
	versions := map[string]int{}
	for _, ch := range chans {
		g := h.game(ch)
		versions[ch] = g.Version
		cl.game[ch] = g.ID
	}
	h.fake.Watch(cl.watch)
	tick := time.NewTicker(time.Second / benchRate)
	defer tick.Stop()
	var wg sync.WaitGroup
	began := time.Now()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		<-tick.C
		ch := chans[(n/burst)%len(chans)]
		raw, v, ok := clickFor(b, h, ch, n%burst, player, &rng, users)
		if !ok {
			continue // that game is over
		}
		token := fmt.Sprintf("click%d", n)
		raw["id"], raw["token"], raw["application_id"], raw["version"] = fmt.Sprint(800000+n), token, testApp, 1
		data, _ := json.Marshal(raw)
		var i discordgo.Interaction
		if err := json.Unmarshal(data, &i); err != nil {
			b.Fatal(err)
		}
		message := ""
		if i.Message != nil {
			message = i.Message.ID
		}
		h.fake.StartInteraction(token, message)
		h.fake.InteractionChannel(token, ch)
		cl.sent(token, ch, v, i.Type)
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.bot.HandleInteraction(context.Background(), &i)
		}()
	}
	wg.Wait()
	b.StopTimer()
	h.bot.think.Close() // the computers' games would keep it busy for ever
	h.bot.Wait()
	cl.report(b)
	decisions := 0
	for _, ch := range chans {
		if g, err := h.store.GetByID(context.Background(), cl.game[ch]); err == nil {
			decisions += g.Version - versions[ch]
		}
	}
	reportRESTCalls(b, h, began, decisions)
	checkBoards(b, h, chans)
}

// clickFor makes the interaction for one decision of ch's game: the
// prompt's decision (the which-th open prompt, for a burst) made on the
// board when the board shows the game's current version, else by /play.
// It returns the version the decision was made at.
func clickFor(b *testing.B, h *harness, ch string, which int, player engine.Player, rng *engine.RNG, users map[string]tester) (map[string]any, int, bool) {
	g, st, err := h.store.Load(context.Background(), ch)
	if err != nil || len(st.Prompts()) == 0 {
		return nil, 0, false
	}
	prompts := st.Prompts()
	p := prompts[which%len(prompts)]
	u := users[g.Seats[p.Seat].User]
	action := player.Choose(st, p, rng)
	board, ok := h.fake.Message(g.Messages[roleBoard])
	current := ok && strings.Contains(discordtest.MessageText(board), fmt.Sprintf("version %d ", g.Version))
	play := guildCommand(u, ch, cmdPlay, "", []map[string]any{{"name": optAction, "type": 3, "value": action}})
	if !current || !slices.Contains(p.Actions, action) {
		return play, g.Version, true
	}
	component := func(id string, values ...string) map[string]any {
		data := map[string]any{"custom_id": id, "component_type": 2}
		if values != nil {
			data["component_type"], data["values"] = 3, values
		}
		raw := map[string]any{"type": 3, "data": data, "message": h.messageJSON(board.ID, ch)}
		h.place(raw, u, ch)
		return raw
	}
	switch {
	case p.Secret:
		// the form opened by the board's secret button, answered
		id := componentID(g.Guard(), verbModal, "")
		raw := map[string]any{"type": 5, "message": h.messageJSON(board.ID, ch), "data": map[string]any{"custom_id": id, "components": []any{
			map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": modalInput, "value": action}}},
		}}}
		h.place(raw, u, ch)
		return raw, g.Version, true
	}
	if id, ok := componentOn(b, board, action); ok && strings.Contains(id, ":act:") {
		return component(id), g.Version, true
	}
	if id, ok := componentOn(b, board, u.Name+": "); ok && !strings.Contains(id, ":tree:") {
		if c, err := parseCustomID(id); err == nil && c.Arg == strconv.Itoa(int(p.Seat)) {
			return component(id, action), g.Version, true
		}
	}
	return play, g.Version, true
}

// clickLatencies times, per interaction, its acknowledgement and the
// first board of its game showing a later version than it was made at.
type clickLatencies struct {
	mu      sync.Mutex
	game    map[string]uint64 // channel → game id
	start   map[string]time.Time
	ack     map[string]time.Duration
	board   map[string]time.Duration
	refused map[string]bool
	command map[string]bool           // a /play, whose @original is its private answer
	pending map[uint64][]pendingClick // by game id
}

type pendingClick struct {
	token   string
	version int
}

func newClickLatencies() *clickLatencies {
	return &clickLatencies{game: map[string]uint64{}, start: map[string]time.Time{}, ack: map[string]time.Duration{},
		board: map[string]time.Duration{}, refused: map[string]bool{}, command: map[string]bool{}, pending: map[uint64][]pendingClick{}}
}

func (c *clickLatencies) sent(token, ch string, version int, kind discordgo.InteractionType) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start[token] = time.Now()
	c.command[token] = kind == discordgo.InteractionApplicationCommand
	id := c.game[ch]
	c.pending[id] = append(c.pending[id], pendingClick{token, version})
}

// boardVersion finds a board's game and version in its footer.
var boardVersion = regexp.MustCompile(`Game #(\d+) · version (\d+) `)

func (c *clickLatencies) watch(q discordtest.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.start[q.Token]; ok {
		if _, done := c.ack[q.Token]; !done && q.Kind == discordtest.Callback {
			c.ack[q.Token] = q.At.Sub(s)
		}
		// a refusal is a private message (the initial response, the fill
		// of /play's private acknowledgement, or a click's ephemeral
		// follow-up) that is not "you played"; a click's edit of the
		// board it was on is public
		private := q.Kind == discordtest.Callback && q.Type == discordgo.InteractionResponseChannelMessageWithSource ||
			q.Kind == discordtest.Followup && q.Ephemeral() ||
			q.Kind == discordtest.OriginalEdit && c.command[q.Token]
		if private && !strings.Contains(q.Text(), "you played") {
			c.refused[q.Token] = true
		}
	}
	switch q.Kind {
	case discordtest.Callback, discordtest.OriginalEdit, discordtest.FollowupEdit, discordtest.Followup, discordtest.ChannelSend, discordtest.MessageEdit:
	default:
		return
	}
	if q.Ephemeral() || q.Status >= 300 {
		return
	}
	m := boardVersion.FindStringSubmatch(q.Text())
	if m == nil {
		return
	}
	id, _ := strconv.ParseUint(m[1], 10, 64)
	v, _ := strconv.Atoi(m[2])
	kept := c.pending[id][:0]
	for _, p := range c.pending[id] {
		if p.version < v {
			c.board[p.token] = q.At.Sub(c.start[p.token])
			continue
		}
		kept = append(kept, p)
	}
	c.pending[id] = kept
}

func (c *clickLatencies) report(b *testing.B) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var acks, boards []time.Duration
	for tok := range c.start {
		a, ok := c.ack[tok]
		if !ok {
			b.Fatalf("interaction %s was never acknowledged", tok)
		}
		acks = append(acks, a)
		if c.refused[tok] {
			continue
		}
		if d, ok := c.board[tok]; ok {
			boards = append(boards, d)
		}
	}
	pct := func(d []time.Duration, p float64) float64 {
		if len(d) == 0 {
			return 0
		}
		slices.Sort(d)
		return float64(d[int(p*float64(len(d)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(acks, 0.50), "ack-p50-ms")
	b.ReportMetric(pct(acks, 0.99), "ack-p99-ms")
	b.ReportMetric(pct(boards, 0.50), "board-p50-ms")
	b.ReportMetric(pct(boards, 0.99), "board-p99-ms")
	b.ReportMetric(float64(len(c.refused))/float64(max(1, len(c.start))), "refused/op")
}

// reportRESTCalls reports the bot-token REST calls made since began per
// decision taken, in all and by route.
func reportRESTCalls(b *testing.B, h *harness, began time.Time, decisions int) {
	if decisions == 0 {
		return
	}
	calls, byKind := 0, map[discordtest.Kind]int{}
	for _, q := range h.fake.Requests() {
		if q.At.After(began) && botTokenCall(q) {
			calls++
			byKind[q.Kind]++
		}
	}
	b.ReportMetric(float64(calls)/float64(decisions), "rest/decision")
	for k, n := range byKind {
		b.ReportMetric(float64(n)/float64(decisions), string(k)+"/decision")
	}
	b.ReportMetric(float64(decisions), "decisions")
}

// computerTables starts n 80 Days games of two strong computers each: they
// play on by themselves, one decision after another, in the thinker.
func computerTables(b *testing.B, h *harness, n int) {
	for k := range n {
		ch := fmt.Sprint(70000 + k)
		lobby := &storage.Game{Kind: "eightydays", Guild: testGuild, Channel: ch, Creator: alice.ID, Status: storage.StatusLobby,
			Setup: engine.Setup{Players: 2, Seed: uint64(k + 1)},
			Seats: []storage.Seat{{Computer: "strong", Name: "Computer 1"}, {Computer: "strong", Name: "Computer 2"}}}
		if err := h.store.Create(context.Background(), lobby); err != nil {
			b.Fatal(err)
		}
		lobby, err := h.store.Get(context.Background(), ch)
		if err != nil {
			b.Fatal(err)
		}
		ref := h.bot.timers.ref
		if err := h.bot.timers.locks.With(ch, func() error {
			_, err := ref.Start(context.Background(), lobby, nil)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}
