package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

const (
	testApp   = "9000"
	testGuild = "7000"
)

// tester is a simulated Discord user.
type tester struct {
	ID, Name string
	Admin    bool
}

var (
	alice = tester{ID: "101", Name: "Alice"}
	bob   = tester{ID: "102", Name: "Bob"}
	carol = tester{ID: "103", Name: "Carol"}
	dave  = tester{ID: "104", Name: "Dave"}
	eve   = tester{ID: "105", Name: "Eve"} // never seated: a spectator
	admin = tester{ID: "199", Name: "Admin", Admin: true}
)

// harness runs a real Bot on a real bbolt file against a fake Discord.
type harness struct {
	t     testing.TB
	fake  *discordtest.Server
	reg   *engine.Registry
	path  string
	store *boltdb.Store
	bot   *Bot
	clock *discordtest.Clock
	// realTimers: the bot's timers and the fake's response windows run on
	// real time (in benchmarks), not on clock
	realTimers bool
	cfg        Config
	render     Renderer
	text       Presenter
	next       atomic.Int64
	seeds      atomic.Int64 // the seed of the next game, counting from 1
	dmMu       sync.Mutex
	inDM       map[string]bool // tokens of interactions in DMs: private by nature
	logs       *strings.Builder
	logMu      *sync.Mutex
	// run, when set, is a Bot.Run serving the bot through the fake's
	// gateway: interactions and DMs then arrive over the websocket.
	run *gatewayRun
	// web, when set, is an HTTP interactions endpoint serving the bot:
	// interactions then arrive as signed POSTs (endpoint_e2e_test.go)
	web *endpointRun
	// guild is the guild interactions come from; "" means testGuild.
	guild string
	// wrap, when set, wraps the store the bot is given (counting or
	// failing its writes); h.store stays the real one.
	wrap func(Store) Store
	// locale and guildLocale, when set, are the locales interactions
	// carry: the user's Discord client's and the server's.
	locale, guildLocale string
	// step, when set, is told each decision playWholeGame makes: the
	// state before it, its prompt and the action.
	step func(st engine.State, p engine.Prompt, action string)
	// catalogue is what say reads (made on first use)
	catalogue     *locale.Catalogue
	catalogueOnce sync.Once
	// session, when set, makes the bot's Discord session (one that talks
	// to the fake through a REST proxy); nil means h.fake.NewSession.
	session func() *discordgo.Session
	// unanswered, when set, lets an interaction go without any request
	// reaching the fake (its sends failed before they left)
	unanswered bool
}

// say is message id of the catalogue in the harness's language (its
// locale; English when unset).
func (h *harness) say(id string, args ...any) string {
	h.catalogueOnce.Do(func() { h.catalogue = testWords(h.t) })
	return h.catalogue.For(h.locale).T(id, args...)
}

// guildID is the guild the harness's interactions come from.
func (h *harness) guildID() string { return cmp.Or(h.guild, testGuild) }

