package bot

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// Roles of the messages a game keeps in storage.Game.Messages.
const (
	roleLobby = "lobby"              // the lobby message
	roleBoard = storage.BoardMessage // the public board message, edited after every action
	rolePhase = "phase"              // the tag of the phase the board image was last posted for (roundTag)
	roleShown = "shown"              // the revision the board shows, in decimal (repair.go)
)

// setMessage keeps id under role in g's messages.
func setMessage(g *storage.Game, role, id string) {
	if g.Messages == nil {
		g.Messages = map[string]string{}
	}
	g.Messages[role] = id
}

// lobbyHandler opens lobbies, seats players and computer players, starts
// games and abandons them: /lobby and the lobby message's buttons.
type lobbyHandler struct {
	store gameStore
	lists interface {
		ListActive(ctx context.Context, guild string) ([]*storage.Game, error)
	}
	settings interface {
		GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
	}
	games *engine.Registry
	locks *table.Locks
	ref   *table.Referee
	tally *tallies
	pub   *publisher
	send  *transport.Sender
	cfg   *Config
	log   *slog.Logger
}

func (lh *lobbyHandler) register(rt *router) error {
	return errors.Join(
		rt.command(cmdLobby, lh.lobbyCommand, lh.suggest),
		rt.component(verbJoin, onButton, inGuild, lh.lobbyButton),
		rt.component(verbLeave, onButton, inGuild, lh.lobbyButton),
		rt.component(verbAddAI, onButton, inGuild, lh.lobbyButton),
		rt.component(verbDropAI, onButton, inGuild, lh.lobbyButton),
		rt.component(verbStart, onButton, inGuild, lh.lobbyButton),
		rt.component(verbAbandon, onButton, inGuild, lh.abandonButton),
		rt.component(verbConfirm, onButton, inGuild, lh.abandonButton),
	)
}

// suggest lists game options for /lobby new and computer players for
// /lobby add-computer.
func (lh *lobbyHandler) suggest(ctx context.Context, in *interaction) []string {
	switch {
	case in.sub == subNew && in.focused.Name == optOptions:
		rules, err := lh.games.Lookup(in.opts.str(optGame))
		if err != nil {
			return nil
		}
		var out []string
		for _, o := range rules.Options() {
			for _, v := range o.Values {
				out = append(out, o.Name+"="+v)
			}
		}
		return out
	case in.sub == subAddAI:
		if rules, err := channelRules(ctx, lh.store, lh.games, in.ChannelID); err == nil {
			return ai.Names(rules)
		}
	}
	return nil
}

func (lh *lobbyHandler) lobbyCommand(ctx context.Context, r *transport.Reply, in *interaction) error {
	sub, opts := in.sub, in.opts
	switch sub {
	case subNew:
		return lh.newLobby(ctx, r, in)
	case subList:
		return lh.listGames(ctx, r, in)
	case subAbandon:
		return lh.askAbandon(ctx, r, in)
	}
	arg := ""
	var v verb
	switch sub {
	case subJoin:
		v = verbJoin
	case subLeave:
		v = verbLeave
	case subAddAI:
		v, arg = verbAddAI, cmp.Or(opts.str(optName), opts.str(optLevel))
	case subDropAI:
		v = verbDropAI
	case subStart:
		v, arg = verbStart, opts.str(optOrder)
	default:
		return refuseWith("refuse.unknown_subcommand", "Name", sub)
	}
	g, note, err := lh.changeLobby(ctx, r, in, v, arg, 0)
	if err != nil {
		return err
	}
	lh.editLobby(ctx, g, v, note, in.publicTr(ctx))
	return r.Message(transport.Message{Content: note.in(in.publicTr(ctx))})
}

// phrase is a message of the catalogue with its arguments, to be written
// once its reader's language is known.
type phrase struct {
	id   string
	args []any
}

func say(id string, args ...any) phrase { return phrase{id: id, args: args} }

