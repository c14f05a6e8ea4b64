package storage

import (
	"time"

	"github.com/meeplegames/meeple/engine"
)

// Status is where a game stands in its life.
type Status string

// The statuses a game passes through. Lobby and running games are active
// (one per channel); finished and abandoned games are archived.
const (
	StatusLobby     Status = "lobby"     // seats are being filled; no state yet
	StatusRunning   Status = "running"   // being played; has a state and a log
	StatusFinished  Status = "finished"  // ended by the rules; archived
	StatusAbandoned Status = "abandoned" // ended early; archived, counts as abandoned in stats
)

// Active reports whether a game of this status occupies its channel.
func (s Status) Active() bool { return s == StatusLobby || s == StatusRunning }

// Game is one game record: an active game (keyed by its channel or thread
// id) or an archived one (keyed by its ID).
//
// The store owns ID, Version, Revision, Log, Snapshot, Created, Updated
// and Finished; the bot owns the rest and changes it through Store.Update.
type Game struct {
	ID      uint64 // unique for the life of the file, assigned by Create
	Kind    string // the engine.Rules name: "crystalpalace", "eightydays"
	Guild   string // Discord guild (server) id
	Channel string // Discord channel or thread id the game lives in
	// Parent is the channel whose thread the game lives in; empty when it
	// lives in a channel of its own.
	Parent  string
	Creator string // Discord user id of whoever created the game
	Status  Status

	Setup engine.Setup // seed, player count, options; Players == len(Seats) once running
	Seats []Seat       // by engine.Seat

	// Log is every accepted action, in order. Version == len(Log).
	Log     []Entry
	Version int
	// Revision names the game's history (its log and state) as it is: the
	// store gives it a new value from one counter for the whole store each
	// time the log changes (created, started, actions appended, undone), so
	// a revision is never given twice, not after an undo and not to another
	// game. With ID it guards writes (see Guard). Edits of the bot's own
	// fields (Store.Update) keep it.
	Revision uint64
	// Rewound is where the game's current history starts: one past the
	// revision the game had when it was last undone (0 when it never was).
	// A history seen at a revision below it was taken back; one seen at or
	// above it is a beginning of the history as it is (see Extends).
	Rewound uint64
	// Snapshot is State.Encode() of the state after Log (nil in the lobby).
	// It always equals the replay of Setup and Log.
	Snapshot []byte

	// Messages holds the ids of the public messages the bot keeps up to
	// date, by a role the bot chooses ("board", "status", …).
	Messages map[string]string

	// Timing is the game's own time limits, chosen in its lobby.
	Timing Timing

	// Deadline is when the player to move runs out of time; RemindAt is when
	// to remind them. Zero means none. Store.Due finds the passed ones.
	Deadline time.Time
	RemindAt time.Time

	Created  time.Time
	Updated  time.Time // the last change to the record or the time of the last action, whichever is later
	Finished time.Time // when the game was archived; zero while active

	// Result is the outcome, set by Store.Finish.
	Result *engine.Result

	// Handovers are the changes of hands of a running game's seats, in
	// order: replacements and resignations. Ratings read them.
	Handovers []Handover
	// Nudged is when a player last nudged the players the game waits for;
	// zero for never.
	Nudged time.Time
	// EndVotes are the users who voted to end the running game before its
	// rules end it, in the order they voted.
	EndVotes []string
	// EndedByVote reports that the players voted the game to an end: it
	// finished with the scores of that moment and no winner.
	EndedByVote bool
	// Hints reports that the table allows /game hint, chosen in its lobby;
	// such a game is not rated. HintsTaken counts the hints each seat
	// took (nil until the first).
	Hints      bool
	HintsTaken []int

	// Waits are the seats the game waits on (their prompts are open),
	// with since when; nil in the lobby and once archived. The store
	// keeps them, from the state, whenever the game's history changes
	// through Create, Import, Start, Undo or Commit (from
	// Outcome.Waiting); Append, which is given no state, leaves them.
	Waits []Wait

	// MinReliability is the least share of deadlines met (percent, over
	// the game's server) a player needs to join its lobby; 0 lets anyone.
	MinReliability int
	// NoRejoin keeps a seat the computer took after missed deadlines with
	// the computer: its player cannot take it back with /game rejoin.
	NoRejoin bool
	// MissedInARow counts, by seat, the deadlines that passed on the
	// seat's player since they last decided (nil until the first).
	MissedInARow []int

	// Banks are, by seat, the time left in each seat's bank when its
	// present wait began (or, for a seat not waited on, now), in a game
	// whose Timing is Banked; nil until the game starts.
	Banks []time.Duration
	// Extension is the open proposal to give one player more time, nil
	// when none is open. Proposed is, by user, the round (the bot's tag
	// of the game's phase) of their last proposal: one a round.
	Extension *Extension
	Proposed  map[string]string
}

