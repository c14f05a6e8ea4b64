package bot

import (
	"context"
	"log/slog"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// languages picks whose language a text is written in: a private answer
// in the language of the person who asked (their Discord client's
// locale), a public message in the server's (the language its admins
// chose with /meeple-admin settings, else the server's own locale). Any
// other language reads in English.
//
// Messages sent with no interaction at hand have no locale to read: a
// board edit after a deadline, a DM. For those it remembers what
// interactions told it (seen): each server's own locale, in memory, and
// each person's locale, in their stored preferences, so that a DM reads
// in the language of the person's last interaction, even after a
// restart (English before any). Safe for concurrent use.
type languages struct {
	catalogue *locale.Catalogue
	settings  interface {
		GuildSettings(ctx context.Context, guild string) (storage.GuildSettings, error)
		PutGuildSettings(ctx context.Context, guild string, s storage.GuildSettings) error
		UserPrefs(ctx context.Context, user string) (storage.UserPrefs, error)
		UpdateUserPrefs(ctx context.Context, user string, fn func(p *storage.UserPrefs) error) (storage.UserPrefs, error)
	}
	log *slog.Logger // nil: nothing logged

	mu     sync.Mutex
	guilds map[string]string // guild → its own locale, as last seen
	users  map[string]string // user → the locale stored in their preferences
}

// person is the language of a private answer to someone whose Discord
// client reads in loc.
func (l *languages) person(loc string) *locale.Printer { return l.catalogue.For(loc) }

// guild is the language of a public message in guild, whose own locale
// is guildLocale ("" when unknown, as at a deadline: then the locale the
// server's interactions last carried, kept in its settings).
func (l *languages) guild(ctx context.Context, guild, guildLocale string) *locale.Printer {
	s, err := l.settings.GuildSettings(ctx, guild)
	if err == nil && s.Language != "" {
		return l.catalogue.For(s.Language)
	}
	if guildLocale == "" {
		l.mu.Lock()
		guildLocale = l.guilds[guild]
		l.mu.Unlock()
	}
	if guildLocale == "" && err == nil {
		guildLocale = s.Locale
	}
	return l.catalogue.For(guildLocale)
}

// server is the language of a public message in guild sent with no
// interaction at hand (the publisher's board, pings, notices).
func (l *languages) server(ctx context.Context, guild string) *locale.Printer {
	return l.guild(ctx, guild, "")
}

// user is the language of a message to user sent with no interaction at
// hand, such as a DM: their last interaction's, else English.
func (l *languages) user(ctx context.Context, user string) *locale.Printer {
	l.mu.Lock()
	loc, known := l.users[user]
	l.mu.Unlock()
	if !known {
		prefs, err := l.settings.UserPrefs(ctx, user)
		if err != nil {
			return l.english()
		}
		loc = prefs.Locale
		l.remember(user, loc)
	}
	return l.catalogue.For(loc)
}

// seen remembers the locales an interaction carries: its server's (kept
// in the server's settings when it changed, so that what the bot posts
// with no interaction at hand follows it after a restart too), and its
// user's (saved in their preferences when it changed, so that DMs follow
// it). Each costs a store read the first time this process sees the
// server or user, and a write when their locale changed.
func (l *languages) seen(ctx context.Context, guild, guildLocale, user, userLocale string) {
	if guild != "" && guildLocale != "" && storage.CheckLocale(guildLocale) == nil {
		l.seenGuild(ctx, guild, guildLocale)
	}
	if user == "" || userLocale == "" || storage.CheckLocale(userLocale) != nil {
		return
	}
	l.mu.Lock()
	stored, known := l.users[user]
	l.mu.Unlock()
	if known && stored == userLocale {
		return
	}
	_, err := l.settings.UpdateUserPrefs(ctx, user, func(prefs *storage.UserPrefs) error {
		prefs.Locale = userLocale
		return nil
	})
	if err != nil {
		if l.log != nil {
			l.log.Warn("remembering a user's language failed", "err", err)
		}
		return
	}
	l.remember(user, userLocale)
}

// seenGuild keeps guild's own locale, loc, in memory and in its settings.
func (l *languages) seenGuild(ctx context.Context, guild, loc string) {
	l.mu.Lock()
	known := l.guilds[guild] == loc
	if l.guilds == nil {
		l.guilds = map[string]string{}
	}
	l.guilds[guild] = loc
	l.mu.Unlock()
	if known {
		return
	}
	s, err := l.settings.GuildSettings(ctx, guild)
	if err == nil && s.Locale != loc {
		s.Locale, s.LocaleOnly = loc, !s.Saved
		err = l.settings.PutGuildSettings(ctx, guild, s)
	}
	if err != nil && l.log != nil {
		l.log.Warn("remembering a server's language failed", "err", err)
	}
}

func (l *languages) remember(user, loc string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.users == nil {
		l.users = map[string]string{}
	}
	l.users[user] = loc
}

// english is for texts with no reader to follow, such as a log line.
func (l *languages) english() *locale.Printer { return l.catalogue.For(locale.English) }

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
