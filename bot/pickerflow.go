package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/picker"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// pickerHandler walks a player through the actions of a prompt too large
// for one select menu: the board offers a button; it opens a private
// message with a menu of at most 25 choices, a word at a time (place › 6 ›
// patent › 1), updated in place at every step, with a back button. The
// menus come from the prompt's own legal actions (package picker), rebuilt
// at every click from the game's state: a custom_id carries only the game,
// its version, the seat and the indexes chosen so far, so nothing secret
// and nothing stale can travel in it.
type pickerHandler struct {
	store gameStore
	ref   *table.Referee
	pub   *publisher
}

func (pk *pickerHandler) register(rt *router) error {
	return errors.Join(
		rt.component(verbTree, onButton, inGuild, pk.step),
		rt.component(verbTreeStep, onSelect, inGuild, pk.step),
		rt.component(verbTreeBack, onButton, inGuild, pk.step),
	)
}

// secretTree marks a picker for a secret choice in its custom_id: "s"
// alone on the board's button (whoever clicks picks their own), then "s"
// before the seat.
const secretTree = "s"

// roundSep ends a secret picker's argument with the round it was drawn in
// (roundTag), so that it is refused in the next round.
const roundSep = "~"

// treeArg writes a picker custom_id's argument: the seat, then the indexes
// chosen so far: "2" (the top menu of seat P3), "2.4.0"; "s2.4.0" for a
// secret choice. The indexes name menu positions, never an action.
func treeArg(secret bool, seat engine.Seat, path []int) string {
	parts := []string{strconv.Itoa(int(seat))}
	for _, i := range path {
		parts = append(parts, strconv.Itoa(i))
	}
	arg := strings.Join(parts, ".")
	if secret {
		arg = secretTree + arg
	}
	return arg
}

// parseTreeArg reads treeArg's output. seat is -1 for the board's secret
// button, which names no seat.
func parseTreeArg(arg string) (secret bool, seat engine.Seat, path []int, ok bool) {
	arg, secret = strings.CutPrefix(arg, secretTree)
	if secret && arg == "" {
		return true, -1, nil, true
	}
	parts := strings.Split(arg, ".")
	if len(parts) > picker.MaxTaps+1 {
		return false, 0, nil, false
	}
	var nums []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= 100 || strconv.Itoa(n) != p {
			return false, 0, nil, false
		}
		nums = append(nums, n)
	}
	return secret, engine.Seat(nums[0]), nums[1:], true
}

// treeActions are the actions the picker offers seat: those of its open
// public prompts, or of the secret choice it may make (or still change).
func treeActions(st engine.State, seat engine.Seat, secret bool) []string {
	prompts := table.PromptsOf(st, seat)
	if secret {
		prompts = table.ChoicesOf(st, seat)
	}
	var out []string
	for _, p := range prompts {
		if p.Secret == secret {
			out = append(out, p.Actions...)
		}
	}
	return out
}

// secretTreeButton is the board's button that opens the picker for the
// clicker's own secret choice, beside the one that opens the form.
func secretTreeButton(tr *locale.Printer, g *storage.Game) discordgo.MessageComponent {
	id := componentID(g.Guard(), verbTree, secretTree)
	return discordgo.Button{Label: tr.T("play.tree_button"), Style: discordgo.SecondaryButton, CustomID: id, Emoji: &discordgo.ComponentEmoji{Name: "🔒"}}
}

// treeButton is the board's button that opens the picker for a prompt too
// large for a select menu.
func treeButton(tr *locale.Printer, g *storage.Game, p engine.Prompt) (discordgo.MessageComponent, bool) {
	id := componentID(g.Guard(), verbTree, treeArg(false, p.Seat, nil))
	if !fitsCustomID(id) {
		return nil, false
	}
	who := fmt.Sprintf("P%d", p.Seat+1)
	if s := g.Seats[p.Seat]; s.Name != "" {
		who = s.Name
	}
	return discordgo.Button{Label: transport.Clip(tr.T("play.tree_choose", "Name", who), transport.MaxLabel), Style: discordgo.PrimaryButton, CustomID: id}, true
}

