package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// A page of /game log shows at most logPageSize actions in at most
// logPageChars characters, so that it fits one message.
const (
	logPageSize  = 15
	logPageChars = 1800
	// logEntryChars bounds one action's line with what it caused.
	logEntryChars = 600
)

// gameHandler answers /game: views of the channel's game (the caller's
// private view, the board, the log, the scores, the rules), taking back the
// caller's last action, statistics and the caller's preferences.
type gameHandler struct {
	store    gameStore
	lists    listStore
	settings settingsStore
	games    *engine.Registry
	ref      *table.Referee // takes actions back
	think    *table.Thinker // thinks out hints
	pub      *publisher
	look     *views
	ratings  *ratingBook
	zones    zones // time zones of /game prefs
	tally    *tallies
}

func (gh *gameHandler) register(rt *router) error {
	return errors.Join(
		rt.command(cmdGame, gh.gameCommand, gh.suggest),
		rt.commandAnywhere(cmdStats, func(ctx context.Context, r *transport.Reply, in *interaction) error { return gh.stats(ctx, r, in) }, nil),
		rt.commandAnywhere(cmdRules, gh.rulesCommand, gh.suggestTopics),
		rt.component(verbLogPage, onButton, inGuild, gh.logPage),
		rt.component(verbFullBoard, onButton, inGuild, gh.fullBoard),
	)
}

// fullBoard answers the board's "Full board" button: the whole board as an
// image, privately, so the channel keeps only the glance.
func (gh *gameHandler) fullBoard(ctx context.Context, r *transport.Reply, in *interaction) error {
	g, st, err := gh.store.Load(ctx, in.ChannelID)
	if err != nil {
		return err
	}
	if g.ID != in.id.Game {
		return table.ErrForeign
	}
	r.DeferMessage(true) // rendering may take a moment
	m := transport.Message{Content: in.tr.T("board.full", "ID", g.ID, "Version", g.Version), Private: true, Loose: true}
	if m.Image = gh.look.fullBoard(in.tr, g, st); m.Image == nil {
		m.Content = in.tr.T("board.no_picture")
	}
	m.Alt = gh.look.fullBoardAlt(ctx, in.tr, g, st)
	return r.Message(m)
}

// suggest lists the rules topics for /game rules: of the channel's game.
func (gh *gameHandler) suggest(ctx context.Context, in *interaction) []string {
	if in.sub != subRules {
		return nil
	}
	rules, err := channelRules(ctx, gh.store, gh.games, in.ChannelID)
	if err != nil {
		return nil
	}
	return topicChoices(in.tr, rules)
}

// suggestTopics lists the rules topics for /rules: of the game chosen.
func (gh *gameHandler) suggestTopics(_ context.Context, in *interaction) []string {
	rules, err := gh.games.Lookup(in.opts.str(optGame))
	if err != nil {
		return nil
	}
	return topicChoices(in.tr, rules)
}

// topicChoices are rules' topics as autocomplete offers them: the typed
// name, shown with its title in the reader's language (a reader finds
// "loans" by typing "Kredite").
func topicChoices(p *locale.Printer, rules engine.Rules) []string {
	book, ok := rules.(engine.Rulebook)
	if !ok {
		return nil
	}
	words := wording.ForRules(p, rules, nil)
	var list []string
	for _, t := range book.Topics() {
		list = append(list, t.Name+"\t"+t.Name+" — "+words.Say(t.Title))
	}
	return list
}

