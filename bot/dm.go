package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
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
	text string
	at   time.Time
}

func newPendingDMs() *pendingDMs { return &pendingDMs{text: map[string]pendingDM{}} }

func (p *pendingDMs) put(user, text string, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for u, d := range p.text {
		if now.Sub(d.at) > pendingTTL {
			delete(p.text, u)
		}
	}
	p.text[user] = pendingDM{text: text, at: now}
}

func (p *pendingDMs) take(user string, now time.Time) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.text[user]
	delete(p.text, user)
	return d.text, ok && now.Sub(d.at) <= pendingTTL
}

// waitingGame is a game waiting for a user's secret choice.
type waitingGame struct {
	game   *storage.Game
	prompt engine.Prompt
}

// HandleDM takes a secret choice sent to the bot by direct message, such as
// "6 5 3 1". Messages in guild channels and from bots are ignored.
func (b *Bot) HandleDM(ctx context.Context, m *discordgo.Message) {
	if m == nil || m.Author == nil || m.Author.Bot || m.GuildID != "" {
		return
	}
	text := canonical(m.Content)
	if text == "" || !b.enter() {
		return
	}
	defer b.leave()
	user := m.Author.ID
	waiting, err := b.waitingSecrets(user)
	if err != nil {
		b.log.Error("finding games for a DM failed", "err", err)
		b.dm(m.ChannelID, msg{Content: genericFailure})
		return
	}
	switch len(waiting) {
	case 0:
		b.dm(m.ChannelID, msg{Content: "None of your games is waiting for a secret choice from you. Secret choices (such as dice values) can be sent here when a game asks for them; everything else happens in the game's channel."})
	case 1:
		b.dm(m.ChannelID, msg{Content: b.playFromDM(waiting[0].game, user, text)})
	default:
		b.pending.put(user, text, b.cfg.Now())
		b.dm(m.ChannelID, b.whichGameMessage(waiting))
	}
}

// playFromDM plays text for user in g and returns the DM answer.
func (b *Bot) playFromDM(g *storage.Game, user, text string) string {
	out, err := b.play(request{channel: g.Channel, user: user, game: g.ID, version: -1, text: text})
	if out != nil {
		b.pub.notify(out)
	}
	if err != nil {
		words, unexpected := userMessage(err)
		if unexpected {
			b.log.Error("a DM choice failed", "game", g.ID, "err", err)
		}
		return fmt.Sprintf("Game #%d: %s", g.ID, words)
	}
	return b.privateConfirmation(out)
}

// waitingSecrets lists the running games with a secret prompt open for user.
func (b *Bot) waitingSecrets(user string) ([]waitingGame, error) {
	games, err := b.lists.ActiveForUser(user)
	if err != nil {
		return nil, err
	}
	var out []waitingGame
	for _, g := range games {
		if g.Status != storage.StatusRunning {
			continue
		}
		full, st, err := b.store.Load(g.Channel)
		if err != nil {
			return nil, err
		}
		if p, ok := secretChoice(full, st, user); ok {
			out = append(out, waitingGame{game: full, prompt: p})
		}
	}
	return out, nil
}

// whichGameMessage asks which of several games a DM is for.
func (b *Bot) whichGameMessage(waiting []waitingGame) msg {
	id, _ := customID{Verb: verbWhich}.encode()
	var opts []discordgo.SelectMenuOption
	for _, w := range waiting {
		if len(opts) == maxSelectOpts {
			break
		}
		title := w.game.Kind
		if rules, err := b.games.Lookup(w.game.Kind); err == nil {
			title = rules.Title()
		}
		opts = append(opts, discordgo.SelectMenuOption{
			Label: clip(fmt.Sprintf("Game #%d: %s", w.game.ID, title), maxLabel), Value: strconv.FormatUint(w.game.ID, 10),
			Description: clip(w.prompt.Label, 100),
		})
	}
	return msg{Content: "Several of your games are waiting for a secret choice. Which one is this for?",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: id, Placeholder: "Choose the game", Options: opts},
		}}}}
}

// whichGame plays the pending DM in the game the user picked.
func (b *Bot) whichGame(r *reply, i *discordgo.Interaction, _ customID) error {
	values := i.MessageComponentData().Values
	if len(values) != 1 {
		return refuse("Pick one game.")
	}
	id, err := strconv.ParseUint(values[0], 10, 64)
	if err != nil {
		return refuse("Pick one of the games listed.")
	}
	user := userOf(i).ID
	text, ok := b.pending.take(user, b.cfg.Now())
	if !ok {
		return r.update(msg{Content: "I no longer have your message (it is kept for 15 minutes); please send it again."})
	}
	g, err := b.store.GetByID(id)
	if err != nil {
		return err
	}
	if len(seatsOf(g, user)) == 0 {
		return errNotSeated
	}
	return r.update(msg{Content: b.playFromDM(g, user, text)})
}

// dm sends a message in a DM channel the user wrote in.
func (b *Bot) dm(channel string, m msg) {
	if _, err := b.sendChannel(channel, m); err != nil {
		b.log.Warn("answering a DM failed", "err", err)
	}
}

