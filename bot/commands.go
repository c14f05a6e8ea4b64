package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
)

// Command and subcommand names. The router switches on these, and
// Commands builds the definitions from them, so the two cannot drift.
const (
	cmdLobby = "lobby"
	cmdPlay  = "play"
	cmdFree  = "free"
	cmdGame  = "game"
	cmdAdmin = "meeple-admin"
	cmdInbox = "inbox"
	cmdStats = "stats"
	cmdRules = "rules"
	cmdAway  = "away"

	subNew      = "new"
	subJoin     = "join"
	subLeave    = "leave"
	subAddAI    = "add-computer"
	subDropAI   = "remove-computer"
	subStart    = "start"
	subAbandon  = "abandon"
	subList     = "list"
	subMe       = "me"
	subBoard    = "board"
	subLog      = "log"
	subScores   = "scores"
	subRules    = "rules"
	subUndo     = "undo"
	subStats    = "stats"
	subNudge    = "nudge"
	subResign   = "resign"
	subReplace  = "replace"
	subEnd      = "end"
	subBoardTop = "leaderboard"
	subPrefs    = "prefs"
	subSettings = "settings"
	subShow     = "show"
	subHint     = "hint"
	subSummary  = "summary"
	subRejoin   = "rejoin"
	subExtend   = "extend"

	optGame        = "game"
	optPlayers     = "players"
	optOptions     = "options"
	optDeadline    = "deadline-hours"
	optOrder       = "order"
	optLevel       = "level"
	optHints       = "hints"
	optName        = "name"
	optAction      = "action"
	optPage        = "page"
	optTopic       = "topic"
	optUser        = "user"
	optSeat        = "seat"
	optThread      = "thread"
	optPings       = "pings"
	optSecrets     = "secrets"
	optReminder    = "reminder-hours"
	optDefault     = "on-deadline"
	optLanguage    = "language"
	optTimeZone    = "time-zone"
	optQuietFrom   = "quiet-from"
	optQuietTo     = "quiet-to"
	optHeadsUp     = "heads-up"
	optUntil       = "until"
	optStandIn     = "stand_in"
	optAwayMax     = "away-max-days"
	optAwayLets    = "away-stand-ins"
	optServerLevel = "stand-in-level"
	optDigest      = "digest"
	optDigestAt    = "digest-hour"
	optReliable    = "min-reliability"
	optRejoin      = "rejoin"
	optMissed      = "missed-in-a-row"
	optClock       = "clock"
	optBank        = "bank-hours"
	optBankAdd     = "bank-add-hours"
	optBankCap     = "bank-cap-hours"
	optBankMax     = "bank-max-hours"
	optHours       = "hours"
)

// Seat orders a lobby can start with.
const (
	orderShuffle = "shuffle"
	orderJoin    = "join"
)

// What happens when a deadline passes.
const (
	onDeadlineComputer = "computer" // a computer player acts for the absent player
	onDeadlinePause    = "pause"    // the game waits; players are told
)

// adminPermissions are the Discord permissions that make a member an admin
// of Meeple in a guild: they may abandon any game and change settings.
const adminPermissions = discordgo.PermissionManageChannels