// in writes the phrase in p's language.
func (ph phrase) in(p *locale.Printer) string { return p.T(ph.id, ph.args...) }

// lobbyAfter is what the lobby message shows after change v, in p's
// language.
func (lh *lobbyHandler) lobbyAfter(ctx context.Context, g *storage.Game, v verb, note phrase, p *locale.Printer) transport.Message {
	if v == verbStart {
		return transport.Message{Content: note.in(p), Embeds: []*discordgo.MessageEmbed{}, Components: []discordgo.MessageComponent{}}
	}
	return lh.lobbyMessage(ctx, g, p)
}

// editLobby brings the lobby message up to date after change v, in p's
// language.
func (lh *lobbyHandler) editLobby(ctx context.Context, g *storage.Game, v verb, note phrase, p *locale.Printer) {
	if id := g.Messages[roleLobby]; id != "" {
		m := lh.lobbyAfter(ctx, g, v, note, p)
		if err := lh.pub.editKept(g, id, m, nil); err != nil {
			lh.log.Warn("editing the lobby message failed", "game", g.ID, "err", transport.DescribeError(err))
		}
	}
}

// lobbyButton handles the lobby message's buttons by updating that
// message; a lobby button on any other message changes the lobby but
// leaves that message alone.
func (lh *lobbyHandler) lobbyButton(ctx context.Context, r *transport.Reply, in *interaction) error {
	id := in.id
	g, note, err := lh.changeLobby(ctx, r, in, id.Verb, id.Arg, id.Game)
	if err != nil {
		return err
	}
	if lobby := g.Messages[roleLobby]; lobby == "" || in.message == nil || in.message.ID != lobby {
		lh.editLobby(ctx, g, id.Verb, note, in.publicTr(ctx))
		return r.Message(transport.Message{Content: note.in(in.tr), Private: true})
	}
	if err := r.Update(lh.lobbyAfter(ctx, g, id.Verb, note, in.publicTr(ctx))); err != nil {
		return err
	}
	lh.pub.handles.Keep(g.Channel, r, in.message.ID, false, time.Time{}) // later changes by command edit it through this click
	return nil
}

