package bot

import (
	"context"
	"errors"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// modalInput is the custom_id of the text input in the secret-choice form.
const modalInput = "choice"

// playHandler takes players' actions in a guild channel: /play and /free,
// the board's buttons and select menus, the secret-choice button and its
// private form, and the DM menus of secret prompts.
type playHandler struct {
	store gameStore
	games *engine.Registry
	ref   *table.Referee
	pub   *publisher
	dms   *dmHandler
}

func (ph *playHandler) register(rt *router) error {
	return errors.Join(
		rt.commandWithChoices(cmdPlay, ph.playCommand, ph.suggest),
		rt.commandWithChoices(cmdFree, ph.playCommand, ph.suggest),
		rt.component(verbAct, onButton, inGuild, ph.boardComponent),
		rt.component(verbPick, onSelect, anywhere, ph.pickComponent),
		rt.formOpener(verbSecret, inGuild, ph.secretButton),
		rt.component(verbModal, onForm, inGuild, ph.secretForm),
	)
}

// suggest lists the user's legal actions in the channel's game: their
// prompts' actions and free actions (/play), or only the free ones (/free),
// each shown with what it does (see suggestion). Each choice's value
// carries the game and the revision the list was drawn at (listValue), so
// that a choice from a list the game has since taken back, or from
// another game's, is refused rather than played.
func (ph *playHandler) suggest(ctx context.Context, in *interaction) choiceList {
	g, st, err := ph.store.Load(ctx, in.ChannelID)
	if err != nil || g.Status != storage.StatusRunning {
		return choiceList{}
	}
	words := gameWords(in.tr, ph.games, g.Kind) // what each action does, in the reader's language
	var out []string
	for _, seat := range table.SeatsOf(g, in.user.ID) {
		var actions []string
		if in.name != cmdFree {
			for _, p := range table.PromptsOf(st, seat) {
				actions = append(actions, p.Actions...)
			}
		}
		for _, a := range append(actions, st.FreeActions(seat)...) {
			out = append(out, suggestion(words, st, seat, a))
		}
	}
	return choiceList{texts: out, value: func(action string) string { return listValue(g.Guard(), action) }}
}

// listValue is the value of an autocomplete choice of action drawn for
// game at: "m2:<game>:<revision>:<action>" (base 36), or the action
// alone when that would not fit Discord's 100 characters (then it is
// played as if typed).
func listValue(at storage.Guard, action string) string {
	v := stamp(at.Game, at.Revision) + ":" + action
	if utf8.RuneCountInString(v) > maxChoiceValue {
		return action
	}
	return v
}

// maxChoiceValue is Discord's limit on an autocomplete choice's value.
const maxChoiceValue = 100

// parseListValue reads an action sent from /play's list (listValue): the
// game and revision it was drawn for, and the action. ok is false for
// text the player typed.
func parseListValue(v string) (game, revision uint64, action string, ok bool) {
	parts := strings.SplitN(v, ":", 4)
	game, revision, ok = readStamp(parts)
	if len(parts) != 4 || !ok || game == 0 || revision == 0 {
		return 0, 0, "", false
	}
	return game, revision, parts[3], true
}

// pickComponent plays the value picked in a select menu: on the board, or
// in a DM prompt (then the DM handler takes it).
func (ph *playHandler) pickComponent(ctx context.Context, r *transport.Reply, in *interaction) error {
	if in.inDM() {
		return ph.dms.pick(ctx, r, in)
	}
	return ph.boardComponent(ctx, r, in)
}

// boardComponent plays the action of a board button or select menu and
// answers by updating the board the click was on.
func (ph *playHandler) boardComponent(ctx context.Context, r *transport.Reply, in *interaction) error {
	id := in.id
	req := table.Request{Channel: in.ChannelID, User: in.user.ID, Game: id.Game, Offered: table.Offer{Revision: id.Revision, Hold: table.HoldRevision}, Text: id.Arg, Key: in.ID}
	if id.Verb == verbPick {
		if len(in.values) != 1 {
			return errPickOne
		}
		req.Text = in.values[0]
		if n, err := strconv.Atoi(id.Arg); err == nil {
			seat := engine.Seat(n)
			req.MenuSeat = &seat
		}
	}
	out, err := ph.ref.Play(ctx, req)
	if errors.Is(err, table.ErrStaleClick) && in.message != nil {
		ph.pub.repairStale(ctx, in.ChannelID, in.message.ID) // a board left behind by a lost delivery
	}
	if err != nil {
		if out != nil {
			ph.pub.notify(out)
		}
		return err
	}
	ph.pub.notifyVia(out, r, in.message)
	if len(out.Private) > 0 || out.Recorded {
		return r.Message(transport.Message{Content: privateConfirmation(in.tr, out), Private: true})
	}
	return nil
}

// secretForm plays the text of the private form.
func (ph *playHandler) secretForm(ctx context.Context, r *transport.Reply, in *interaction) error {
	if strings.TrimSpace(in.text) == "" {
		return table.ErrBlankChoice
	}
	// a secret choice stays valid while its prompt is open, whoever else
	// acts meanwhile, unless an undo took back the history it was asked in
	out, err := ph.ref.Play(ctx, table.Request{Channel: in.ChannelID, User: in.user.ID, Game: in.id.Game, Offered: table.Offer{Revision: in.id.Revision, Hold: table.HoldHistory}, Text: in.text, Key: in.ID})
	if err != nil || in.message == nil {
		return ph.answerPrivately(r, in, out, err)
	}
	// the form was opened from the board: its answer updates the board,
	// then tells the player privately
	ph.pub.notifyVia(out, r, in.message)
	return r.Message(transport.Message{Content: privateConfirmation(in.tr, out), Private: true})
}

// answerPrivately tells the actor privately what they did, then publishes
// the change with r's help (see publisher.notifyVia).
func (ph *playHandler) answerPrivately(r *transport.Reply, in *interaction, out *table.Outcome, err error) error {
	if err != nil {
		if out != nil {
			ph.pub.notify(out)
		}
		return err
	}
	err = r.Message(transport.Message{Content: privateConfirmation(in.tr, out), Private: true})
	ph.pub.notifyVia(out, r, nil)
	return err
}

func modalValue(rows []discordgo.MessageComponent) string {
	for _, row := range rows {
		ar, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range ar.Components {
			if in, ok := c.(*discordgo.TextInput); ok && in.CustomID == modalInput {
				return in.Value
			}
		}
	}
	return ""
}

// privateConfirmation tells the actor what they did, in p's language,
// with their private events; for a secret choice it says who else can see
// it (nobody).
func privateConfirmation(p *locale.Printer, out *table.Outcome) string {
	var sb strings.Builder
	if out.Recorded {
		sb.WriteString(p.T(recordedNote) + "\n")
	}
	sb.WriteString(p.T("play.played", "ID", out.Game.ID, "Action", out.Action))
	if out.Secret {
		sb.WriteString(" " + p.T("play.secret_note"))
		if !out.Revealed() {
			sb.WriteString(" " + p.T("play.change_note"))
		}
	}
	words := wording.ForRules(p, out.Rules, nil)
	for _, e := range out.Private {
		sb.WriteString("\n• " + words.Event(e))
	}
	return sb.String()
}

// playCommand handles /play and /free.
func (ph *playHandler) playCommand(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, text := in.Interaction, in.opts.str(optAction)
	if text == "" {
		return refuseWith("play.say_action")
	}
	// every /play answer is private, so a secret choice never shows: it is
	// acknowledged privately at once, before the game is loaded and the
	// action stored, and the answer fills that in
	r.DeferMessage(true)
	req := table.Request{Channel: i.ChannelID, User: userOf(i).ID, Text: text, Key: i.ID}
	if game, revision, action, ok := parseListValue(text); ok {
		// picked from the list: it holds only while the game's history
		// still extends the one the list was drawn for
		req.Game, req.Offered, req.Text = game, table.Offer{Revision: revision, Hold: table.HoldHistory}, action
	}
	out, err := ph.ref.Play(ctx, req)
	return ph.answerPrivately(r, in, out, err)
}

// secretButton opens the private form for the clicker's secret prompt.
func (ph *playHandler) secretButton(ctx context.Context, r *transport.Reply, in *interaction) error {
	i, id := in.Interaction, in.id
	g, st, err := ph.store.Load(ctx, i.ChannelID)
	if err != nil {
		return err
	}
	if g.ID != id.Game {
		return table.ErrForeign
	}
	if g.Status != storage.StatusRunning {
		return table.ErrNotRunning
	}
	p, ok := answerableSecretPrompt(g, st, userOf(i).ID)
	if !ok {
		if len(table.SeatsOf(g, userOf(i).ID)) == 0 {
			return table.ErrNotSeated
		}
		return errNoSecret
	}
	mid := componentID(g.Guard(), verbModal, "")
	example := ""
	if len(p.Actions) > 0 {
		example = in.tr.T("play.form_example", "Action", p.Actions[len(p.Actions)-1])
	}
	return r.Modal(&discordgo.InteractionResponseData{
		CustomID: mid,
		Title:    in.tr.T("play.form_title", "ID", g.ID),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: modalInput, Label: ph.pub.look.words(in.tr, g.Kind).Label(p), Style: discordgo.TextInputShort,
				Placeholder: example, Required: true, MaxLength: 200},
		}}},
	})
}

// answerableSecretPrompt finds the secret prompt user may answer now: an open one,
// or one already answered that the rules still let them change (then a new
// answer replaces it).
func answerableSecretPrompt(g *storage.Game, st engine.State, user string) (engine.Prompt, bool) {
	for _, seat := range table.SeatsOf(g, user) {
		for _, p := range table.ChoicesOf(st, seat) {
			if p.Secret {
				return p, true
			}
		}
	}
	return engine.Prompt{}, false
}

// openSecretPrompt finds user's open secret prompt in the game.
func openSecretPrompt(g *storage.Game, st engine.State, user string) (engine.Prompt, bool) {
	for _, seat := range table.SeatsOf(g, user) {
		for _, p := range table.PromptsOf(st, seat) {
			if p.Secret {
				return p, true
			}
		}
	}
	return engine.Prompt{}, false
}