func (gh *gameHandler) gameCommand(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, sub, opts, p := in.Interaction, in.sub, in.opts, in.tr
	switch sub {
	case subPrefs:
		return gh.setPrefs(ctx, r, in)
	case subStats:
		return gh.stats(ctx, r, in)
	case subRules:
		rules, err := channelRules(ctx, gh.store, gh.games, in.ChannelID)
		if err != nil {
			return err
		}
		return rulesText(r, in.tr, rules, opts.str(optTopic))
	case subUndo:
		return gh.undo(ctx, r, in)
	case subSummary:
		return gh.summary(ctx, r, in)
	}
	g, st, err := gh.store.Load(ctx, i.ChannelID)
	if err != nil {
		return err
	}
	if g.Status != storage.StatusRunning {
		return table.ErrNotRunning
	}
	switch sub {
	case subMe:
		return gh.privateView(ctx, r, i, p, g, st)
	case subBoard:
		r.DeferMessage(false) // rendering may take a moment
		// the whole board, where the button may lack room
		m := gh.look.boardCard(ctx, in.publicTr(ctx), g, st, gh.look.fullBoard(in.publicTr(ctx), g, st), gh.look.fullBoardAlt(ctx, in.publicTr(ctx), g, st))
		return r.Message(m)
	case subScores:
		m := gh.look.scoresMessage(p, g, st, false)
		m.Private = true
		return r.Message(m)
	case subLog:
		page, _ := opts.integer(optPage)
		return gh.showLog(r, p, g, max(page, 1), false)
	case subHint:
		return gh.hint(ctx, r, in, g, st)
	}
	return refuseWith("refuse.unknown_subcommand", "Name", sub)
}

// privateView shows the caller their own view: their mat as an image, their
// prompts and the free actions open to them. A spectator gets the public view.
func (gh *gameHandler) privateView(ctx context.Context, r *transport.Reply, i *discordgo.Interaction, p *locale.Printer, g *storage.Game, st engine.State) error {
	seats := table.SeatsOf(g, userOf(i).ID)
	seat := engine.Spectator
	if len(seats) > 0 {
		seat = seats[0]
	}
	r.DeferMessage(true)
	var sb strings.Builder
	if seat == engine.Spectator {
		sb.WriteString(p.T("me.watching") + "\n")
	} else {
		sb.WriteString(p.T("me.seat", "ID", g.ID, "Seat", int(seat)+1) + "\n")
		words := gameWords(p, gh.games, g.Kind)
		for _, pr := range table.PromptsOf(st, seat) {
			sb.WriteString(p.T("me.decision", "Label", words.Label(pr), "Count", len(pr.Actions)) + "\n")
		}
		if free := st.FreeActions(seat); len(free) > 0 {
			sb.WriteString(p.T("me.any_time", "Actions", transport.Clip(strings.Join(free, ", "), 900)) + "\n")
		}
	}
	m := transport.Message{Content: sb.String(), Private: true}
	if text := gh.look.describe(st.View(seat), gameWords(p, gh.games, g.Kind).WithSeats(seatNames(g))); text != "" {
		m.Embeds = []*discordgo.MessageEmbed{{Description: "```\n" + transport.Clip(text, transport.MaxEmbedDescription-10) + "\n```"}}
	}
	m.Image, m.Alt = gh.look.matImage(p, g, st, seat), gh.look.matAlt(ctx, p, g, st, seat)
	return r.Message(m)
}

// showLog shows a page of the game's public log, newest first. The log is
// replayed so that each line is the public text of what happened: secret
// choices show only as "chose" until revealed.
func (gh *gameHandler) showLog(r *transport.Reply, p *locale.Printer, g *storage.Game, page int, update bool) error {
	lines, err := gh.publicLog(p, g)
	if err != nil {
		return err
	}
	bounds := logPages(lines)
	pages := max(1, len(bounds))
	page = min(page, pages)
	var sb strings.Builder
	sb.WriteString(p.T("log.header", "ID", g.ID, "Page", page, "Pages", pages) + "\n")
	if len(bounds) > 0 {
		for _, l := range lines[bounds[page-1][0]:bounds[page-1][1]] {
			sb.WriteString(l + "\n")
		}
	}
	if len(lines) == 0 {
		sb.WriteString(p.T("log.empty") + "\n")
	}
	var row []discordgo.MessageComponent
	if page < pages {
		id := componentID(g.Guard(), verbLogPage, strconv.Itoa(page+1))
		row = append(row, discordgo.Button{Label: p.T("log.older"), Style: discordgo.SecondaryButton, CustomID: id})
	}
	if page > 1 {
		id := componentID(g.Guard(), verbLogPage, strconv.Itoa(page-1))
		row = append(row, discordgo.Button{Label: p.T("log.newer"), Style: discordgo.SecondaryButton, CustomID: id})
	}
	m := transport.Message{Content: sb.String(), Private: true}
	if row != nil {
		m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
	}
	if update {
		return r.Update(m)
	}
	return r.Message(m)
}

