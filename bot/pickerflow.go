package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/picker"
	"github.com/meeplegames/meeple/storage"
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
	ref   *referee
	pub   *publisher
}

func (b *pickerHandler) register(rt *router) error {
	return errors.Join(
		rt.component(verbTree, onButton, inGuild, b.step),
		rt.component(verbTreeStep, onSelect, inGuild, b.step),
		rt.component(verbTreeBack, onButton, inGuild, b.step),
	)
}

// treeArg writes a picker custom_id's argument: the seat, then the indexes
// chosen so far: "2" (the top menu of seat P3), "2.4.0".
func treeArg(seat engine.Seat, path []int) string {
	parts := []string{strconv.Itoa(int(seat))}
	for _, i := range path {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, ".")
}

// parseTreeArg reads treeArg's output.
func parseTreeArg(arg string) (engine.Seat, []int, bool) {
	parts := strings.Split(arg, ".")
	if len(parts) > picker.MaxTaps+1 {
		return 0, nil, false
	}
	var nums []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= 100 || strconv.Itoa(n) != p {
			return 0, nil, false
		}
		nums = append(nums, n)
	}
	return engine.Seat(nums[0]), nums[1:], true
}

// treeActions are the actions the picker offers seat: those of its open
// public prompts.
func treeActions(st engine.State, seat engine.Seat) []string {
	var out []string
	for _, p := range promptsOf(st, seat) {
		if !p.Secret {
			out = append(out, p.Actions...)
		}
	}
	return out
}

// treeButton is the board's button that opens the picker for a prompt too
// large for a select menu.
func treeButton(g *storage.Game, p engine.Prompt) (discordgo.MessageComponent, bool) {
	id, ok := customID{Game: g.ID, Version: g.Version, Verb: verbTree, Arg: treeArg(p.Seat, nil)}.encode()
	if !ok {
		return nil, false
	}
	who := fmt.Sprintf("P%d", p.Seat+1)
	if s := g.Seats[p.Seat]; s.Name != "" {
		who = s.Name
	}
	return discordgo.Button{Label: clip(who+": choose", maxLabel), Style: discordgo.PrimaryButton, CustomID: id}, true
}

// step answers a picker button or menu: it opens the top menu (from the
// board), goes back a step, goes into a submenu, or plays the action chosen.
func (b *pickerHandler) step(_ context.Context, r *reply, in *interaction) error {
	id := in.id
	seat, path, ok := parseTreeArg(id.Arg)
	if !ok {
		return errUnknownComp
	}
	if id.Verb == verbTreeStep {
		if len(in.values) != 1 {
			return refuse("Pick one option.")
		}
		n, err := strconv.Atoi(in.values[0])
		if err != nil || n < 0 {
			return errUnknownComp
		}
		path = append(path, n)
	}
	g, st, err := b.store.Load(in.ChannelID)
	if err != nil {
		return err
	}
	switch {
	case g.ID != id.Game:
		return errForeign
	case g.Status != storage.StatusRunning:
		return errNotRunning
	case g.Version != id.Version:
		return errStaleClick
	}
	seats := seatsOf(g, in.user.ID)
	if len(seats) == 0 {
		return errNotSeated
	}
	if !slices.Contains(seats, seat) {
		return errNotYours
	}
	// the board's button opens a private picker; the picker's own menu
	// and back button update it in place
	fromBoard := id.Verb == verbTree
	tree := picker.New(treeActions(st, seat))
	if len(path) > 0 {
		parent, err := tree.At(path[:len(path)-1])
		if err != nil {
			return errStaleClick
		}
		last := path[len(path)-1]
		if last >= len(parent.Choices) {
			return errStaleClick
		}
		if action := parent.Choices[last].Action; action != "" {
			return b.play(r, in, g, action)
		}
	}
	menu, err := tree.At(path)
	if err != nil {
		return errStaleClick
	}
	m := treeMessage(g, st, seat, path, menu)
	if fromBoard {
		return r.message(m)
	}
	return r.update(m)
}

// play plays the chosen action and turns the private menu into its
// confirmation.
func (b *pickerHandler) play(r *reply, in *interaction, g *storage.Game, action string) error {
	out, err := b.ref.play(request{channel: in.ChannelID, user: in.user.ID, game: g.ID, version: g.Version, text: action})
	if err != nil {
		if out != nil {
			b.pub.notify(out)
		}
		return err
	}
	err = r.update(msg{Content: privateConfirmation(out), Components: []discordgo.MessageComponent{}})
	b.pub.notify(out)
	return err
}

// treeMessage is one step of the picker: what is chosen so far, a menu of
// the next choices and, below the top, a back button.
func treeMessage(g *storage.Game, st engine.State, seat engine.Seat, path []int, menu *picker.Menu) msg {
	label := promptLabel(st, seat)
	var sb strings.Builder
	fmt.Fprintf(&sb, "Game #%d, P%d: %s.", g.ID, seat+1, label)
	if menu.Prefix != "" {
		fmt.Fprintf(&sb, "\nSo far: `%s` …", menu.Prefix)
	}
	id, _ := customID{Game: g.ID, Version: g.Version, Verb: verbTreeStep, Arg: treeArg(seat, path)}.encode()
	opts := make([]discordgo.SelectMenuOption, len(menu.Choices))
	for i, c := range menu.Choices {
		text := c.Label
		if c.Action == "" {
			text += " …"
		}
		opts[i] = discordgo.SelectMenuOption{Label: clip(text, 100), Value: strconv.Itoa(i)}
	}
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: id, Placeholder: clip("Choose: "+label, 150), Options: opts},
	}}}
	if len(path) > 0 {
		back, _ := customID{Game: g.ID, Version: g.Version, Verb: verbTreeBack, Arg: treeArg(seat, path[:len(path)-1])}.encode()
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Back", Style: discordgo.SecondaryButton, CustomID: back, Emoji: &discordgo.ComponentEmoji{Name: "◀️"}},
		}})
	}
	return msg{Content: sb.String(), Components: rows, Private: true}
}