func (lh *lobbyHandler) newLobby(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, opts := in.Interaction, in.opts
	kind := opts.str(optGame)
	rules, err := lh.games.Lookup(kind)
	if err != nil {
		return refuseWith("refuse.unknown_game", "Name", transport.Clip(kind, 40))
	}
	players, fixed := opts.integer(optPlayers)
	if fixed && (players < rules.MinPlayers() || players > rules.MaxPlayers()) {
		return refuseWith("lobby.players_range", "Game", gameTitle(in.tr, rules), "Min", rules.MinPlayers(), "Max", rules.MaxPlayers())
	}
	gameOpts, err := parseGameOptions(rules, gameTitle(in.tr, rules), opts.str(optOptions))
	if err != nil {
		return err
	}
	settings, err := guildSettings(ctx, lh.settings, lh.cfg, i.GuildID)
	if err != nil {
		return err
	}
	deadline, reminder := settings.TurnDeadline, settings.ReminderEvery
	if h, ok := opts.integer(optDeadline); ok {
		deadline = time.Duration(h) * time.Hour
		if reminder > 0 { // reminders stay off where the server turned them off
			reminder = deadline / 4
		}
	}
	onTimeout := lh.cfg.OnDeadline
	if v := opts.str(optDefault); v != "" {
		onTimeout = v
	}
	bank, banked, err := bankTiming(opts, bankMax(settings))
	if err != nil {
		return err
	}
	seed, err := lh.cfg.NewSeed()
	if err != nil {
		return err
	}
	user := userOf(i)
	g := &storage.Game{
		Kind: kind, Guild: i.GuildID, Channel: i.ChannelID, Creator: user.ID, Status: storage.StatusLobby,
		Setup:  engine.Setup{Players: players, Seed: seed, Options: gameOpts},
		Seats:  []storage.Seat{{User: user.ID, Name: displayName(i)}},
		Timing: storage.Timing{TurnDeadline: deadline, ReminderEvery: reminder, OnDeadline: onTimeout},
	}
	if banked {
		// the time a decision earns stands for the time per decision
		// where a game's rules ask for one (an absence's return)
		bank.TurnDeadline, bank.ReminderEvery, bank.OnDeadline = max(bank.BankAdd, time.Hour), reminder, onTimeout
		g.Timing = bank
	}
	g.Hints, _ = opts.boolean(optHints)
	g.MinReliability, _ = opts.integer(optReliable)
	if rejoin, set := opts.boolean(optRejoin); set && !rejoin {
		g.NoRejoin = true
	}
	inThread, set := opts.boolean(optThread)
	if !set {
		inThread = settings.Threads
	}
	if inThread {
		if err := lh.openInThread(ctx, in, g, gameTitle(in.publicTr(ctx), rules)); err != nil {
			return err
		}
	}
	if err := lh.store.Create(ctx, g); err != nil {
		return err
	}
	if inThread {
		return lh.announceThread(ctx, r, in, g, gameTitle(in.publicTr(ctx), rules))
	}
	if err := r.Message(lh.lobbyMessage(ctx, g, in.publicTr(ctx))); err != nil {
		return err
	}
	// remember the lobby message, so that commands can keep it up to date
	m, err := r.Original()
	if err != nil {
		lh.log.Warn("reading the lobby message failed", "game", g.ID, "err", err)
		return nil
	}
	if _, err := lh.store.Update(ctx, g.Channel, g.ID, func(g *storage.Game) error {
		setMessage(g, roleLobby, m.ID)
		return nil
	}); err != nil {
		lh.log.Warn("saving the lobby message id failed", "game", g.ID, "err", err)
	}
	lh.pub.handles.Keep(g.Channel, r, m.ID, false, time.Time{}) // joins by command edit it through this interaction
	return nil
}

// guildSettings returns the guild's settings, with the configured defaults
// standing in for the store's when the admins saved none.
func guildSettings(ctx context.Context, settings interface {
	GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
}, cfg *Config, guild string) (storage.GuildSettings, error) {
	s, err := settings.GuildSettings(ctx, guild)
	if err != nil {
		return s, err
	}
	if !s.Saved {
		s.TurnDeadline, s.ReminderEvery = cfg.Deadline, cfg.Reminder
	}
	return s, nil
}

// parseGameOptions reads "name=value name=value" against the game's
// options; title is the game's title in the asker's language.
func parseGameOptions(rules engine.Rules, title, text string) (map[string]string, error) {
	if text == "" {
		return nil, nil
	}
	known := map[string]engine.Option{}
	var names []string
	for _, o := range rules.Options() {
		known[o.Name] = o
		names = append(names, o.Name)
	}
	out := map[string]string{}
	for _, kv := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, v, ok := strings.Cut(kv, "=")
		o, known := known[k]
		switch {
		case !ok || k == "" || v == "":
			return nil, refuseWith("lobby.option_format", "Example", optionExample(rules))
		case !known && len(names) == 0:
			return nil, refuseWith("lobby.no_options", "Game", title)
		case !known:
			return nil, refuseWith("lobby.no_such_option", "Game", title, "Name", transport.Clip(k, 40), "Options", strings.Join(names, ", "))
		case len(o.Values) > 0 && !slices.Contains(o.Values, v):
			return nil, refuseWith("lobby.option_values", "Name", k, "Values", strings.Join(o.Values, ", "), "Value", transport.Clip(v, 40))
		}
		out[k] = v
	}
	return out, nil
}

func optionExample(rules engine.Rules) string {
	for _, o := range rules.Options() {
		if len(o.Values) > 0 {
			return o.Name + "=" + o.Values[len(o.Values)-1]
		}
	}
	return "name=value"
}

func newSeed() (uint64, error) {
	var buf [8]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return 0, fmt.Errorf("drawing a seed: %w", err)
	}
	return binary.LittleEndian.Uint64(buf[:]), nil
}