// logPage turns the page of a /game log answer. Only that private answer
// is updated; the button on any other message gets a new private answer.
func (gh *gameHandler) logPage(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, id := in.Interaction, in.id
	g, err := gh.store.Get(ctx, i.ChannelID)
	if err != nil {
		return err
	}
	if g.ID != id.Game {
		return table.ErrForeign
	}
	page, err := strconv.Atoi(id.Arg)
	if err != nil || page < 1 {
		return errUnknownComp
	}
	return gh.showLog(r, in.tr, g, page, ephemeral(in.message))
}

// logPages splits log lines into pages, newest first: each page is the
// [start, end) range of lines it shows, at most logPageSize of them in at
// most logPageChars characters.
func logPages(lines []string) [][2]int {
	var pages [][2]int
	end := len(lines)
	for end > 0 {
		start, size := end, 0
		for start > 0 && end-start < logPageSize {
			n := utf8.RuneCountInString(lines[start-1]) + 1
			if start < end && size+n > logPageChars {
				break
			}
			start, size = start-1, size+n
		}
		pages = append(pages, [2]int{start, end})
		end = start
	}
	return pages
}

// publicLog replays g's log and returns one line per action in notation,
// followed by the public events it caused: "12 P2 Alice: place 6 bank 2"
// and, below it, what happened ("P2 places a 6 at the Bank", the pounds it
// cost). A secret choice shows as such until an event reveals it; then its
// notation shows too. Private events never show.
func (gh *gameHandler) publicLog(p *locale.Printer, g *storage.Game) ([]string, error) {
	rules, err := gh.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	st, err := rules.New(g.Setup)
	if err != nil {
		return nil, err
	}
	names := seatNames(g)
	words := gameWords(p, gh.games, g.Kind)
	// a secret choice shows once an event reveals it, unless the same seat
	// replaced it before the reveal: the rules never show a replaced choice
	const (
		shown = iota
		hidden
		replaced
	)
	secrecy := make([]int, len(g.Log))
	caused := make([][]string, len(g.Log))
	open := map[engine.Seat]int{} // the seat's latest unrevealed secret choice
	for n, e := range g.Log {
		secret := engine.IsSecret(st, e.Seat, e.Action)
		events, err := st.Apply(e.Seat, e.Action)
		if err != nil {
			return nil, table.ReplayFailure(g, n, secret, err)
		}
		for _, ev := range events {
			if !ev.Private && !ev.Text.IsZero() {
				caused[n] = append(caused[n], words.Event(ev))
			}
		}
		if secret {
			if prev, ok := open[e.Seat]; ok {
				secrecy[prev] = replaced
			}
			secrecy[n], open[e.Seat] = hidden, n
		}
		for _, ev := range events {
			if ev.Reveals {
				for _, m := range open {
					secrecy[m] = shown
				}
				clear(open)
			}
		}
	}
	// each line names whoever held the seat then; hand-overs have lines
	// of their own, placed by the log's length when they happened
	holders := firstHolders(g)
	lines := make([]string, 0, len(g.Log)+len(g.Handovers))
	h := 0
	handOver := func() {
		lines = append(lines, handoverLine(p, g.Handovers[h], names))
		holders[g.Handovers[h].Seat] = g.Handovers[h].To
		h++
	}
	for n, e := range g.Log {
		for h < len(g.Handovers) && g.Handovers[h].Version <= n {
			handOver()
		}
		who := fmt.Sprintf("P%d", e.Seat+1)
		if int(e.Seat) < len(holders) {
			who += " " + holderName(holders[e.Seat], names[e.Seat])
		}
		what := "`" + e.Action + "`"
		switch secrecy[n] {
		case hidden:
			what = p.T("log.secret")
		case replaced:
			what = p.T("log.secret_changed")
		}
		line := fmt.Sprintf("`%d` %s: %s", n+1, who, what)
		if len(caused[n]) > 0 {
			line += "\n\u2003↳ " + strings.Join(caused[n], " · ")
		}
		lines = append(lines, transport.Clip(line, logEntryChars))
	}
	for h < len(g.Handovers) {
		handOver()
	}
	return lines, nil
}