// step answers a picker button or menu: it opens the top menu (from the
// board), goes back a step, goes into a submenu, or plays the action chosen.
func (pk *pickerHandler) step(ctx context.Context, r *transport.Reply, in *interaction) error {
	id := in.id
	arg, round, _ := strings.Cut(id.Arg, roundSep)
	secret, seat, path, ok := parseTreeArg(arg)
	if !ok {
		return errUnknownComp
	}
	if id.Verb == verbTreeStep {
		if len(in.values) != 1 {
			return errPickOne
		}
		n, err := strconv.Atoi(in.values[0])
		if err != nil || n < 0 {
			return errUnknownComp
		}
		path = append(path, n)
	}
	g, st, err := pk.store.Load(ctx, in.ChannelID)
	if err != nil {
		return err
	}
	switch {
	case g.ID != id.Game:
		return table.ErrForeign
	case g.Status != storage.StatusRunning:
		return table.ErrNotRunning
	case g.Revision != id.Revision && !secret:
		return table.ErrStaleClick
	case secret && (round != "" && round != roundTag(st) || !g.Extends(id.Revision)):
		// a secret choice stays open while others choose theirs: its
		// picker carries the round it was drawn in, and is refused once
		// the round is over or an undo took back the history it was
		// drawn in
		return table.ErrStaleClick
	}
	seats := table.SeatsOf(g, in.user.ID)
	if len(seats) == 0 {
		return table.ErrNotSeated
	}
	if seat < 0 { // the board's secret button: the clicker's own choice
		p, ok := answerableSecretPrompt(g, st, in.user.ID)
		if !ok {
			return errNoSecret
		}
		seat = p.Seat
	}
	if !slices.Contains(seats, seat) {
		return table.ErrNotYours
	}
	// the board's button opens a private picker; the picker's own menu
	// and back button update it in place
	fromBoard := id.Verb == verbTree
	actions := treeActions(st, seat, secret)
	if len(actions) == 0 {
		return table.ErrStaleClick
	}
	tree := picker.New(actions)
	if len(path) > 0 {
		parent, err := tree.At(path[:len(path)-1])
		if err != nil {
			return table.ErrStaleClick
		}
		last := path[len(path)-1]
		if last >= len(parent.Choices) {
			return table.ErrStaleClick
		}
		if action := parent.Choices[last].Action; action != "" {
			return pk.play(ctx, r, in, g, id.Revision, action, secret)
		}
	}
	menu, err := tree.At(path)
	if err != nil {
		return table.ErrStaleClick
	}
	m := treeMessage(in.tr, pk.pub.look.words(in.tr, g.Kind), g, st, secret, seat, path, menu)
	if fromBoard {
		return r.Message(m)
	}
	return r.Update(m)
}

// play plays the chosen action and turns the private menu into its
// confirmation.
func (pk *pickerHandler) play(ctx context.Context, r *transport.Reply, in *interaction, g *storage.Game, drawn uint64, action string, secret bool) error {
	req := table.Request{Channel: in.ChannelID, User: in.user.ID, Game: g.ID, Offered: table.Offer{Revision: g.Revision, Hold: table.HoldRevision}, Text: action, Key: in.ID}
	if secret {
		req.Offered = table.Offer{Revision: drawn, Hold: table.HoldHistory}
	}
	out, err := pk.ref.Play(ctx, req)
	if err != nil {
		if out != nil {
			pk.pub.notify(out)
		}
		return err
	}
	err = r.Update(transport.Message{Content: privateConfirmation(in.tr, out), Components: []discordgo.MessageComponent{}})
	pk.pub.notifyVia(out, r, nil) // a new board follows the private answer publicly
	return err
}

// treeMessage is one step of the picker: what is chosen so far, a menu of
// the next choices and, below the top, a back button.
// It is written in words' language; game writes the game's texts.
func treeMessage(tr *locale.Printer, words *wording.Words, g *storage.Game, st engine.State, secret bool, seat engine.Seat, path []int, menu *picker.Menu) transport.Message {
	label := promptLabel(words, st, seat)
	if secret {
		if p, ok := answerableSecretPrompt(g, st, g.Seats[seat].User); ok {
			label = words.Label(p)
		}
	}
	var sb strings.Builder
	sb.WriteString(tr.T("play.tree_head", "ID", g.ID, "Seat", int(seat)+1, "Label", label))
	if menu.Prefix != "" {
		sb.WriteString("\n" + tr.T("play.so_far", "Prefix", menu.Prefix))
	}
	round := ""
	if secret {
		round = roundSep + roundTag(st)
	}
	id := componentID(g.Guard(), verbTreeStep, treeArg(secret, seat, path)+round)
	opts := make([]discordgo.SelectMenuOption, len(menu.Choices))
	for i, c := range menu.Choices {
		text := c.Label
		if c.Action == "" {
			text += " …"
		}
		opts[i] = discordgo.SelectMenuOption{Label: transport.Clip(text, 100), Value: strconv.Itoa(i)}
		if c.Action != "" {
			opts[i].Description = optionDescription(words, st, seat, c.Action)
		} else {
			// a submenu's label is notation, the words typed alike in every
			// language; what lies behind it is said in the player's own
			count, first := c.Below()
			opts[i].Description = transport.Clip(tr.T("play.tree_below", "Count", count, "First", describe(words, st, seat, first)), maxDescription)
		}
	}
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: id, Placeholder: transport.Clip(tr.T("play.tree_placeholder", "Label", label), 150), Options: opts},
	}}}
	if len(path) > 0 {
		back := componentID(g.Guard(), verbTreeBack, treeArg(secret, seat, path[:len(path)-1])+round)
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr.T("play.back"), Style: discordgo.SecondaryButton, CustomID: back, Emoji: &discordgo.ComponentEmoji{Name: "◀️"}},
		}})
	}
	return transport.Message{Content: sb.String(), Components: rows, Private: true}
}
