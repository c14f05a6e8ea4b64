package table

import "github.com/meeplegames/meeple/engine"

// Refusal is an action the table turns down; it changes nothing. ID names
// the catalogue message that tells the player why, Args its arguments as
// name, value pairs (see locale.Printer.T): the bot writes it in the
// player's language.
type Refusal struct {
	ID   string
	Args []any
}

func (r *Refusal) Error() string { return r.ID }

// refuse returns a refusal worded by the catalogue's message id.
func refuse(id string, args ...any) error { return &Refusal{ID: id, Args: args} }

// The table's refusals, which the bot's handlers also raise.
var (
	ErrNotRunning = &Refusal{ID: "refuse.not_running"}
	ErrNotSeated  = &Refusal{ID: "refuse.not_seated"}
	// ErrNotYours: a seat's menu used by someone who does not hold the seat
	ErrNotYours = &Refusal{ID: "refuse.not_yours"}
	// ErrStaleClick: a board's component clicked after the game moved on
	ErrStaleClick = &Refusal{ID: "refuse.stale_click"}
	// ErrForeign: a component of another game than the channel's
	ErrForeign = &Refusal{ID: "refuse.foreign"}
	// ErrStaleChoice: an open choice (a DM menu, a form) whose history was
	// taken back, or drawn for the channel's earlier game
	ErrStaleChoice = &Refusal{ID: "refuse.stale_choice"}
	// ErrForeignChoice: a form, menu or list choice drawn for a game that
	// lives in another channel
	ErrForeignChoice = &Refusal{ID: "refuse.foreign_choice"}
	ErrBlankChoice   = &Refusal{ID: "refuse.blank_choice"}
	// ErrUnknownOutcome: the store's answer to a commit was lost, and
	// retries could not tell whether it was kept.
	ErrUnknownOutcome = &Refusal{ID: "refuse.unknown_outcome"}
	// ErrNotRecorded: the store could not keep a move (its database was
	// out of reach, or its answer lost and a retry found the move not
	// kept): the player should play it again.
	ErrNotRecorded = &Refusal{ID: "refuse.not_recorded"}
)

// RuleRefusal is a game's refusal of an action (Err, an
// engine.RuleError) with the game's Rules, whose content names the items
// the reason mentions (a patent, a city) in the reader's language.
type RuleRefusal struct {
	Err   error
	Rules engine.Rules
}

func (g *RuleRefusal) Error() string { return g.Err.Error() }
func (g *RuleRefusal) Unwrap() error { return g.Err }
