// Package engine holds the contract every Meeple game implements: a game's
// rules (Rules) create and restore states (State); a state says who must
// decide what (Prompt), accepts actions in one canonical text notation
// (Apply), reports what happened (Event) and shows each seat only what it
// may see (View).
//
// The engine and the game packages under it are pure libraries: no I/O, no
// clock, no global randomness, and nothing of Discord, gg or bbolt. A test
// enforces that. Randomness comes from an RNG kept inside each state, so a
// seed plus the list of applied actions reproduces a game exactly.
//
// States are not safe for concurrent use; callers serialise access per game.
package engine

// Seat is a player's position at the table, counted from 0 in turn order of
// setup. Scripts and logs written for people number seats from 1 (P1, P2, …).
type Seat int

// Spectator is the seat of someone not playing; its view hides every secret.
const Spectator Seat = -1

// Setup is everything needed to start a game: the same Setup always creates
// the same initial state.
type Setup struct {
	Players int               // number of seats
	Seed    uint64            // seeds the state's RNG
	Options map[string]string // game options by name (see Rules.Options); nil means defaults
}

// Option describes one game option a lobby can offer.
type Option struct {
	Name    string   // key in Setup.Options, e.g. "variant"
	Help    string   // one line for people
	Values  []string // allowed values; the first is the default
	Default string
}

// Rules is one kind of game. A Rules value carries the game's content (cards,
// boards) and is safe for concurrent use.
type Rules interface {
	// Name is the game id used in commands, files and storage: "crystalpalace".
	Name() string
	// Title is the game's printed name: "Crystal Palace".
	Title() string
	// MinPlayers and MaxPlayers bound Setup.Players.
	MinPlayers() int
	MaxPlayers() int
	// Options lists the options New accepts.
	Options() []Option
	// New creates the initial state, or an error when the setup is invalid.
	New(setup Setup) (State, error)
	// Decode restores a state from State.Encode's bytes.
	Decode(data []byte) (State, error)
}

// State is one game in progress. Apply mutates the state in place on success
// and leaves it untouched on error.
type State interface {
	// Players is the number of seats.
	Players() int
	// Prompts are the decisions the game waits for, in the order they are
	// best asked; several at once when players decide simultaneously.
	// Empty exactly when the game is over.
	Prompts() []Prompt
	// FreeActions are the actions seat may take now besides its prompt, the
	// ones the rules allow "at any time" (exchanges, loans, …). Possibly empty.
	FreeActions(seat Seat) []string
	// Apply validates action (canonical text) for seat and performs it. On
	// error the state is unchanged and the error wraps one of this package's
	// sentinels; its message is the rule's reason in words a player understands.
	Apply(seat Seat, action string) ([]Event, error)
	// View is what seat may see, as a game-specific JSON-serialisable value
	// (for example *crystalpalace.View). View(Spectator) hides every secret.
	View(seat Seat) any
	// Phase says in a few public words where the game stands, as data for
	// the wording layer: "Spring 1849: phase 2, place dice". It changes
	// when a board image is worth posting again; its Key tells two phases
	// apart in any language.
	Phase() Text
	// Over reports whether the game has ended.
	Over() bool
	// Result is the outcome so far; final once Over is true.
	Result() Result
	// Encode serialises the whole state, secrets and RNG included.
	// Equal states encode to equal bytes.
	Encode() ([]byte, error)
	// Clone returns an independent deep copy.
	Clone() State
}

// Prompt is one decision a seat must make.
type Prompt struct {
	Seat Seat
	// Kind names the decision for user interfaces ("dice", "place", "take",
	// "move", …); stable per game.
	Kind string
	// Text says in a few words what is being decided, the same for every
	// player (it is public), as data for the wording layer to write in the
	// reader's language: "choose the values of 4 dice". Never nil nor zero.
	// A game may share one Text among its prompts: it is never changed.
	Text *Text
	// Actions lists every legal action in canonical notation; never empty.
	// For very large choices (secret dice) it may list them all anyway; a UI
	// may also accept any text that Apply accepts.
	Actions []string
	// Secret means the chosen action must not be shown to anyone but Seat
	// until the rules reveal it (Crystal Palace's dice values).
	Secret bool
}

// Revisable is implemented by states whose secret choices may be changed
// after they are made, until the rules reveal them (Crystal Palace's phase 1
// dice). A changed choice is applied like any action, with Apply, and
// replaces the earlier one; a log that holds both replays to the same state.
type Revisable interface {
	// Revisable returns the secret prompt seat has already answered and may
	// still answer again, with its legal actions, and true; or false when
	// seat has no such choice now.
	Revisable(seat Seat) (Prompt, bool)
}

// Event is something that happened while applying an action.
type Event struct {
	Kind string // one of the Event* kinds below, or a game-specific kind
	// Seat is the seat concerned, or Spectator when the event concerns nobody in particular.
	Seat Seat
	// Text is a short public description as data, e.g. "P2 moves to 14";
	// package wording writes it in a reader's language. It never holds a
	// secret; Private events are only for Seat's eyes.
	Text    Text
	Private bool
	// Reveals is true when the event exposes information that was hidden or
	// drew on the RNG (dice revealed, a card drawn, a loan tile drawn): an
	// action whose events reveal something cannot be undone.
	Reveals bool
}

// Event kinds shared by all games.
const (
	EventAction = "action" // an action was applied; Text is its public form
	EventPhase  = "phase"  // a new phase or round of turns began: post a new board
	EventReveal = "reveal" // hidden choices became public
	EventEnd    = "end"    // the game ended; see State.Result
)

// Result is a game's outcome.
type Result struct {
	Over    bool
	Scores  []int  // by seat; meaning is per game (victory points, spaces travelled, …)
	Winners []Seat // every seat that won; ties all win
	// Breakdown splits each seat's score by source ("prototypes", "buzz", …).
	Breakdown []map[string]int
	// Counters are game statistics for summaries: cards taken ("taken:patent:telegraph"),
	// turns played ("turns"), … Simulations add them up.
	Counters map[string]int
}