// changeLobby performs one lobby change for the interaction's user and
// returns the game after it and a line saying what happened. gameID, when
// not 0, must be the channel's game (a button of another game is refused).
func (lh *lobbyHandler) changeLobby(ctx context.Context, r *transport.Reply, in *interaction, v verb, arg string, gameID uint64) (*storage.Game, phrase, error) {
	i := in.Interaction
	unlock := lh.locks.Lock(i.ChannelID)
	defer unlock()
	g, err := lh.store.Get(ctx, i.ChannelID)
	if err != nil {
		return nil, phrase{}, err
	}
	if gameID != 0 && g.ID != gameID {
		return nil, phrase{}, table.ErrForeign
	}
	if g.Status != storage.StatusLobby {
		return nil, phrase{}, errNoLobby
	}
	rules, err := lh.games.Lookup(g.Kind)
	if err != nil {
		return nil, phrase{}, err
	}
	user, name := userOf(i).ID, displayName(i)
	if v == verbStart {
		return lh.startGame(ctx, r, in, g, rules, arg)
	}
	if v == verbJoin && !slices.ContainsFunc(g.Seats, func(s storage.Seat) bool { return s.User == user }) {
		if err := meetsMinimum(ctx, lh.tally, g, user); err != nil {
			return nil, phrase{}, err
		}
	}
	var note phrase
	g, err = lh.store.Update(ctx, g.Channel, g.ID, func(g *storage.Game) error {
		limit := rules.MaxPlayers()
		if g.Setup.Players > 0 {
			limit = g.Setup.Players
		}
		seated := slices.IndexFunc(g.Seats, func(s storage.Seat) bool { return s.User == user })
		switch v {
		case verbJoin:
			if seated >= 0 {
				return refuseWith("lobby.already_seated")
			}
			if len(g.Seats) >= limit {
				return refuseWith("lobby.table_full", "Count", limit)
			}
			g.Seats = append(g.Seats, storage.Seat{User: user, Name: name})
			note = say("lobby.joined", "Name", name)
		case verbLeave:
			if seated < 0 {
				return refuseWith("lobby.not_seated")
			}
			g.Seats = slices.Delete(g.Seats, seated, seated+1)
			note = say("lobby.left", "Name", name)
		case verbAddAI:
			if seated < 0 && !isAdmin(i) {
				return refuseWith("lobby.add_ai_who")
			}
			if len(g.Seats) >= limit {
				return refuseWith("lobby.table_full", "Count", limit)
			}
			if arg == "" {
				arg = "random" // for a game without levels
				if _, err := ai.Lookup(rules, defaultComputer); err == nil {
					arg = defaultComputer
				}
			}
			if _, err := ai.Lookup(rules, arg); err != nil {
				return refuseWith("lobby.no_such_ai", "Game", gameTitle(in.tr, rules), "Name", transport.Clip(arg, 40), "Names", strings.Join(ai.Names(rules), ", "))
			}
			n := 1
			for _, s := range g.Seats {
				if s.Computer != "" {
					n++
				}
			}
			kind := levelName(in.publicTr(ctx), arg)
			g.Seats = append(g.Seats, storage.Seat{Computer: arg, Name: in.publicTr(ctx).T("lobby.computer_name", "N", n, "Kind", kind)})
			note = say("lobby.ai_added", "Name", name, "Kind", kind)
		case verbDropAI:
			last := -1
			for n, s := range g.Seats {
				if s.Computer != "" {
					last = n
				}
			}
			if last < 0 {
				return refuseWith("lobby.no_ai")
			}
			g.Seats = slices.Delete(g.Seats, last, last+1)
			note = say("lobby.ai_removed", "Name", name)
		default:
			return errUnknownComp
		}
		return nil
	})
	if err != nil {
		return nil, phrase{}, err
	}
	return g, note, nil
}

