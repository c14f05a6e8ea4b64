package bot

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// maxChoices is Discord's limit on autocomplete choices.
const maxChoices = 25

// autocomplete suggests, as the user types, the legal actions (/play), the
// free actions (/free), game options, computer players and rules topics.
// Suggestions are shown only to the user typing.
func (b *Bot) autocomplete(r *reply, i *discordgo.Interaction) error {
	data := i.ApplicationCommandData()
	opt, sub := focused(data.Options)
	if opt == nil {
		return r.choices(nil)
	}
	typed, _ := opt.Value.(string)
	var list []string
	switch {
	case data.Name == cmdPlay || data.Name == cmdFree:
		list = b.legalFor(i, data.Name == cmdFree)
	case data.Name == cmdLobby && sub == subNew && opt.Name == optOptions:
		list = b.optionChoices(data)
	case data.Name == cmdLobby && sub == subAddAI:
		if rules, err := b.channelRules(i); err == nil {
			list = ai.Names(rules)
		}
	case data.Name == cmdGame && sub == subRules:
		if rules, err := b.channelRules(i); err == nil {
			if book, ok := rules.(engine.Rulebook); ok {
				for _, t := range book.Topics() {
					list = append(list, t.Name)
				}
			}
		}
	}
	return r.choices(matchChoices(list, typed))
}

// legalFor lists the user's legal actions in the channel's game: their
// prompts' actions, or their free actions.
func (b *Bot) legalFor(i *discordgo.Interaction, free bool) []string {
	g, st, err := b.store.Load(i.ChannelID)
	if err != nil || g.Status != storage.StatusRunning {
		return nil
	}
	var out []string
	for _, seat := range seatsOf(g, userOf(i).ID) {
		if free {
			out = append(out, st.FreeActions(seat)...)
			continue
		}
		for _, p := range promptsOf(st, seat) {
			out = append(out, p.Actions...)
		}
		out = append(out, st.FreeActions(seat)...)
	}
	return out
}

// optionChoices suggests name=value pairs for the chosen game's options.
func (b *Bot) optionChoices(data discordgo.ApplicationCommandInteractionData) []string {
	_, opts := subcommand(data.Options)
	rules, err := b.games.Lookup(opts.str(optGame))
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
}

// matchChoices keeps the entries that contain every typed word, prefix
// matches first, at most maxChoices.
func matchChoices(list []string, typed string) []*discordgo.ApplicationCommandOptionChoice {
	words := strings.Fields(strings.ToLower(typed))
	var first, rest []string
	for _, s := range list {
		if utf8.RuneCountInString(s) > 100 || slices.Contains(first, s) || slices.Contains(rest, s) {
			continue
		}
		low := strings.ToLower(s)
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(low, w)
		}
		switch {
		case !ok:
		case strings.HasPrefix(low, strings.ToLower(canonical(typed))):
			first = append(first, s)
		default:
			rest = append(rest, s)
		}
	}
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, s := range append(first, rest...) {
		if len(out) == maxChoices {
			break
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: s, Value: s})
	}
	return out
}