// rulesText shows a rules topic, or the list of topics.
// rulesCommand answers /rules game: topic:, which works anywhere: a
// topic of the game chosen, or the list of its topics.
func (gh *gameHandler) rulesCommand(_ context.Context, r *transport.Reply, in *interaction) error {
	rules, err := gh.games.Lookup(in.opts.str(optGame))
	if err != nil {
		return refuseWith("refuse.unknown_game", "Name", transport.Clip(in.opts.str(optGame), 40))
	}
	return rulesText(r, in.tr, rules, in.opts.str(optTopic))
}

// rulesText answers privately with a topic of rules, or the list of its
// topics when none is named.
func rulesText(r *transport.Reply, p *locale.Printer, rules engine.Rules, topic string) error {
	book, ok := rules.(engine.Rulebook)
	if !ok || len(book.Topics()) == 0 {
		return refuseWith("rules.none", "Game", gameTitle(p, rules))
	}
	topics := book.Topics()
	words := wording.ForRules(p, rules, nil)
	if topic == "" {
		var names []string
		for _, t := range topics {
			names = append(names, "`"+t.Name+"` ("+words.Say(t.Title)+")")
		}
		return r.Message(transport.Message{Private: true, Content: p.T("rules.topics", "Game", gameTitle(p, rules), "Topics", strings.Join(names, ", "))})
	}
	t, ok := words.Topic(topics, topic)
	if !ok {
		return refuseWith("rules.no_topic", "Topic", transport.Clip(topic, 40), "Game", gameTitle(p, rules))
	}
	return r.Message(transport.Message{Private: true, Embeds: []*discordgo.MessageEmbed{{Title: gameTitle(p, rules) + ": " + words.Say(t.Title), Description: words.Say(t.Text)}}})
}

// channelRules returns the rules of the channel's game.
func channelRules(ctx context.Context, store interface {
	Get(ctx context.Context, channel string) (*storage.Game, error)
}, games *engine.Registry, channel string) (engine.Rules, error) {
	g, err := store.Get(ctx, channel)
	if err != nil {
		return nil, err
	}
	return games.Lookup(g.Kind)
}

// undo takes back the caller's last action when it was the last one played
// and revealed nothing.
func (gh *gameHandler) undo(ctx context.Context, r *transport.Reply, in *interaction) error {
	r.DeferMessage(true) // acknowledged before the undo is stored; the answer is private
	out, err := gh.ref.Undo(ctx, in.ChannelID, in.user.ID)
	if err != nil {
		return err
	}
	gh.pub.notify(out)
	return r.Message(transport.Message{Content: in.tr.T("undo.done", "Action", out.Action), Private: true})
}

// stats shows a user's record in each game and the server's totals.
func (gh *gameHandler) stats(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, opts, p := in.Interaction, in.opts, in.tr
	user := userOf(i)
	if o, ok := opts[optUser]; ok {
		if id, ok := o.Value.(string); ok && id != "" {
			user = &discordgo.User{ID: id}
		}
	}
	// outside the bot's servers (a DM, a server where only the user
	// installed the app) the record is the player's over every server
	guild := ""
	if in.inBotsServer() {
		guild = i.GuildID
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "**<@%s>**\n", user.ID)
	if guild == "" {
		sb.WriteString(p.T("stats.everywhere") + "\n")
	}
	summary, err := gh.ratings.summary(ctx, p, gh.games, guild, user.ID)
	if err != nil {
		return err
	}
	sb.WriteString(summary)
	if r, err := gh.tally.of(ctx, guild, user.ID, guild == ""); err != nil {
		return err
	} else if r != (storage.Reliability{}) {
		sb.WriteString(statsLine(p, r, guild == "") + "\n")
	}
	if guild != "" {
		server, err := gh.serverStats(ctx, p, guild)
		if err != nil {
			return err
		}
		sb.WriteString("\n" + server)
	}
	return r.Message(transport.Message{Content: sb.String(), Private: true, Mentions: []string{}})
}