// startGame orders the seats and starts the game; the lobby lock is held.
func (lh *lobbyHandler) startGame(ctx context.Context, r *transport.Reply, in *interaction, g *storage.Game, rules engine.Rules, order string) (*storage.Game, phrase, error) {
	i := in.Interaction
	user := userOf(i).ID
	if user != g.Creator && !slices.ContainsFunc(g.Seats, func(s storage.Seat) bool { return s.User == user }) && !isAdmin(i) {
		return nil, phrase{}, refuseWith("lobby.start_who")
	}
	n := len(g.Seats)
	title := gameTitle(in.tr, rules)
	switch {
	case g.Setup.Players > 0 && n != g.Setup.Players:
		return nil, phrase{}, refuseWith("lobby.seats_missing", "Seated", n, "Count", g.Setup.Players)
	case n < rules.MinPlayers():
		return nil, phrase{}, refuseWith("lobby.too_few", "Game", title, "Count", rules.MinPlayers(), "Seated", n)
	case n > rules.MaxPlayers():
		return nil, phrase{}, refuseWith("lobby.too_many", "Game", title, "Count", rules.MaxPlayers())
	}
	var shuffle func(g *storage.Game) error
	if order != orderJoin {
		shuffle = func(g *storage.Game) error {
			rng := engine.NewRNG(g.Setup.Seed ^ 0x5ea75)
			rng.Shuffle(len(g.Seats), func(a, c int) { g.Seats[a], g.Seats[c] = g.Seats[c], g.Seats[a] })
			return nil
		}
	}
	res, err := lh.ref.Start(ctx, g, shuffle)
	if res != nil {
		lh.pub.notifyVia(res, r, nil) // the first board follows r's answer publicly
	}
	if err != nil {
		return nil, phrase{}, err
	}
	var names []string
	for n, s := range res.Game.Seats {
		names = append(names, fmt.Sprintf("P%d %s", n+1, seatLabel(s)))
	}
	return res.Game, say("lobby.started", "Game", gameTitle(in.publicTr(ctx), rules), "Seats", strings.Join(names, ", ")), nil
}

// defaultComputer is the computer player /lobby add-computer and the lobby's
// button seat when asked for none, in a game that has it.
const defaultComputer = "strong"

// levelName is a computer player's name in p's words: a level's
// translated name ("stark"), any other name as it is ("random").
func levelName(p *locale.Printer, computer string) string {
	if slices.Contains(ai.Levels, computer) {
		return p.T("computer.level." + computer)
	}
	return computer
}

// seatLabel names a seat in public text: a mention for a user.
func seatLabel(s storage.Seat) string {
	if s.User != "" {
		return "<@" + s.User + ">"
	}
	return s.Name
}