// Extension is a proposal to give one seat's player more time, which the
// other people at the table vote on.
type Extension struct {
	Seat  engine.Seat   `json:"seat"`
	By    string        `json:"by"`
	Time  time.Duration `json:"time"`
	Round string        `json:"round"`
	// Votes are the people who agreed, the proposer among them when they
	// are not the player who would get the time.
	Votes []string  `json:"votes,omitempty"`
	At    time.Time `json:"at"`
}

// Guard names the game a write is based on: the game's ID and its
// Revision when the caller read it. A store refuses a guarded write with
// a *VersionError (ErrStale), changing nothing, when the channel's game
// is another one or its history moved on.
type Guard struct {
	Game     uint64
	Revision uint64
}

// Extends reports whether g's history as it is extends the history g had
// at revision: no undo took any of it back since (actions added since
// leave it a beginning of g's). A choice offered at revision (a DM menu,
// an autocomplete list) still belongs to g's history when it does.
func (g *Game) Extends(revision uint64) bool { return revision >= g.Rewound && revision <= g.Revision }

// Guard is the guard of a write based on g as it is.
func (g *Game) Guard() Guard { return Guard{Game: g.ID, Revision: g.Revision} }

// Handover is one seat changing hands during a game.
type Handover struct {
	Seat     engine.Seat `json:"seat"`
	From     Seat        `json:"from"`               // who held the seat before
	To       Seat        `json:"to"`                 // who holds it after
	By       string      `json:"by,omitempty"`       // the user who made the change
	Resigned bool        `json:"resigned,omitempty"` // From resigned (rather than was replaced or handed it over)
	// Lapsed: the computer took the seat after From missed deadlines in a
	// row; From may take it back (/game rejoin) unless the game says not.
	Lapsed bool      `json:"lapsed,omitempty"`
	At     time.Time `json:"at"`
	// Version is how many actions the game's log held at the hand-over,
	// which places it among them.
	Version int `json:"version,omitempty"`
}

// Timing is how long a game's players have for each decision and what
// happens when that time runs out. The zero Timing means no deadline.
type Timing struct {
	// TurnDeadline is how long a player has for each decision; 0 means no deadline.
	TurnDeadline time.Duration `json:"turn_deadline,omitempty"`
	// ReminderEvery is how long after a decision falls due its player is
	// reminded; 0 means never.
	ReminderEvery time.Duration `json:"reminder_every,omitempty"`
	// OnDeadline names what happens when a deadline passes, in the bot's
	// own words ("computer", "pause"); empty means the bot's default.
	OnDeadline string `json:"on_deadline,omitempty"`
	// Bank, when set, is a time bank per player instead of a fixed time
	// per decision: each player starts with Bank, their decisions draw
	// on it, each decision adds BankAdd, and it never grows above BankCap
	// that way. A player whose bank runs out meets the deadline's policy.
	Bank    time.Duration `json:"bank,omitempty"`
	BankAdd time.Duration `json:"bank_add,omitempty"`
	BankCap time.Duration `json:"bank_cap,omitempty"`
}

// Banked reports whether t gives each player a time bank.
func (t Timing) Banked() bool { return t.Bank > 0 }

// Seat is who plays one seat: a Discord user or a computer player.
type Seat struct {
	User     string `json:"user,omitempty"`     // Discord user id; empty for a computer or an open seat
	Computer string `json:"computer,omitempty"` // computer player name ("random", …) when no user
	Name     string `json:"name,omitempty"`     // display name at the time the seat was taken
}

// Open reports whether nobody holds the seat yet.
func (s Seat) Open() bool { return s.User == "" && s.Computer == "" }

// Entry is one accepted action in a game's log.
type Entry struct {
	Seat   engine.Seat
	Action string // canonical action text, as State.Apply accepted it
	At     time.Time
}

// Due is a deadline or a reminder whose time has come.
type Due struct {
	Kind    DueKind
	At      time.Time
	GameID  uint64
	Channel string
}