// serverStats is a line on guild's games: how many are going, abandoned
// and finished of each kind.
func (gh *gameHandler) serverStats(ctx context.Context, p *locale.Printer, guild string) (string, error) {
	archive, err := gh.lists.ArchiveForGuild(ctx, guild, 0, 0)
	if err != nil {
		return "", err
	}
	active, err := gh.lists.ListActive(ctx, guild)
	if err != nil {
		return "", err
	}
	finished, abandoned := map[string]int{}, 0
	for _, g := range archive {
		if g.Status == storage.StatusFinished {
			finished[g.Kind]++
		} else {
			abandoned++
		}
	}
	var sb strings.Builder
	sb.WriteString(p.T("stats.server", "Count", len(active), "Abandoned", abandoned))
	for _, k := range slices.Sorted(maps.Keys(finished)) {
		sb.WriteString(p.T("stats.server_finished", "Count", finished[k], "Game", kindTitle(p, gh.games, k)))
	}
	return sb.String(), nil
}

// setPrefs changes the caller's preferences.
func (gh *gameHandler) setPrefs(ctx context.Context, r *transport.Reply, in *interaction) error {
	opts, p := in.opts, in.tr
	user := in.user.ID
	tz, zoneTyped := opts[optTimeZone]
	var zone string
	if zoneTyped {
		zone, _ = tz.Value.(string)
		zone = strings.TrimSpace(zone)
		if strings.EqualFold(zone, "UTC") {
			zone = ""
		}
		if _, err := gh.zones.load(zone); err != nil || storage.CheckTimeZone(zone) != nil {
			return refuseWith("prefs.bad_zone", "Zone", transport.Clip(zone, 60))
		}
	}
	// changed in one transaction: counts and choices another process
	// writes meanwhile are kept
	prefs, err := gh.settings.UpdateUserPrefs(ctx, user, func(prefs *storage.UserPrefs) error {
		if on, ok := opts.boolean(optPings); ok {
			prefs.PingOnTurn = on
		}
		if s := opts.str(optSecrets); s != "" {
			prefs.Secrets = s
		}
		if zoneTyped {
			prefs.TimeZone = zone
		}
		if h, ok := opts.integer(optQuietFrom); ok {
			prefs.QuietFrom = h
		}
		if h, ok := opts.integer(optQuietTo); ok {
			prefs.QuietTo = h
		}
		if on, ok := opts.boolean(optHeadsUp); ok {
			prefs.HeadsUp = on
		}
		if on, ok := opts.boolean(optDigest); ok {
			prefs.Digest = on
		}
		if h, ok := opts.integer(optDigestAt); ok {
			prefs.DigestHour, prefs.Digest = h, true // choosing the hour asks for it
		}
		return nil
	})
	if err != nil {
		return err
	}
	return r.Message(transport.Message{Private: true, Content: prefsText(p, prefs)})
}

// prefsText says what prefs set, in p's language.
func prefsText(p *locale.Printer, prefs storage.UserPrefs) string {
	pings := p.T("prefs.pings_off")
	if prefs.PingOnTurn {
		pings = p.T("prefs.pings_on")
	}
	where := p.T("prefs.secrets_here")
	if prefs.Secrets == storage.SecretsDM {
		where = p.T("prefs.secrets_dm")
	}
	zone := cmp.Or(prefs.TimeZone, "UTC")
	quiet := p.T("prefs.quiet_none", "Zone", zone)
	if prefs.HasQuietHours() {
		quiet = p.T("prefs.quiet", "From", prefs.QuietFrom, "To", prefs.QuietTo, "Zone", zone)
	}
	headsUp := p.T("prefs.heads_up_off")
	if prefs.HeadsUp {
		headsUp = p.T("prefs.heads_up_on")
	}
	digest := p.T("prefs.digest_off")
	if prefs.Digest {
		digest = p.T("prefs.digest_on", "Hour", prefs.DigestHour, "Zone", zone)
	}
	return p.T("prefs.saved", "Pings", pings, "Where", where) + "\n" + quiet + "\n" + headsUp + "\n" + digest
}
