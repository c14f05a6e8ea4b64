package bot

import (
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// matchChoices keeps the entries that contain every typed word, prefix
// matches first, at most maxChoices. An entry "value\tname" is offered as
// name (clipped to what Discord shows) and sends value.
func matchChoices(list []string, typed string) []*discordgo.ApplicationCommandOptionChoice {
	words := strings.Fields(strings.ToLower(typed))
	var first, rest []string
	for _, s := range list {
		value, _, _ := strings.Cut(s, "\t")
		if utf8.RuneCountInString(value) > 100 || slices.Contains(first, s) || slices.Contains(rest, s) {
			continue
		}
		low := strings.ToLower(s)
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(low, w)
		}
		switch {
		case !ok:
		case strings.HasPrefix(low, strings.ToLower(table.Canonical(typed))):
			first = append(first, s)
		default:
			rest = append(rest, s)
		}
	}
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, s := range append(first, rest...) {
		if len(out) == transport.MaxChoices {
			break
		}
		value, name, ok := strings.Cut(s, "\t")
		if !ok {
			name = value
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: transport.Clip(name, 100), Value: value})
	}
	return out
}