// DueKind tells a deadline from a reminder.
type DueKind byte

// The kinds of timers Store.Due reports.
const (
	DueDeadline DueKind = 'd'
	DueReminder DueKind = 'r'
)

// String names the kind: "deadline" or "reminder".
func (k DueKind) String() string {
	switch k {
	case DueDeadline:
		return "deadline"
	case DueReminder:
		return "reminder"
	}
	return "unknown"
}

// Stats is one user's record in one kind of game. Abandoned games count
// only in Abandoned.
type Stats struct {
	User      string `json:"user"`
	Kind      string `json:"kind"`
	Played    int    `json:"played"` // finished games
	Won       int    `json:"won"`
	Abandoned int    `json:"abandoned"`
	ScoreSum  int64  `json:"score_sum"`
	Best      int    `json:"best"` // best score in a finished game; 0 when Played == 0
}

// Average is the mean score over finished games, 0 when none.
func (s Stats) Average() float64 {
	if s.Played == 0 {
		return 0
	}
	return float64(s.ScoreSum) / float64(s.Played)
}

// GuildSettings are one guild's (Discord server's) preferences.
type GuildSettings struct {
	// TurnDeadline is how long a player has for a decision; 0 means no deadline.
	TurnDeadline time.Duration `json:"turn_deadline"`
	// ReminderEvery is how often the player to move is reminded; 0 means never.
	ReminderEvery time.Duration `json:"reminder_every"`
	// CreatorRoles may create games; empty means everyone.
	CreatorRoles []string `json:"creator_roles,omitempty"`
	// ManagerRoles may abandon anyone's game (besides its creator and
	// members with Discord's Manage Channels permission).
	ManagerRoles []string `json:"manager_roles,omitempty"`
	// GamesChannel is where new games are announced; empty means none.
	GamesChannel string `json:"games_channel,omitempty"`
	// Threads opens each new game in a thread of its channel.
	Threads bool `json:"threads,omitempty"`
	// Language is the language of the bot's public messages, as a code
	// ("de", "fr"); empty means the server's own locale.
	Language string `json:"language,omitempty"`
	// Locale is the server's own locale as Discord last reported it
	// (guild_locale), kept so that what the bot posts with no interaction
	// at hand (a deadline's notice after a restart) reads in it.
	Locale string `json:"locale,omitempty"`
	// LocaleOnly marks settings stored only to keep Locale: the admins
	// saved none, and GuildSettings reports Saved false.
	LocaleOnly bool `json:"locale_only,omitempty"`
	// AwayMaxDays is the longest absence (/away) a player may announce
	// here, in days; 0 means DefaultAwayMaxDays.
	AwayMaxDays int `json:"away_max_days,omitempty"`
	// AwayChoices are what may stand in for an absent player in this
	// server's games (AwayComputer, AwayWait); empty means both.
	AwayChoices []string `json:"away_choices,omitempty"`
	// MissedInARow is how many deadlines in a row a player may miss in
	// this server's games before the computer keeps their seat; 0 means
	// DefaultMissedInARow.
	MissedInARow int `json:"missed_in_a_row,omitempty"`
	// StandIn is the level of the computer player (as the games name it:
	// "easy", "normal", "strong") that stands in for a player in this
	// server's games, at a deadline or while they are away; empty means
	// the host's (meeple.toml's computer).
	StandIn string `json:"stand_in,omitempty"`
	// BankMax is the longest time bank (its start and its cap) a table
	// may choose here; 0 means DefaultBankMax.
	BankMax time.Duration `json:"bank_max,omitempty"`
	// Saved is true when the guild's admins have saved settings, even ones
	// equal to the defaults (not a record kept only for Locale); set by
	// GuildSettings, not stored.
	Saved bool `json:"-"`
}

// DefaultGuildSettings are the settings of a guild that has saved none.
func DefaultGuildSettings() GuildSettings {
	return GuildSettings{TurnDeadline: 48 * time.Hour, ReminderEvery: 12 * time.Hour}
}

// DefaultMissedInARow is how many deadlines in a row a player may miss
// before the computer keeps their seat, when a server's admins set none.
const DefaultMissedInARow = 3

// DefaultBankMax is the longest time bank a table may choose when a
// server's admins set none.
const DefaultBankMax = 14 * 24 * time.Hour