// sendSecretPrompts DMs each seat's secret prompt to users who prefer DMs.
// When Discord refuses (the user does not accept DMs), the channel is told
// to use the private button or /play instead.
func (b *Bot) sendSecretPrompts(g *storage.Game, st engine.State, seats []engine.Seat) {
	for _, seat := range seats {
		user := g.Seats[seat].User
		if user == "" {
			continue
		}
		p, ok := secretPromptOf(g, st, user)
		if !ok || p.Seat != seat {
			continue
		}
		prefs, err := b.settings.UserPrefs(user)
		if err != nil || prefs.Secrets != storage.SecretsDM {
			continue
		}
		if err := b.dmPrompt(g, user, p); err != nil {
			if isCannotDM(err) {
				b.postPublic(g.Channel, msg{Mentions: []string{user}, Content: fmt.Sprintf(
					"<@%s>, I could not send you a DM (your privacy settings block DMs from this server). Use the **Choose secretly** button on the board or `/play` here instead: your choice stays private.", user)}, g.ID)
				continue
			}
			b.log.Warn("sending a secret prompt by DM failed", "game", g.ID, "err", err)
		}
	}
}

// dmPrompt sends a secret prompt by DM, with select menus of the legal
// choices when they fit (5 menus of 25).
func (b *Bot) dmPrompt(g *storage.Game, user string, p engine.Prompt) error {
	ch, err := b.s.UserChannelCreate(user)
	if err != nil {
		return err
	}
	title := g.Kind
	if rules, err := b.games.Lookup(g.Kind); err == nil {
		title = rules.Title()
	}
	example := ""
	if len(p.Actions) > 0 {
		example = p.Actions[len(p.Actions)-1]
	}
	m := msg{Content: fmt.Sprintf("**%s**, game #%d in <#%s>: %s.\nReply here with your choice as text (for example `%s`), or pick it below. Only you see it until it is revealed.",
		title, g.ID, g.Channel, p.Label, example)}
	m.Components = choiceMenu(g, p, "")
	_, err = b.sendChannel(ch.ID, m)
	return err
}

// choiceMenu is a DM select menu for a secret prompt's actions that start
// with prefix: the actions themselves when they fit in one menu, otherwise
// their next word ("dice 6 …"), so that a choice among hundreds is made in
// a few picks. The menu's custom_id names only the game and the version;
// the partial choice travels in the option values, which only the user sees.
func choiceMenu(g *storage.Game, p engine.Prompt, prefix string) []discordgo.MessageComponent {
	opts := menuOptions(p.Actions, prefix)
	for len(opts) == 1 && !slices.Contains(p.Actions, opts[0].Value) {
		prefix = opts[0].Value // one way on: take it ("dice" before "dice 6")
		opts = menuOptions(p.Actions, prefix)
	}
	if len(opts) == 0 {
		return nil
	}
	id, _ := customID{Game: g.ID, Version: g.Version, Verb: verbPick, Arg: "dm"}.encode()
	placeholder := p.Label
	if prefix != "" {
		placeholder = prefix + " …"
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: id, Placeholder: clip(placeholder, 150), Options: opts},
	}}}
}

// menuOptions lists the actions that start with prefix, or their next words
// when they do not fit in one menu; nil when even those do not fit.
func menuOptions(actions []string, prefix string) []discordgo.SelectMenuOption {
	var matching []string
	for _, a := range actions {
		if prefix == "" || strings.HasPrefix(a, prefix+" ") {
			matching = append(matching, a)
		}
	}
	var opts []discordgo.SelectMenuOption
	if len(matching) <= maxSelectOpts {
		for _, a := range matching {
			opts = append(opts, discordgo.SelectMenuOption{Label: clip(a, maxLabel), Value: a})
		}
		return opts
	}
	for _, a := range matching {
		word, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(a, prefix)), " ")
		key := strings.TrimSpace(prefix + " " + word)
		if slices.ContainsFunc(opts, func(o discordgo.SelectMenuOption) bool { return o.Value == key }) {
			continue
		}
		if len(opts) == maxSelectOpts || utf8.RuneCountInString(key) > 100 {
			return nil
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: clip(key+" …", maxLabel), Value: key})
	}
	return opts
}

// narrowChoice answers a DM menu pick that is only the start of an action
// with a menu of what may follow it. It reports false when value is not
// such a start (then it is played as an action).
func (b *Bot) narrowChoice(r *reply, g *storage.Game, user, value string) (bool, error) {
	full, st, err := b.store.Load(g.Channel)
	if err != nil {
		return false, err
	}
	p, ok := secretChoice(full, st, user)
	if !ok || slices.Contains(p.Actions, value) {
		return false, nil
	}
	menu := choiceMenu(full, p, value)
	if menu == nil {
		return false, nil
	}
	return true, r.update(msg{Content: fmt.Sprintf("Game #%d: %s. So far: `%s …`", full.ID, p.Label, value), Components: menu})
}
