package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"hash/fnv"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// pendingTTL is how long a DM waits for its user to say which game it is for.
const pendingTTL = 15 * time.Minute

// pendingDMs holds, in memory only, the DM text of users who were asked
// which game it is for. It is secret: it is never logged, and lost on a
// restart (the user sends it again).
type pendingDMs struct {
	mu   sync.Mutex
	text map[string]pendingDM
}

type pendingDM struct {
	text     string
	at       time.Time
	written  time.Time // when the user wrote it (the DM's snowflake)
	question string    // the id of the message that asks which game
}

func newPendingDMs() *pendingDMs { return &pendingDMs{text: map[string]pendingDM{}} }

func (p *pendingDMs) put(user, text string, written, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for u, d := range p.text {
		if now.Sub(d.at) > pendingTTL {
			delete(p.text, u)
		}
	}
	p.text[user] = pendingDM{text: text, at: now, written: written}
}

// asked records the message that asks user which game their DM is for.
func (p *pendingDMs) asked(user, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d, ok := p.text[user]; ok {
		d.question = message
		p.text[user] = d
	}
}

// take returns user's pending DM, and when they wrote it, when question is
// the message that asked for it.
func (p *pendingDMs) take(user, question string, now time.Time) (pendingDM, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.text[user]
	if !ok || d.question != question {
		return pendingDM{}, false
	}
	delete(p.text, user)
	return d, now.Sub(d.at) <= pendingTTL
}

// waitingGame is a game waiting for a user's secret choice.
type waitingGame struct {
	game   *storage.Game
	prompt engine.Prompt
}

// dmHandler takes secret choices by DM: as text, through the menus of the
// secret prompts it sends, and through the question which game a DM is
// for. It also sends the secret prompts (for the publisher), and after
// Discord refuses a DM to a player it asks that player privately instead.
type dmHandler struct {
	store   gameStore
	lists   listStore
	games   *engine.Registry
	ref     *table.Referee
	pub     *publisher
	send    *transport.Sender
	log     *slog.Logger
	now     func() time.Time
	pending *pendingDMs
	prompts *dmPrompts // the secret prompts sent by DM, which DMs answer
	langs   *languages
}

// promptsSent remembers, in memory, the round for which each seat of a
// game was last sent its secret prompt by DM, and the last two prompts
// each user was sent in each game: when, and at which revision, so that a
// choice typed in answer to a prompt is guarded by the revision that
// prompt was drawn at (see drawnFor).
type promptsSent struct {
	mu    sync.Mutex
	round map[uint64]map[engine.Seat]sentTo     // game → seat → round tag and user
	sent  map[uint64]map[string][2]promptSentAt // game → user → latest, the one before
}

// promptSentAt is a secret prompt sent by DM: when, and the revision of
// the game it was drawn at.
type promptSentAt struct {
	at       time.Time
	revision uint64
}

// record notes that user was sent a prompt of game drawn at revision, at.
func (p *promptsSent) record(game uint64, user string, revision uint64, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent == nil {
		p.sent = map[uint64]map[string][2]promptSentAt{}
	}
	if p.sent[game] == nil {
		p.sent[game] = map[string][2]promptSentAt{}
	}
	last := p.sent[game][user]
	p.sent[game][user] = [2]promptSentAt{{at: at, revision: revision}, last[0]}
}

// drawnFor is the prompt user answered with a DM written at written: the
// latest one sent before it. None is known when none was sent since this
// process started: then the zero offer, no check but the game.
func (p *promptsSent) drawnFor(game uint64, user string, written time.Time) table.Offer {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, sent := range p.sent[game][user] {
		if !sent.at.IsZero() && !written.Before(sent.at) {
			return table.Offer{Revision: sent.revision, Hold: table.HoldHistory}
		}
	}
	return table.Offer{}
}

// sentTo is one secret prompt sent: the round's tag and the user DMed.
type sentTo struct{ round, user string }