// MaxMissedInARow bounds GuildSettings.MissedInARow.
const MaxMissedInARow = 20

// DefaultAwayMaxDays is the longest absence a server allows when its
// admins set none.
const DefaultAwayMaxDays = 14

// What stands in for an absent player (UserPrefs.AwayStandIn).
const (
	AwayComputer = "computer" // a computer player decides in their place
	AwayWait     = "wait"     // their deadlines wait until they return
)

// Secret delivery choices in UserPrefs.
const (
	SecretsEphemeral = "ephemeral" // an ephemeral reply in the game's channel
	SecretsDM        = "dm"        // a direct message
)

// UserPrefs are one user's preferences.
type UserPrefs struct {
	PingOnTurn bool   `json:"ping_on_turn"` // mention the user when a decision is theirs
	Secrets    string `json:"secrets"`      // SecretsEphemeral or SecretsDM
	// Locale is the locale of the user's Discord client at their last
	// interaction ("de", "en-US"; "" before any): the language of the
	// DMs the bot sends them. See CheckLocale.
	Locale string `json:"locale,omitempty"`

	// TimeZone is the IANA name of the user's time zone ("Europe/Berlin");
	// "" reads as UTC. Quiet hours and the digest's hour are in it.
	TimeZone string `json:"time_zone,omitempty"`
	// QuietFrom and QuietTo are the user's quiet hours, hours of the day
	// (0-23) in TimeZone: a ping due from QuietFrom:00 until QuietTo:00
	// waits until QuietTo:00. Equal hours mean no quiet hours; QuietFrom
	// after QuietTo spans midnight (22 to 7).
	QuietFrom int `json:"quiet_from,omitempty"`
	QuietTo   int `json:"quiet_to,omitempty"`
	// HeadsUp asks for a DM when the user is next to decide in a game.
	HeadsUp bool `json:"heads_up,omitempty"`
	// Away is when the user's announced absence (/away) ends; zero when
	// they announced none. It ends early the moment they act in a game.
	// AwayStandIn is what stands in for them meanwhile: AwayComputer or
	// AwayWait.
	Away        time.Time `json:"away,omitzero"`
	AwayStandIn string    `json:"away_stand_in,omitempty"`
	// Digest asks for a daily DM of the user's inbox at DigestHour (0-23
	// in TimeZone). DigestSent is the day, in TimeZone, of the last one
	// ("2006-01-02"; "" before any): written before the DM goes, so a
	// digest never goes twice in a day.
	Digest     bool   `json:"digest,omitempty"`
	DigestHour int    `json:"digest_hour,omitempty"`
	DigestSent string `json:"digest_sent,omitempty"`
	// Reliability is how the user kept time in each server's games, by
	// guild id ("" for games outside any server); nil before any.
	// The bot counts it (see UpdateUserPrefs).
	Reliability map[string]Reliability `json:"reliability,omitempty"`
}

// Reliability is how one user kept time in one server's games: the
// decisions they took before their deadline, the deadlines that passed
// on them, and the seats that left their hands before their game ended
// (handed over, resigned, or kept by the computer after missed deadlines).
type Reliability struct {
	InTime     int `json:"in_time,omitempty"`
	Missed     int `json:"missed,omitempty"`
	HandedOver int `json:"handed_over,omitempty"`
}

// Add returns r plus o.
func (r Reliability) Add(o Reliability) Reliability {
	return Reliability{InTime: r.InTime + o.InTime, Missed: r.Missed + o.Missed, HandedOver: r.HandedOver + o.HandedOver}
}

// Decisions is how many deadlines r counts: met or missed.
func (r Reliability) Decisions() int { return r.InTime + r.Missed }

// Percent is the share of r's deadlines met, in percent rounded down;
// 100 when r counts none.
func (r Reliability) Percent() int {
	if r.Decisions() == 0 {
		return 100
	}
	return 100 * r.InTime / r.Decisions()
}

// HasQuietHours reports whether p sets quiet hours.
func (p UserPrefs) HasQuietHours() bool { return p.QuietFrom != p.QuietTo }

// AwayAt reports whether the user is away at now.
func (p UserPrefs) AwayAt(now time.Time) bool { return p.Away.After(now) }

// DefaultUserPrefs are the preferences of a user who has saved none.
func DefaultUserPrefs() UserPrefs {
	return UserPrefs{PingOnTurn: true, Secrets: SecretsEphemeral}
}