func newHarness(t testing.TB, reg *engine.Registry, cfg Config, render Renderer, text Presenter) *harness {
	t.Helper()
	// one clock, moved by hand, for the fake's response windows and
	// tokens and for the bot's time and timers; a benchmark measures real
	// time, so there the fake's windows and the bot's timers run on it
	clock := discordtest.NewClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	_, bench := t.(*testing.B)
	if cfg.Think == 0 {
		cfg.Think = 20 * time.Millisecond // searching computers think briefly in tests
	}
	opts := discordtest.Options{Now: clock.Now}
	if bench {
		opts.Now = nil
	}
	h := &harness{
		t: t, fake: discordtest.NewServer(opts), reg: reg, path: filepath.Join(t.TempDir(), "meeple.db"),
		clock: clock, realTimers: bench, cfg: cfg, render: render, text: text,
		logs: &strings.Builder{}, logMu: &sync.Mutex{},
	}
	t.Cleanup(h.fake.Close)
	t.Cleanup(func() {
		for _, v := range h.fake.Violations() {
			t.Errorf("Discord would refuse: %v", v)
		}
	})
	h.open()
	t.Cleanup(h.close)
	return h
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (h *harness) open() {
	h.t.Helper()
	st, err := boltdb.Open(h.path, h.reg, boltdb.Options{Now: h.clock.Now})
	if err != nil {
		h.t.Fatal(err)
	}
	cfg := h.cfg
	cfg.AppID = testApp
	cfg.Now, cfg.AfterFunc = h.clock.Now, h.clock.AfterFunc
	if h.realTimers {
		cfg.AfterFunc = nil
	}
	if cfg.NewSeed == nil {
		cfg.NewSeed = func() (uint64, error) { return uint64(h.seeds.Add(1)), nil }
	}
	cfg.Logger = slog.New(slog.NewTextHandler(lockedWriter{h.logMu, h.logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var bs Store = st
	if h.wrap != nil {
		bs = h.wrap(st)
	}
	session := h.fake.NewSession
	if h.session != nil {
		session = h.session
	}
	b, err := New(Parts{Session: session(), Store: bs, Games: h.reg, Renderer: h.render, Text: h.text, Words: testWords(h.t)}, cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.store, h.bot = st, b
}

func (h *harness) close() {
	if h.bot == nil {
		return
	}
	h.bot.Close()
	if err := h.store.Close(); err != nil {
		h.t.Error(err)
	}
	h.bot, h.store = nil, nil
}

// restart stops the bot and the store and starts new ones on the same file.
func (h *harness) restart() {
	h.close()
	h.open()
}

func (h *harness) log() string {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	return h.logs.String()
}

// result is everything Discord received while answering one interaction.
type result struct {
	Token    string
	Requests []discordtest.Request
	// privateOriginal: the interaction's @original is ephemeral (a
	// private answer, deferred or not, or a private message a component
	// was on), so that its edits are private too
	privateOriginal bool
}

// text joins what the user reads in the answer.
func (r result) text() string {
	var parts []string
	for _, q := range r.Requests {
		parts = append(parts, q.Text())
	}
	return strings.Join(parts, "\n")
}

// private reports whether every message of the answer was ephemeral.
func (r result) private() bool {
	for _, q := range r.Requests {
		if r.shows(q) && !r.ephemeral(q) {
			return false
		}
	}
	return true
}

// privately reports whether some message of the answer says s, and every
// one that does is ephemeral: a public board may follow a private answer.
func (r result) privately(s string) bool {
	return r.privatelyMatching(func(text string) bool { return strings.Contains(text, s) })
}

// privatelySays is privately for message id of the catalogue, read as
// h.says reads it.
func (r result) privatelySays(h *harness, id string, args ...any) bool {
	return r.privatelyMatching(func(text string) bool { return h.says(text, id, args...) })
}

// privatelyMatching is privately for the messages that match.
func (r result) privatelyMatching(match func(text string) bool) bool {
	found := false
	for _, q := range r.Requests {
		if r.shows(q) && match(q.Text()) {
			if !r.ephemeral(q) {
				return false
			}
			found = true
		}
	}
	return found
}

// shows reports whether q shows people a message (not a silent
// acknowledgement, a form or a list of choices).
func (r result) shows(q discordtest.Request) bool {
	switch q.Kind {
	case discordtest.Callback:
		return q.Type == discordgo.InteractionResponseChannelMessageWithSource || q.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			q.Type == discordgo.InteractionResponseUpdateMessage
	case discordtest.Followup, discordtest.OriginalEdit:
		return true
	}
	return false
}

// ephemeral reports whether q's message is seen by its user alone.
func (r result) ephemeral(q discordtest.Request) bool {
	switch {
	case q.Kind == discordtest.OriginalEdit, q.Kind == discordtest.Callback && q.Type == discordgo.InteractionResponseUpdateMessage:
		return r.privateOriginal
	}
	return q.Ephemeral()
}

// privateMessage is the id of the private message the answer showed: its
// last ephemeral follow-up (the answer to a click acknowledged at once),
// else its @original.
func (h *harness) privateMessage(res result) (string, bool) {
	for n := len(res.Requests) - 1; n >= 0; n-- {
		if q := res.Requests[n]; q.Kind == discordtest.Followup && q.Ephemeral() && q.Status < 300 {
			return q.Message, true
		}
	}
	return h.fake.Original(res.Token)
}

// updated reports whether the answer changed the message the component
// was on: a deferred update, then an edit of that message (or, when
// the acknowledgement failed, an update as the initial response).
func (r result) updated() bool {
	switch r.callbackType() {
	case discordgo.InteractionResponseUpdateMessage:
		return true
	case discordgo.InteractionResponseDeferredMessageUpdate:
		for _, q := range r.Requests {
			if q.Kind == discordtest.OriginalEdit && q.Status < 300 {
				return true
			}
		}
	}
	return false
}

func (r result) callbackType() discordgo.InteractionResponseType {
	for _, q := range r.Requests {
		if q.Kind == discordtest.Callback {
			return q.Type
		}
	}
	return 0
}

// interaction gives raw an id, a token and the application, and the
// harness's locales, and starts its token at the fake: the interaction
// as Discord would deliver it.
func (h *harness) interaction(raw map[string]any) (*discordgo.Interaction, string) {
	h.t.Helper()
	n := h.next.Add(1)
	token := fmt.Sprintf("tok%d", n)
	raw["id"], raw["token"], raw["application_id"], raw["version"] = fmt.Sprint(500000+n), token, testApp, 1
	if h.locale != "" {
		raw["locale"] = h.locale
	}
	if _, inGuild := raw["guild_id"]; inGuild && h.guildLocale != "" {
		raw["guild_locale"] = h.guildLocale
	}
	data, err := json.Marshal(raw)
	if err != nil {
		h.t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(data, &i); err != nil {
		h.t.Fatalf("decoding interaction: %v", err)
	}
	message := ""
	if i.Message != nil {
		message = i.Message.ID
	}
	h.fake.StartInteraction(token, message)
	h.fake.InteractionChannel(token, i.ChannelID)
	if i.GuildID == "" {
		h.dmMu.Lock()
		if h.inDM == nil {
			h.inDM = map[string]bool{}
		}
		h.inDM[token] = true
		h.dmMu.Unlock()
	}
	return &i, token
}

// send feeds an interaction, given as Discord would send its JSON, to the
// bot and returns what the fake recorded under its token.
func (h *harness) send(raw map[string]any) result {
	h.t.Helper()
	i, token := h.interaction(raw)
	switch {
	case h.web != nil:
		h.web.interaction(h, raw)
	case h.run != nil:
		h.run.interaction(h, raw, token)
	default:
		h.bot.HandleInteraction(requestContext(), i)
	}
	// what the interaction set off is delivered through it after it was
	// answered (the publisher's work): wait for that too
	h.bot.Wait()
	var out []discordtest.Request
	for _, q := range h.fake.Requests() {
		if q.Token == token {
			out = append(out, q)
		}
	}
	if len(out) == 0 && !h.unanswered {
		h.t.Fatalf("interaction %v got no answer", raw["data"])
	}
	res := result{Token: token, Requests: out}
	for _, q := range out {
		res.privateOriginal = res.privateOriginal || q.Kind == discordtest.Callback && q.Ephemeral()
	}
	if id, ok := h.fake.Original(token); ok {
		m, ok := h.fake.Message(id)
		res.privateOriginal = res.privateOriginal || ok && m.Flags&discordgo.MessageFlagsEphemeral != 0
	}
	if i.GuildID == "" {
		res.privateOriginal = true // a DM is private by nature
	}
	return res
}

func (u tester) member() map[string]any {
	perms := "0"
	if u.Admin {
		perms = fmt.Sprint(discordgo.PermissionManageChannels)
	}
	return map[string]any{"user": map[string]any{"id": u.ID, "username": strings.ToLower(u.Name), "global_name": u.Name}, "nick": u.Name, "permissions": perms}
}

// command runs /name [sub] with options (name → value).
func (h *harness) command(u tester, channel, name, sub string, opts map[string]any) result {
	h.t.Helper()
	options := optionList(opts, false, "")
	if sub != "" {
		options = []map[string]any{{"name": sub, "type": 1, "options": options}}
	}
	return h.send(map[string]any{
		"type": 2, "guild_id": h.guildID(), "channel_id": channel, "member": u.member(),
		"data": map[string]any{"id": "1", "name": name, "type": 1, "options": options},
	})
}

func optionList(opts map[string]any, autocomplete bool, focus string) []map[string]any {
	out := []map[string]any{}
	for k, v := range opts {
		typ := 3
		switch v.(type) {
		case int:
			typ = 4
		case bool:
			typ = 5
		}
		o := map[string]any{"name": k, "type": typ, "value": v}
		if autocomplete && k == focus {
			o["focused"] = true
		}
		out = append(out, o)
	}
	return out
}

// autocomplete asks for suggestions while u types typed into option focus.
func (h *harness) autocomplete(u tester, channel, name, sub string, opts map[string]any, focus string) []string {
	h.t.Helper()
	options := optionList(opts, true, focus)
	if sub != "" {
		options = []map[string]any{{"name": sub, "type": 1, "options": options}}
	}
	res := h.send(map[string]any{
		"type": 4, "guild_id": h.guildID(), "channel_id": channel, "member": u.member(),
		"data": map[string]any{"id": "1", "name": name, "type": 1, "options": options},
	})
	var out []string
	for _, q := range res.Requests {
		for _, c := range q.Choices {
			out = append(out, c.Name)
		}
	}
	return out
}

// click uses the component with customID on message (in a guild channel, or
// in u's DM when channel is "").
func (h *harness) click(u tester, channel, message, customID string, values ...string) result {
	h.t.Helper()
	data := map[string]any{"custom_id": customID, "component_type": 2}
	if values != nil {
		data["component_type"], data["values"] = 3, values
	}
	raw := map[string]any{"type": 3, "data": data, "message": h.messageJSON(message, channel)}
	h.place(raw, u, channel)
	return h.send(raw)
}

// messageJSON is the message a component is on, as Discord sends it with
// the interaction: its latest content as the fake knows it.
func (h *harness) messageJSON(id, channel string) map[string]any {
	out := map[string]any{}
	if m, ok := h.fake.Message(id); ok {
		data, err := json.Marshal(m)
		if err != nil {
			h.t.Fatal(err)
		}
		if err := json.Unmarshal(data, &out); err != nil {
			h.t.Fatal(err)
		}
	}
	out["id"], out["channel_id"] = id, channel
	return out
}

// submit sends a modal form with text in its one input.
func (h *harness) submit(u tester, channel, customID, text string) result {
	h.t.Helper()
	raw := map[string]any{"type": 5, "data": map[string]any{"custom_id": customID, "components": []any{
		map[string]any{"type": 1, "components": []any{map[string]any{"type": 4, "custom_id": modalInput, "value": text}}},
	}}}
	// the form opens from the board's button, so Discord sends the board along
	if g, err := h.store.Get(context.Background(), channel); err == nil && g.Messages[roleBoard] != "" {
		raw["message"] = h.messageJSON(g.Messages[roleBoard], channel)
	}
	h.place(raw, u, channel)
	return h.send(raw)
}

func (h *harness) place(raw map[string]any, u tester, channel string) {
	if channel == "" {
		raw["channel_id"], raw["user"] = "dm"+u.ID, map[string]any{"id": u.ID, "username": strings.ToLower(u.Name)}
		raw["message"].(map[string]any)["channel_id"] = "dm" + u.ID
		return
	}
	raw["guild_id"], raw["channel_id"], raw["member"] = h.guildID(), channel, u.member()
}

// dm sends the bot a direct message from u and returns the bot's DM answers.
func (h *harness) dm(u tester, text string) []discordtest.Request {
	h.t.Helper()
	before := len(h.fake.Requests())
	m := &discordgo.Message{ID: fmt.Sprint(h.next.Add(1)), ChannelID: "dm" + u.ID, Content: text,
		Author: &discordgo.User{ID: u.ID, Username: strings.ToLower(u.Name)}}
	if h.run != nil {
		h.run.message(h, m, before)
	} else {
		h.bot.HandleDM(requestContext(), m)
	}
	h.bot.Wait()
	var out []discordtest.Request
	for _, q := range h.fake.Requests()[before:] {
		if q.Kind == discordtest.DirectMessage && q.User == u.ID {
			out = append(out, q)
		}
	}
	return out
}

// game returns the channel's active game record.
func (h *harness) game(channel string) *storage.Game {
	h.t.Helper()
	g, err := h.store.Get(context.Background(), channel)
	if err != nil {
		h.t.Fatalf("game in %s: %v", channel, err)
	}
	return g
}

// board returns the channel's current board message, after every update
// under way has been sent; it must be a turn card (Components V2).
func (h *harness) board(channel string) *discordgo.Message {
	h.t.Helper()
	h.bot.Wait()
	id := h.game(channel).Messages[roleBoard]
	m, ok := h.fake.Message(id)
	if !ok {
		h.t.Fatalf("no board message %q in %s", id, channel)
	}
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || m.Content != "" || len(m.Embeds) > 0 {
		h.t.Errorf("board %s is no turn card: flags %b, content %q, %d embeds", id, m.Flags, m.Content, len(m.Embeds))
	}
	return m
}

// componentOn finds on m the custom_id of the component whose label (or,
// for a select menu, placeholder) contains label.
func componentOn(t testing.TB, m *discordgo.Message, label string) (string, bool) {
	t.Helper()
	for _, ar := range discordtest.Rows(m.Components) {
		for _, c := range ar.Components {
			switch c := c.(type) {
			case *discordgo.Button:
				if strings.Contains(c.Label, label) {
					return c.CustomID, true
				}
			case *discordgo.SelectMenu:
				if strings.Contains(c.Placeholder, label) {
					return c.CustomID, true
				}
			}
		}
	}
	return "", false
}

func mustComponent(t testing.TB, m *discordgo.Message, label string) string {
	t.Helper()
	id, ok := componentOn(t, m, label)
	if !ok {
		t.Fatalf("no component %q on message %s: %s", label, m.ID, discordtest.MessageText(m))
	}
	return id
}

// advanceThrough moves the clock through each pause in turn as the bot
// comes to wait for it (a timer due that long from now is set), from
// another goroutine; the function it returns waits until it is done.
func (h *harness) advanceThrough(pauses ...time.Duration) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, d := range pauses {
			h.clock.WaitForTimer(d)
			h.clock.Advance(d)
		}
	}()
	return func() { <-done }
}

func (h *harness) mark() int {
	h.bot.Wait()
	return len(h.fake.Requests())
}

// publicText is everything sent to channel's public messages since mark:
// channel posts, edits, and non-ephemeral interaction answers.
func (h *harness) publicSince(mark int) string {
	h.bot.Wait()
	all := h.fake.Requests()
	private := map[string]bool{} // interaction tokens whose @original is ephemeral or in a DM
	inDM := map[string]bool{}    // a DM's follow-ups are private too; elsewhere their own flag says
	h.dmMu.Lock()
	for tok := range h.inDM {
		private[tok], inDM[tok] = true, true
	}
	h.dmMu.Unlock()
	for _, q := range all {
		if q.Kind != discordtest.Callback {
			continue
		}
		// the fake keeps an updated message ephemeral, as Discord does
		id, _ := h.fake.Original(q.Token)
		if m, ok := h.fake.Message(id); q.Ephemeral() || ok && m.Flags&discordgo.MessageFlagsEphemeral != 0 {
			private[q.Token] = true
		}
	}
	var parts []string
	for _, q := range all[mark:] {
		switch q.Kind {
		case discordtest.ChannelSend, discordtest.MessageEdit:
			parts = append(parts, q.Text())
		case discordtest.Callback:
			if !q.Ephemeral() && !private[q.Token] && q.Type != discordgo.InteractionResponseModal && q.Type != discordgo.InteractionApplicationCommandAutocompleteResult {
				parts = append(parts, q.Text())
			}
		case discordtest.Followup:
			if !q.Ephemeral() && !inDM[q.Token] {
				parts = append(parts, q.Text())
			}
		case discordtest.OriginalEdit:
			if !private[q.Token] {
				parts = append(parts, q.Text())
			}
		}
	}
	return strings.Join(parts, "\n")
}

func tinyRegistry() *engine.Registry { return engine.NewRegistry(tinyRules{}) }