// first records that seat of game, held by user, is sent its prompt for
// round, and reports whether it was not already: a seat handed over during
// a secret phase is prompted again, where its new holder takes secret
// choices.
func (p *promptsSent) first(game uint64, seat engine.Seat, user, round string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.round == nil {
		p.round = map[uint64]map[engine.Seat]sentTo{}
	}
	if p.round[game] == nil {
		p.round[game] = map[engine.Seat]sentTo{}
	}
	sent := sentTo{round, user}
	if p.round[game][seat] == sent {
		return false
	}
	p.round[game][seat] = sent
	return true
}

func (dh *dmHandler) register(rt *router) error {
	return rt.component(verbWhich, onSelect, inDMs, dh.whichGame)
}

// handle answers a DM.
func (dh *dmHandler) handle(ctx context.Context, m *discordgo.Message) {
	text := table.Canonical(m.Content)
	user := m.Author.ID
	tr := dh.langs.user(ctx, user) // a DM carries no locale: the user's last interaction's
	waiting, err := dh.waitingSecrets(ctx, user)
	if err != nil {
		dh.log.Error("finding games for a DM failed", "err", err)
		dh.answer(m.ChannelID, transport.Message{Content: tr.T(genericFailure)})
		return
	}
	switch {
	case text == "" && len(waiting) > 0:
		// a picture or a sticker while a game waits for a typed choice
		dh.answer(m.ChannelID, transport.Message{Content: refusalText(tr, table.ErrBlankChoice)})
	case text == "":
	case len(waiting) == 0:
		dh.answer(m.ChannelID, transport.Message{Content: tr.T("dm.none_waiting")})
	case len(waiting) == 1:
		g := waiting[0].game
		dh.answer(m.ChannelID, transport.Message{Content: dh.playFromDM(ctx, tr, g, user, text, m.ID, dh.prompts.prompted.drawnFor(g.ID, user, written(m.ID, dh.now())))})
	default:
		dh.pending.put(user, text, written(m.ID, dh.now()), dh.now())
		if q := dh.answer(m.ChannelID, dh.whichGameMessage(tr, waiting)); q != nil {
			dh.pending.asked(user, q.ID)
		}
	}
}

// written is when a message was written: the time its snowflake id
// holds, or now for an id that is no snowflake.
func written(id string, now time.Time) time.Time {
	t, err := discordgo.SnowflakeTimestamp(id)
	if err != nil || t.Unix() <= 1420070400 { // Discord's epoch: no real message is older
		return now
	}
	return t
}

// playFromDM plays text for user in g and returns the DM answer, in
// words' language. key is
// the id of the DM or interaction that sent it (see table.Request.Key); offered,
// the prompt it answers (see drawnFor).
func (dh *dmHandler) playFromDM(ctx context.Context, tr *locale.Printer, g *storage.Game, user, text, key string, offered table.Offer) string {
	out, err := dh.ref.Play(ctx, table.Request{Channel: g.Channel, User: user, Game: g.ID, Offered: offered, Text: text, Key: key})
	if out != nil {
		dh.pub.notify(out)
	}
	if err != nil {
		text, unexpected := userMessage(tr, err)
		if unexpected {
			dh.log.Error("a DM choice failed", "game", g.ID, "err", err)
		}
		return tr.T("dm.answer", "ID", g.ID, "Text", text)
	}
	return privateConfirmation(tr, out)
}

// waitingSecrets lists the running games with a secret prompt open for user.
func (dh *dmHandler) waitingSecrets(ctx context.Context, user string) ([]waitingGame, error) {
	games, err := dh.lists.ActiveForUser(ctx, user)
	if err != nil {
		return nil, err
	}
	var out []waitingGame
	for _, g := range games {
		if g.Status != storage.StatusRunning {
			continue
		}
		full, st, err := dh.store.Load(ctx, g.Channel)
		if err != nil {
			return nil, err
		}
		if p, ok := answerableSecretPrompt(full, st, user); ok {
			out = append(out, waitingGame{game: full, prompt: p})
		}
	}
	return out, nil
}

