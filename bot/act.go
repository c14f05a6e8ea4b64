package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// modalInput is the custom_id of the text input in the secret-choice form.
const modalInput = "choice"

// actComponent plays the action of a button, a select menu or a submitted
// form, on the board or in a DM.
func (b *Bot) actComponent(r *reply, i *discordgo.Interaction, id customID) error {
	req := request{channel: i.ChannelID, user: userOf(i).ID, game: id.Game, version: id.Version}
	inDM := i.GuildID == ""
	switch id.Verb {
	case verbAct:
		req.text = id.Arg
	case verbPick:
		values := i.MessageComponentData().Values
		if len(values) != 1 {
			return refuse("Pick one option.")
		}
		req.text = values[0]
		if seat, err := strconv.Atoi(id.Arg); err == nil && !inDM {
			if err := b.checkSeat(i.ChannelID, req.user, engine.Seat(seat)); err != nil {
				return err
			}
		}
	case verbModal:
		req.text = modalValue(i.ModalSubmitData().Components)
		req.version = -1 // a secret choice stays valid while its prompt is open
	}
	if inDM {
		g, err := b.store.GetByID(id.Game)
		if err != nil {
			return err
		}
		if !g.Status.Active() {
			return refuse("Game #%d is over.", g.ID)
		}
		req.channel, req.version = g.Channel, -1
		if id.Verb == verbPick {
			if narrowed, err := b.narrowChoice(r, g, req.user, req.text); narrowed || err != nil {
				return err
			}
		}
	}
	if id.Verb == verbAct || (id.Verb == verbPick && !inDM) {
		r.deferUpdate()
	}
	out, err := b.play(req)
	if out != nil {
		b.pub.notify(out)
	}
	if err != nil {
		return err
	}
	switch {
	case inDM:
		return r.update(msg{Content: b.privateConfirmation(out)})
	case id.Verb == verbModal:
		return r.message(msg{Content: b.privateConfirmation(out), Private: true})
	case len(out.private) > 0:
		return r.message(msg{Content: b.privateConfirmation(out), Private: true})
	}
	return nil
}

// checkSeat refuses a user who does not hold seat in channel's game.
func (b *Bot) checkSeat(channel, user string, seat engine.Seat) error {
	g, err := b.store.Get(channel)
	if err != nil {
		return err
	}
	seats := seatsOf(g, user)
	if len(seats) == 0 {
		return errNotSeated
	}
	for _, s := range seats {
		if s == seat {
			return nil
		}
	}
	return errNotYours
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

// privateConfirmation tells the actor what they did, with their private
// events; for a secret choice it says who else can see it (nobody).
func (b *Bot) privateConfirmation(out *outcome) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Game #%d: you played `%s`.", out.game.ID, out.action)
	if out.secret {
		sb.WriteString(" Only you can see this; the others see that you have chosen.")
		if !out.revealed() {
			sb.WriteString(" To change it before it is revealed, send another choice.")
		}
	}
	for _, e := range out.private {
		sb.WriteString("\n• " + e.Text)
	}
	return clip(sb.String(), 1900)
}

// playCommand handles /play and /free.
func (b *Bot) playCommand(r *reply, i *discordgo.Interaction, free bool, text string) error {
	if text == "" {
		return refuse("Say which action, e.g. `/play action:...`; the list shows the legal ones as you type.")
	}
	// every /play answer is private, so a secret choice never shows; a slow
	// answer is deferred privately by the reply's timer
	out, err := b.play(request{channel: i.ChannelID, user: userOf(i).ID, version: -1, text: text, free: free})
	if out != nil {
		b.pub.notify(out)
	}
	if err != nil {
		return err
	}
	return r.message(msg{Content: b.privateConfirmation(out), Private: true})
}

// secretButton opens the private form for the clicker's secret prompt.
func (b *Bot) secretButton(r *reply, i *discordgo.Interaction, id customID) error {
	g, st, err := b.store.Load(i.ChannelID)
	if err != nil {
		return err
	}
	if g.ID != id.Game {
		return errForeign
	}
	if g.Status != storage.StatusRunning {
		return errNotRunning
	}
	p, ok := secretChoice(g, st, userOf(i).ID)
	if !ok {
		if len(seatsOf(g, userOf(i).ID)) == 0 {
			return errNotSeated
		}
		return refuse("You have no secret choice to make right now.")
	}
	mid, _ := customID{Game: g.ID, Version: g.Version, Verb: verbModal}.encode()
	example := ""
	if len(p.Actions) > 0 {
		example = "e.g. " + p.Actions[len(p.Actions)-1]
	}
	return r.modal(&discordgo.InteractionResponseData{
		CustomID: mid,
		Title:    clip(fmt.Sprintf("Game #%d: your secret choice", g.ID), 45),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: modalInput, Label: clip(p.Label, 45), Style: discordgo.TextInputShort,
				Placeholder: clip(example, 100), Required: true, MaxLength: 200},
		}}},
	})
}

// secretChoice finds the secret prompt user may answer now: an open one,
// or one already answered that the rules still let them change (then a new
// answer replaces it).
func secretChoice(g *storage.Game, st engine.State, user string) (engine.Prompt, bool) {
	for _, seat := range seatsOf(g, user) {
		for _, p := range choicesOf(st, seat) {
			if p.Secret {
				return p, true
			}
		}
	}
	return engine.Prompt{}, false
}

// secretPromptOf finds user's open secret prompt in the game.
func secretPromptOf(g *storage.Game, st engine.State, user string) (engine.Prompt, bool) {
	for _, seat := range seatsOf(g, user) {
		for _, p := range promptsOf(st, seat) {
			if p.Secret {
				return p, true
			}
		}
	}
	return engine.Prompt{}, false
}