// lobbyMessage is the public lobby, in p's language: who sits, the
// options, and buttons.
func (lh *lobbyHandler) lobbyMessage(ctx context.Context, g *storage.Game, p *locale.Printer) transport.Message {
	title := g.Kind
	min, max := 0, 0
	if rules, err := lh.games.Lookup(g.Kind); err == nil {
		title, min, max = gameTitle(p, rules), rules.MinPlayers(), rules.MaxPlayers()
	}
	var seats strings.Builder
	for n, s := range g.Seats {
		fmt.Fprintf(&seats, "%d. %s%s\n", n+1, seatLabel(s), lh.reliabilityOf(ctx, p, g.Guild, s.User))
	}
	target := p.T("lobby.table_range", "Min", min, "Max", max)
	if g.Setup.Players > 0 {
		target = p.T("lobby.table_fixed", "Count", g.Setup.Players)
	}
	fields := []*discordgo.MessageEmbedField{
		{Name: p.T("lobby.seated", "Count", len(g.Seats)), Value: transport.OrNone(seats.String())},
		{Name: p.T("lobby.table"), Value: target, Inline: true},
		{Name: p.T("lobby.deadline"), Value: deadlineText(p, g), Inline: true},
	}
	if g.Hints {
		fields = append(fields, &discordgo.MessageEmbedField{Name: p.T("lobby.hints"), Value: p.T("lobby.hints_on"), Inline: true})
	}
	if g.MinReliability > 0 || g.NoRejoin {
		fields = append(fields, &discordgo.MessageEmbedField{Name: p.T("reliability.lobby_title"), Value: lobbyReliabilityRules(p, g), Inline: true})
	}
	if len(g.Setup.Options) > 0 {
		var o []string
		for k, v := range g.Setup.Options {
			o = append(o, k+"="+v)
		}
		slices.Sort(o)
		fields = append(fields, &discordgo.MessageEmbedField{Name: p.T("lobby.options"), Value: strings.Join(o, ", "), Inline: true})
	}
	embed := &discordgo.MessageEmbed{
		Title:       p.T("lobby.title", "Game", title),
		Description: p.T("lobby.intro", "ID", g.ID, "Creator", g.Creator),
		Fields:      fields,
	}
	btn := func(label string, style discordgo.ButtonStyle, v verb, arg string) discordgo.MessageComponent {
		id := componentID(g.Guard(), v, arg)
		return discordgo.Button{Label: label, Style: style, CustomID: id}
	}
	return transport.Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			btn(p.T("lobby.button.join"), discordgo.SuccessButton, verbJoin, ""),
			btn(p.T("lobby.button.leave"), discordgo.SecondaryButton, verbLeave, ""),
			btn(p.T("lobby.button.add_ai"), discordgo.SecondaryButton, verbAddAI, ""),
			btn(p.T("lobby.button.drop_ai"), discordgo.SecondaryButton, verbDropAI, ""),
		}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			btn(p.T("lobby.button.start_shuffled"), discordgo.PrimaryButton, verbStart, orderShuffle),
			btn(p.T("lobby.button.start_join"), discordgo.PrimaryButton, verbStart, orderJoin),
			btn(p.T("lobby.button.abandon"), discordgo.DangerButton, verbAbandon, ""),
		}},
	}}
}

// gameDeadline returns the game's per-decision deadline, reminder interval
// and what happens when the deadline passes.
func gameDeadline(g *storage.Game) (deadline, reminder time.Duration, onTimeout string) {
	onTimeout = g.Timing.OnDeadline
	if onTimeout == "" {
		onTimeout = onDeadlineComputer
	}
	return g.Timing.TurnDeadline, g.Timing.ReminderEvery, onTimeout
}

// deadlineText says, in p's language, how long each decision may take
// and what happens then.
func deadlineText(p *locale.Printer, g *storage.Game) string {
	d, _, on := gameDeadline(g)
	if d <= 0 {
		return p.T("deadline.none")
	}
	what := p.T("deadline.computer")
	if on == onDeadlinePause {
		what = p.T("deadline.pause")
	}
	if g.Timing.Banked() {
		return bankText(p, g.Timing, what)
	}
	return p.T("deadline.text", "Duration", humanDuration(p, d), "Then", what)
}

// humanDuration writes d in whole days, hours or minutes in p's language.
func humanDuration(p *locale.Printer, d time.Duration) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return p.T("duration.days", "Count", int(d/(24*time.Hour)))
	case d >= time.Hour && d%time.Hour == 0:
		return p.T("duration.hours", "Count", int(d/time.Hour))
	case d >= time.Minute:
		return p.T("duration.minutes", "Count", int(d/time.Minute))
	}
	return d.String()
}

// listGames lists the guild's open and running games, privately.
func (lh *lobbyHandler) listGames(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, p := in.Interaction, in.tr
	games, err := lh.lists.ListActive(ctx, i.GuildID)
	if err != nil {
		return err
	}
	if len(games) == 0 {
		return r.Message(transport.Message{Content: p.T("lobby.list_empty"), Private: true})
	}
	var sb strings.Builder
	for _, g := range games {
		title := kindTitle(p, lh.games, g.Kind)
		state := p.T("lobby.list_lobby", "Count", len(g.Seats))
		if g.Status == storage.StatusRunning {
			state = p.T("lobby.list_running", "Players", len(g.Seats), "Count", g.Version)
		}
		fmt.Fprintf(&sb, "• <#%s> — %s #%d (%s)\n", g.Channel, title, g.ID, state)
	}
	return r.Message(transport.Message{Content: truncate(sb.String(), 1900), Private: true})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n], "\n")
	if cut < 0 {
		cut = n
	}
	return s[:cut] + "\n…"
}

