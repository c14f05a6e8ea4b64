package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"strconv"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// dmPrompts sends secret prompts by DM to the players who take their
// secret choices there, once a round, and remembers which prompt each was
// sent (prompted) so that a DM answering it is checked against it. The
// publisher sends them; the DM handler reads prompted.
type dmPrompts struct {
	settings settingsStore
	games    *engine.Registry
	send     *transport.Sender
	log      *slog.Logger
	now      func() time.Time
	langs    *languages
	// menusOnly: no gateway reads DMs typed as text (Config.NoGateway),
	// so a prompt asks for a pick from its menus only
	menusOnly bool
	prompted  promptsSent
}

// forgetGame drops what is kept about a game that ended.
func (dp *dmPrompts) forgetGame(game uint64) {
	dp.prompted.mu.Lock()
	defer dp.prompted.mu.Unlock()
	delete(dp.prompted.round, game)
	delete(dp.prompted.sent, game)
}

// secretPromptsDue lists the seats whose open secret prompt is to be sent
// by DM now: those of players who take secret choices by DM, once a round.
// It counts them as sent.
func (dp *dmPrompts) secretPromptsDue(ctx context.Context, g *storage.Game, st engine.State) []engine.Seat {
	// an undo back into a round asks again: the prompt sent before it
	// belongs to the history taken back
	tag := roundTag(st) + "." + strconv.FormatUint(g.Rewound, 36)
	var due []engine.Seat
	for n, s := range g.Seats {
		seat, user := engine.Seat(n), s.User
		if user == "" {
			continue
		}
		p, ok := openSecretPrompt(g, st, user)
		if !ok || p.Seat != seat {
			continue
		}
		prefs, err := dp.settings.UserPrefs(ctx, user)
		if err != nil || prefs.Secrets != storage.SecretsDM || !dp.prompted.first(g.ID, seat, user, tag) {
			continue
		}
		due = append(due, seat)
	}
	return due
}

// sendSecretPrompts DMs their open secret prompt to the players of the
// seats due (secretPromptsDue). It returns the players Discord refused to
// DM (they do not accept DMs): from now on they are asked privately in the
// channel, and the caller tells them so there.
func (dp *dmPrompts) sendSecretPrompts(ctx context.Context, g *storage.Game, st engine.State, due []engine.Seat) (closed []string) {
	for _, seat := range due {
		user := g.Seats[seat].User
		p, ok := openSecretPrompt(g, st, user)
		if !ok {
			continue
		}
		sentAt := dp.now()
		if err := dp.dmPrompt(ctx, g, st, user, p); err != nil {
			if transport.IsCannotDM(err) {
				if dp.dmsClosed(ctx, g, user) {
					closed = append(closed, user)
				}
				continue
			}
			dp.log.Warn("sending a secret prompt by DM failed", "game", g.ID, "err", transport.DescribeError(err))
			continue
		}
		dp.prompted.record(g.ID, user, g.Revision, sentAt)
	}
	return closed
}

// dmsClosed remembers that Discord refuses DMs to user: from now on their
// secret choices are asked privately in the channel, until they choose DMs
// again with /game prefs.
func (dp *dmPrompts) dmsClosed(ctx context.Context, g *storage.Game, user string) bool {
	if _, err := dp.settings.UpdateUserPrefs(ctx, user, func(prefs *storage.UserPrefs) error {
		prefs.Secrets = storage.SecretsEphemeral
		return nil
	}); err != nil {
		dp.log.Warn("saving that a user's DMs are closed failed", "game", g.ID, "err", err)
		return false
	}
	return true
}

// dmPrompt sends a secret prompt by DM, with select menus of the legal
// choices when they fit (5 menus of 25).
func (dp *dmPrompts) dmPrompt(ctx context.Context, g *storage.Game, st engine.State, user string, p engine.Prompt) error {
	tr := dp.langs.user(ctx, user)
	title := kindTitle(tr, dp.games, g.Kind)
	example := ""
	if len(p.Actions) > 0 {
		example = p.Actions[len(p.Actions)-1]
	}
	words := gameWords(tr, dp.games, g.Kind)
	label := words.Label(p)
	m := transport.Message{Content: tr.T("dm.prompt", "Game", title, "ID", g.ID, "Channel", g.Channel, "Label", label, "Example", example)}
	if dp.menusOnly {
		m.Content = tr.T("dm.prompt_menus", "Game", title, "ID", g.ID, "Channel", g.Channel, "Label", label)
	}
	m.Components = choiceMenu(label, words, g, st, p, "")
	_, err := dp.send.DM(user, m)
	return err
}