// whichGameMessage asks, in words' language, which of several games a DM
// is for.
func (dh *dmHandler) whichGameMessage(tr *locale.Printer, waiting []waitingGame) transport.Message {
	id := componentID(storage.Guard{}, verbWhich, "")
	var opts []discordgo.SelectMenuOption
	for _, w := range waiting {
		if len(opts) == transport.MaxSelectOptions {
			break
		}
		title := kindTitle(tr, dh.games, w.game.Kind)
		opts = append(opts, discordgo.SelectMenuOption{
			Label: tr.T("dm.which_option", "ID", w.game.ID, "Game", title), Value: strconv.FormatUint(w.game.ID, 10),
			Description: gameWords(tr, dh.games, w.game.Kind).Label(w.prompt),
		})
	}
	return transport.Message{Content: tr.T("dm.which"),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: id, Placeholder: tr.T("dm.which_placeholder"), Options: opts},
		}}}}
}

// whichGame plays the pending DM in the game the user picked. Only the
// message that asked the question is answered by updating it.
func (dh *dmHandler) whichGame(ctx context.Context, r *transport.Reply, in *interaction) error {
	values := in.values
	if len(values) != 1 {
		return refuseWith("dm.pick_game")
	}
	id, err := strconv.ParseUint(values[0], 10, 64)
	if err != nil {
		return refuseWith("dm.pick_listed")
	}
	user := in.user.ID
	question := ""
	if in.message != nil {
		question = in.message.ID
	}
	pending, ok := dh.pending.take(user, question, dh.now())
	if !ok {
		// an old question, or a menu on another message: leave it as it is
		return refuseWith("dm.question_gone")
	}
	g, err := dh.store.GetByID(ctx, id)
	if err != nil {
		return err
	}
	if len(table.SeatsOf(g, user)) == 0 {
		return table.ErrNotSeated
	}
	return r.Update(transport.Message{Content: dh.playFromDM(ctx, in.tr, g, user, pending.text, in.ID, dh.prompts.prompted.drawnFor(g.ID, user, pending.written))})
}

// answer sends a message in a DM channel the user wrote in.
func (dh *dmHandler) answer(channel string, m transport.Message) *discordgo.Message {
	sent, err := dh.send.Post(channel, m)
	if err != nil {
		dh.log.Warn("answering a DM failed", "err", transport.DescribeError(err))
	}
	return sent
}

// choiceMenu is a DM select menu for a secret prompt's actions that start
// with prefix: the actions themselves when they fit in one menu, otherwise
// their next word ("dice 6 …"), so that a choice among hundreds is made in
// a few picks. The menu's custom_id names only the game and the version;
// the partial choice travels in the option values, which only the user sees.
// label, what p asks in the user's language, is the placeholder of the top
// menu; game writes what each action does.
func choiceMenu(label string, words *wording.Words, g *storage.Game, st engine.State, p engine.Prompt, prefix string) []discordgo.MessageComponent {
	opts := menuOptions(words, st, p.Seat, p.Actions, prefix)
	for len(opts) == 1 && !slices.Contains(p.Actions, opts[0].Value) {
		prefix = opts[0].Value // one way on: take it ("dice" before "dice 6")
		opts = menuOptions(words, st, p.Seat, p.Actions, prefix)
	}
	if len(opts) == 0 {
		return nil
	}
	id := componentID(g.Guard(), verbPick, dmArg+roundTag(st))
	placeholder := label
	if prefix != "" {
		placeholder = prefix + " …"
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: id, Placeholder: placeholder, Options: opts},
	}}}
}

