package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
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
	subBoardTop = "leaderboard"
	subPrefs    = "prefs"
	subSettings = "settings"
	subShow     = "show"

	optGame     = "game"
	optPlayers  = "players"
	optOptions  = "options"
	optDeadline = "deadline-hours"
	optOrder    = "order"
	optName     = "name"
	optAction   = "action"
	optPage     = "page"
	optTopic    = "topic"
	optUser     = "user"
	optSeat     = "seat"
	optThread   = "thread"
	optPings    = "pings"
	optSecrets  = "secrets"
	optReminder = "reminder-hours"
	optDefault  = "on-deadline"
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
// of reg in /lobby new.
func Commands(reg *engine.Registry) []*discordgo.ApplicationCommand {
	var games []*discordgo.ApplicationCommandOptionChoice
	for _, name := range reg.Names() {
		rules, err := reg.Lookup(name)
		if err != nil {
			continue
		}
		games = append(games, &discordgo.ApplicationCommandOptionChoice{Name: rules.Title(), Value: name})
	}
	guildOnly := &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	adminPerm := int64(adminPermissions)
	minPlayers, minZero := float64(1), float64(0)
	sub := func(name, help string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: help, Options: opts}
	}
	str := func(name, help string, required, auto bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name, Description: help, Required: required, Autocomplete: auto}
	}
	integer := func(name, help string, min *float64, max float64) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: help, MinValue: min, MaxValue: max}
	}
	order := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: optOrder, Description: "Seat order: shuffled (default) or in join order",
		Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "shuffled", Value: orderShuffle}, {Name: "join order", Value: orderJoin}},
	}
	onDeadline := &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: optDefault, Description: "What happens when a deadline passes",
		Choices: []*discordgo.ApplicationCommandOptionChoice{
			{Name: "a computer player acts for the absent player", Value: onDeadlineComputer},
			{Name: "the game pauses", Value: onDeadlinePause},
		},
	}
	return []*discordgo.ApplicationCommand{
		{
			Name: cmdLobby, Description: "Create, join and start games in this channel", Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subNew, "Open a lobby for a new game in this channel",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optGame, Description: "Which game", Required: true, Choices: games},
					integer(optPlayers, "Number of seats (default: the game's minimum, grows as people join)", &minPlayers, 6),
					str(optOptions, "Game options as name=value, separated by spaces", false, true),
					integer(optDeadline, "Hours each player has per decision (0: no deadline)", &minZero, 24*14),
					onDeadline,
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: optThread, Description: "Play in a new thread of this channel (default: the server's choice)"},
				),
				sub(subJoin, "Take a seat in this channel's lobby"),
				sub(subLeave, "Give up your seat in this channel's lobby"),
				sub(subAddAI, "Seat a computer player", str(optName, "Which computer player (default: random)", false, true)),
				sub(subDropAI, "Remove the last computer player"),
				sub(subStart, "Start the game", order),
				sub(subAbandon, "Abandon this channel's game, or one in its threads (its creator or an admin)",
					integer(optGame, "Game number, for a game in a thread of this channel (default: this channel's game)", &minPlayers, 0)),
				sub(subList, "Open and running games of this server"),
			},
		},
		{
			Name: cmdPlay, Description: "Take one of your legal actions (secret choices stay private)", Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{str(optAction, "The action; start typing to see the legal ones", true, true)},
		},
		{
			Name: cmdFree, Description: "Take an action the rules allow at any time (exchanges, loans, …)", Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{str(optAction, "The action; start typing to see what you may do now", true, true)},
		},
		{
			Name: cmdGame, Description: "This channel's game", Contexts: guildOnly,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subMe, "Your private view: only you see it"),
				sub(subBoard, "Show the board"),
				sub(subLog, "The last actions", integer(optPage, "Page, 1 = most recent", &minPlayers, 0)),
				sub(subScores, "The scores so far"),
				sub(subRules, "Rules of the game", str(optTopic, "Topic; start typing to see them", false, true)),
				sub(subUndo, "Take back your last action (when nothing was revealed since)"),
				sub(subStats, "Statistics of a player and of this server", &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser, Description: "Whose (default: you)"}),
				sub(subNudge, "Remind whoever the game waits for (once an hour per game)"),
				sub(subResign, "Leave this game: a computer player takes your seat"),
				sub(subReplace, "Hand a seat to another person, or to a computer player (creator, admins, or your own seat)",
					integer(optSeat, "Seat number (P1 = 1)", &minPlayers, 6),
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: optUser, Description: "Who takes the seat (default: a computer player)"}),
				sub(subBoardTop, "This server's best players of a game",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optGame, Description: "Which game (default: every game)", Choices: games}),
				sub(subPrefs, "Your preferences in every game: pings, and where secret choices are asked",
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: optPings, Description: "Mention me when a decision is mine"},
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: optSecrets, Description: "Where the bot asks for my secret choices",
						Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "by DM", Value: storage.SecretsDM}, {Name: "here, privately (button or /play)", Value: storage.SecretsEphemeral}}}),
			},
		},
		{
			Name: cmdAdmin, Description: "Meeple settings for this server (admins)", Contexts: guildOnly,
			DefaultMemberPermissions: &adminPerm,
			Options: []*discordgo.ApplicationCommandOption{
				sub(subShow, "Show this server's settings"),
				sub(subSettings, "Change this server's defaults for new games",
					integer(optDeadline, "Hours per decision (0: no deadline)", &minZero, 24*14),
					integer(optReminder, "Remind the player to move every this many hours while they wait (0: never)", &minZero, 24*14),
					&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: optThread, Description: "Open each new game in a thread of its channel"},
				),
			},
		},
	}
}
