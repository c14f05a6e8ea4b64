package bot

import (
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// languages picks whose language a text is written in: a private answer
// in the language of the person who asked (their Discord client's
// locale), a public message in the server's (the language its admins
// chose with /meeple-admin settings, else the server's own locale). Any
// other language reads in English. Safe for concurrent use.
type languages struct {
	words    *locale.Catalogue
	settings interface {
		GuildSettings(guild string) (storage.GuildSettings, error)
	}
}

// person is the language of a private answer to someone whose Discord
// client reads in loc.
func (l *languages) person(loc string) *locale.Printer { return l.words.For(loc) }

// guild is the language of a public message in guild, whose own locale
// is guildLocale ("" when unknown, as at a deadline).
func (l *languages) guild(guild, guildLocale string) *locale.Printer {
	if s, err := l.settings.GuildSettings(guild); err == nil && s.Language != "" {
		return l.words.For(s.Language)
	}
	return l.words.For(guildLocale)
}

// english is for texts with no reader's locale to follow, such as DMs.
func (l *languages) english() *locale.Printer { return l.words.For(locale.English) }

// gameTitle is a game's title in p's language: the catalogue's
// (game.<kind>.title), or the rules' own for a game the catalogue lacks.
func gameTitle(p *locale.Printer, rules engine.Rules) string {
	if key := "game." + rules.Name() + ".title"; p.Has(key) {
		return p.T(key)
	}
	return rules.Title()
}

// kindTitle is the title of a game kind in p's language, or the kind
// itself for a game reg does not know.
func kindTitle(p *locale.Printer, reg *engine.Registry, kind string) string {
	if rules, err := reg.Lookup(kind); err == nil {
		return gameTitle(p, rules)
	}
	return kind
}