// menuOptions lists the actions that start with prefix, or their next words
// when they do not fit in one menu; nil when even those do not fit.
func menuOptions(words *wording.Words, st engine.State, seat engine.Seat, actions []string, prefix string) []discordgo.SelectMenuOption {
	var matching []string
	for _, a := range actions {
		if prefix == "" || strings.HasPrefix(a, prefix+" ") {
			matching = append(matching, a)
		}
	}
	var opts []discordgo.SelectMenuOption
	if len(matching) <= transport.MaxSelectOptions {
		for _, a := range matching {
			opts = append(opts, discordgo.SelectMenuOption{Label: a, Value: a, Description: optionDescription(words, st, seat, a)})
		}
		return opts
	}
	for _, a := range matching {
		word, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(a, prefix)), " ")
		key := strings.TrimSpace(prefix + " " + word)
		if slices.ContainsFunc(opts, func(o discordgo.SelectMenuOption) bool { return o.Value == key }) {
			continue
		}
		if len(opts) == transport.MaxSelectOptions || utf8.RuneCountInString(key) > 100 {
			return nil
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: key + " …", Value: key})
	}
	return opts
}

// dmArg starts the custom_id argument of a DM menu; the round tag follows.
const dmArg = "dm-"

// roundTag names the phase a game is in (a short hash of its phase label,
// which names the round), so that a DM menu drawn for one round is refused
// in the next, while the other players' choices in the same round (which
// change the state's version) leave it usable.
func roundTag(st engine.State) string {
	h := fnv.New32a()
	h.Write([]byte(st.Phase().Key()))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

// pick plays, or narrows down, a choice made in the menu of a DM prompt.
func (dh *dmHandler) pick(ctx context.Context, r *transport.Reply, in *interaction) error {
	if len(in.values) != 1 {
		return errPickOne
	}
	tag, ok := strings.CutPrefix(in.id.Arg, dmArg)
	if !ok {
		return errUnknownComp
	}
	g, st, err := dh.loadByID(ctx, in.id.Game)
	if err != nil {
		return err
	}
	if tag != roundTag(st) || !g.Extends(in.id.Revision) {
		// the round is over, or an undo took back the history the menu
		// was drawn in (a new prompt was sent for the history as it is)
		return r.Update(transport.Message{Content: in.tr.T("dm.moved_on", "ID", g.ID), Components: []discordgo.MessageComponent{}})
	}
	user, value := in.user.ID, in.values[0]
	if narrowed, err := dh.narrowChoice(r, in.tr, g, st, user, value); narrowed || err != nil {
		return err
	}
	return r.Update(transport.Message{Content: dh.playFromDM(ctx, in.tr, g, user, value, in.ID, table.Offer{Revision: in.id.Revision, Hold: table.HoldHistory}), Components: []discordgo.MessageComponent{}})
}

// loadByID loads a running game by its id.
func (dh *dmHandler) loadByID(ctx context.Context, id uint64) (*storage.Game, engine.State, error) {
	g, err := dh.store.GetByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if !g.Status.Active() {
		return nil, nil, refuseWith("dm.over", "ID", g.ID)
	}
	full, st, err := dh.store.Load(ctx, g.Channel)
	if err != nil {
		return nil, nil, err
	}
	if full.ID != id {
		return nil, nil, refuseWith("dm.over", "ID", id)
	}
	if full.Status != storage.StatusRunning {
		return nil, nil, table.ErrNotRunning
	}
	return full, st, nil
}

// narrowChoice answers a DM menu pick that is only the start of an action
// with a menu of what may follow it. It reports false when value is not
// such a start (then it is played as an action).
func (dh *dmHandler) narrowChoice(r *transport.Reply, tr *locale.Printer, full *storage.Game, st engine.State, user, value string) (bool, error) {
	p, ok := answerableSecretPrompt(full, st, user)
	if !ok || slices.Contains(p.Actions, value) {
		return false, nil
	}
	words := gameWords(tr, dh.games, full.Kind)
	label := words.Label(p)
	menu := choiceMenu(label, words, full, st, p, value)
	if menu == nil {
		return false, nil
	}
	return true, r.Update(transport.Message{Content: tr.T("dm.narrowed", "ID", full.ID, "Label", label, "Value", value), Components: menu})
}