// askAbandon asks the creator or an admin to confirm abandoning the
// channel's game or, with game:N, game N of this channel or of one of its
// threads: a game whose thread was deleted is ended from its parent.
func (lh *lobbyHandler) askAbandon(ctx context.Context, r *transport.Reply, in *interaction) error {
	id, named := in.opts.integer(optGame)
	if !named {
		g, err := lh.store.Get(ctx, in.ChannelID)
		if err != nil {
			return err
		}
		return lh.confirmAbandon(r, in, g)
	}
	g, err := lh.abandonable(ctx, in.Interaction, uint64(max(id, 0)))
	if err != nil {
		return err
	}
	return lh.confirmAbandon(r, in, g)
}

// abandonable is game id when it is active and lives in the interaction's
// channel or in a thread of it.
func (lh *lobbyHandler) abandonable(ctx context.Context, i *discordgo.Interaction, id uint64) (*storage.Game, error) {
	g, err := lh.store.GetByID(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && (g.Guild != i.GuildID || g.Channel != i.ChannelID && g.Parent != i.ChannelID) {
		return nil, refuseWith("refuse.no_game_here", "ID", id)
	}
	if err != nil {
		return nil, err
	}
	if !g.Status.Active() {
		return nil, refuseWith("refuse.game_ended", "ID", id)
	}
	return g, nil
}

func (lh *lobbyHandler) confirmAbandon(r *transport.Reply, in *interaction, g *storage.Game) error {
	if userOf(in.Interaction).ID != g.Creator && !isAdmin(in.Interaction) {
		return refuseWith("lobby.abandon_who_creator", "Creator", g.Creator)
	}
	id := componentID(g.Guard(), verbConfirm, "")
	return r.Message(transport.Message{Private: true, Content: in.tr.T("lobby.abandon_ask", "ID", g.ID),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: in.tr.T("lobby.abandon_button"), Style: discordgo.DangerButton, CustomID: id},
		}}}})
}

// abandonButton handles the lobby's Abandon button and its confirmation,
// which may be asked in the parent channel of the game's thread.
func (lh *lobbyHandler) abandonButton(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, id := in.Interaction, in.id
	g, err := lh.abandonable(ctx, i, id.Game)
	if err != nil {
		return err
	}
	if id.Verb == verbAbandon {
		return lh.confirmAbandon(r, in, g)
	}
	if !ephemeral(in.message) {
		return errMisplaced // a confirmation is only ever on its private question
	}
	if userOf(i).ID != g.Creator && !isAdmin(i) {
		return refuseWith("lobby.abandon_who")
	}
	err = lh.locks.With(g.Channel, func() error {
		var err error
		if g, err = lh.store.Get(ctx, g.Channel); err != nil {
			return err
		}
		if g.ID != id.Game {
			return table.ErrForeign
		}
		g, err = lh.store.Finish(ctx, g.Channel, g.Guard(), storage.StatusAbandoned, nil)
		return err
	})
	if err != nil {
		return err
	}
	err = r.Update(transport.Message{Content: in.tr.T("lobby.abandoned", "ID", g.ID)}) // the private question
	lh.pub.abandoned(g, displayName(i))
	if i.ChannelID != g.Channel { // asked from the thread's parent: say so there too
		err = errors.Join(err, r.Message(transport.Message{Content: in.publicTr(ctx).T("lobby.abandoned_by", "ID", g.ID, "Name", displayName(i)), Mentions: []string{}}))
	}
	return err
}