// Commands returns the slash commands Meeple registers, offering the games
// of reg in /lobby new. Their descriptions and choices are words's English,
// with the other languages' names and descriptions beside them (see
// localize).
func Commands(reg *engine.Registry, catalogue *locale.Catalogue) []*discordgo.ApplicationCommand {
	var games []*discordgo.ApplicationCommandOptionChoice
	for _, name := range reg.Names() {
		rules, err := reg.Lookup(name)
		if err != nil {
			continue
		}
		games = append(games, &discordgo.ApplicationCommandOptionChoice{Name: rules.Title(), Value: name})
	}
	// Game commands work in servers that installed the app; the few
	// below that concern a player alone work wherever they are, also
	// from the app installed to their account (see commandAnywhere)
	guildOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	guildInstall := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	everywhere := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	anyInstall := &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	adminPerm := int64(adminPermissions)
	minPlayers, minZero := float64(1), float64(0)
	sub := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Options: opts}
	}
	str := func(name string, required, auto bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Required: required, Autocomplete: auto}
	}
	integer := func(name string, min *float64, max float64) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, MinValue: min, MaxValue: max}
	}
	boolean := func(name string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name}
	}
	required := func(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		o.Required = true
		return o
	}
	user := func(name string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: name}
	}
	choices := func(name string, values ...string) *discordgo.ApplicationCommandOption {
		o := str(name, false, false)
		for _, v := range values {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Value: v})
		}
		return o
	}
	gameChoice := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optGame, Required: true, Choices: games}
	cmds := []*discordgo.ApplicationCommand{
		{
			Name: cmdLobby, Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subNew,
					gameChoice,
					integer(optPlayers, &minPlayers, 6),
					str(optOptions, false, true),
					integer(optDeadline, &minZero, 24*14),
					choices(optDefault, onDeadlineComputer, onDeadlinePause),
					boolean(optThread),
					boolean(optHints),
					integer(optReliable, &minZero, 100),
					boolean(optRejoin),
					choices(optClock, clockFixed, clockBank),
					integer(optBank, &minPlayers, 24*366),
					integer(optBankAdd, &minZero, 24*366),
					integer(optBankCap, &minPlayers, 24*366),
				),
				sub(subJoin),
				sub(subLeave),
				sub(subAddAI, choices(optLevel, ai.Levels...), str(optName, false, true)),
				sub(subDropAI),
				sub(subStart, choices(optOrder, orderShuffle, orderJoin)),
				sub(subAbandon, integer(optGame, &minPlayers, 0)),
				sub(subList),
			},
		},
		{Name: cmdPlay, Contexts: guildOnly, Options: []*discordgo.ApplicationCommandOption{str(optAction, true, true)}},
		{Name: cmdFree, Contexts: guildOnly, Options: []*discordgo.ApplicationCommandOption{str(optAction, true, true)}},
		{
			Name: cmdGame, Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subMe),
				sub(subBoard),
				sub(subLog, integer(optPage, &minPlayers, 0)),
				sub(subScores),
				sub(subRules, str(optTopic, false, true)),
				sub(subUndo),
				sub(subStats, user(optUser)),
				sub(subNudge),
				sub(subResign),
				sub(subReplace, integer(optSeat, &minPlayers, 6), user(optUser)),
				sub(subEnd),
				sub(subBoardTop, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optGame, Choices: games}),
				sub(subPrefs, boolean(optPings), choices(optSecrets, storage.SecretsDM, storage.SecretsEphemeral),
					str(optTimeZone, false, false), integer(optQuietFrom, &minZero, 23), integer(optQuietTo, &minZero, 23), boolean(optHeadsUp),
					boolean(optDigest), integer(optDigestAt, &minZero, 23)),
				sub(subHint),
				sub(subSummary, integer(optGame, &minPlayers, 0)),
				sub(subRejoin),
				sub(subExtend, required(integer(optSeat, &minPlayers, 6)), required(integer(optHours, &minPlayers, 24*14))),
			},
		},
		{Name: cmdAway, Contexts: guildOnly, Options: []*discordgo.ApplicationCommandOption{
			str(optUntil, false, false), choices(optStandIn, storage.AwayComputer, storage.AwayWait)}},
		{Name: cmdInbox, Contexts: everywhere, IntegrationTypes: anyInstall},
		{Name: cmdStats, Contexts: everywhere, IntegrationTypes: anyInstall, Options: []*discordgo.ApplicationCommandOption{user(optUser)}},
		{Name: cmdRules, Contexts: everywhere, IntegrationTypes: anyInstall, Options: []*discordgo.ApplicationCommandOption{gameChoice, str(optTopic, false, true)}},
		{
			Name: cmdAdmin, Contexts: guildOnly,
			DefaultMemberPermissions: &adminPerm,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subShow),
				sub(subSettings,
					integer(optDeadline, &minZero, 24*14),
					integer(optReminder, &minZero, 24*14),
					boolean(optThread),
					choices(optLanguage, catalogue.Languages()...),
					integer(optAwayMax, &minPlayers, 366),
					choices(optAwayLets, awayBoth, storage.AwayComputer, storage.AwayWait),
					integer(optMissed, &minPlayers, storage.MaxMissedInARow),
					integer(optBankMax, &minPlayers, 24*366),
					choices(optServerLevel, ai.Levels...),
				),
			},
		},
	}
	for _, c := range cmds {
		if c.IntegrationTypes == nil {
			c.IntegrationTypes = guildInstall
		}
	}
	localize(cmds, catalogue)
	return cmds
}

// localize writes the commands' descriptions and choice names in English
// and, beside them and the names, every other language of words. The
// words are found by the command's path: a command's name under
// cmd.command.<name>, a subcommand's or option's under cmd.name.<name>, a
// description under cmd.help.<command>_<subcommand>_<option>, a choice
// under cmd.choice.<path>_<value>, except a game, which is named by its
// title (game.<kind>.title; a game the catalogue lacks keeps its rules'
// title) and a language by its own name (language.<code>).
func localize(cmds []*discordgo.ApplicationCommand, catalogue *locale.Catalogue) {
	en := catalogue.For(locale.English)
	names := func(name string) map[discordgo.Locale]string { return byLocale(catalogue.Each("cmd.name." + name)) }
	var options func(path string, opts []*discordgo.ApplicationCommandOption)
	options = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			p := path + "_" + o.Name
			o.Description, o.NameLocalizations = en.T("cmd.help."+p), names(o.Name)
			o.DescriptionLocalizations = byLocale(catalogue.Each("cmd.help." + p))
			for _, c := range o.Choices {
				key := "cmd.choice." + p + "_" + c.Value.(string)
				switch o.Name {
				case optGame:
					key = "game." + c.Value.(string) + ".title"
					if !catalogue.Has(key) {
						continue // a game the catalogue does not know keeps its own title
					}
				case optLanguage:
					key = "language." + c.Value.(string)
				}
				c.Name, c.NameLocalizations = en.T(key), byLocale(catalogue.Each(key))
			}
			options(p, o.Options)
		}
	}
	for _, c := range cmds {
		c.Description = en.T("cmd.help." + c.Name)
		n, d := byLocale(catalogue.Each("cmd.command."+c.Name)), byLocale(catalogue.Each("cmd.help."+c.Name))
		c.NameLocalizations, c.DescriptionLocalizations = &n, &d
		options(c.Name, c.Options)
	}
}

// byLocale keys translations by Discord's locale, which for German and
// French is the language's code.
func byLocale(m map[string]string) map[discordgo.Locale]string {
	out := make(map[discordgo.Locale]string, len(m))
	for lang, text := range m {
		out[discordgo.Locale(lang)] = text
	}
	return out
}
