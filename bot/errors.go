package bot

import (
	"errors"
	"fmt"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// refusal is a request the bot turns down, with the words the user sees.
// It changes nothing.
type refusal struct{ text string }

func (r *refusal) Error() string { return r.text }

// refuse returns a refusal with a formatted text.
func refuse(format string, args ...any) error {
	return &refusal{text: fmt.Sprintf(format, args...)}
}

// Refusals the handlers share.
var (
	errNoGame      = &refusal{"There is no game in this channel. Open one with `/lobby new`."}
	errNoLobby     = &refusal{"This channel's game has already started; lobby commands no longer apply."}
	errNotRunning  = &refusal{"This channel's game has not started yet: see the lobby, or `/lobby start`."}
	errNotSeated   = &refusal{"You are not playing in this game. You can watch: everything public is on the board."}
	errNotYours    = &refusal{"That decision is not yours to make."}
	errStaleClick  = &refusal{"This board is out of date; use the latest board message (or `/play`)."}
	errForeign     = &refusal{"That button belongs to another game."}
	errUnknownComp = &refusal{"That button is from an older version of Meeple; use the latest board message."}
	errBusyChannel = &refusal{"This channel already has a game. Finish or abandon it first, or use another channel or a thread."}
	errGuildOnly   = &refusal{"Meeple games live in server channels; use this command there."}
	errClosing     = &refusal{"Meeple is restarting; try again in a moment."}
	errBlankChoice = &refusal{"Your answer was blank: type your choice (for example the dice values), or pick it from the list."}
	// errUnknownOutcome: the store's answer to a commit was lost, and
	// retries could not tell whether it was kept.
	errUnknownOutcome = &refusal{"Meeple lost its connection to the database while saving your move, so it cannot tell whether your move was recorded. Look at the board before you act again: if your move is there, it counts once."}
)

// errPanic stands for a recovered panic, which is logged where it happens.
var errPanic = &refusal{genericFailure}

// genericFailure is what a user sees for an error that is not theirs.
const genericFailure = "Something went wrong on Meeple's side. It has been logged; please try again, and tell the server admin if it keeps happening."

// userMessage returns the words to show for err, and whether err is
// unexpected (a failure to log rather than a refusal to explain).
// Engine refusals reach the player in the engine's words.
func userMessage(err error) (string, bool) {
	var replay *storage.ReplayError
	if errors.As(err, &replay) {
		return genericFailure, true // a stored game that no longer replays is not the user's doing
	}
	var ref *refusal
	if errors.As(err, &ref) {
		return ref.text, false
	}
	var rule *engine.RuleError
	if errors.As(err, &rule) {
		return rule.Reason, false
	}
	switch {
	case errors.Is(err, storage.ErrStale):
		return "Someone else acted at the same moment and the game moved on; look at the board and try again.", false
	case errors.Is(err, storage.ErrChannelBusy):
		return errBusyChannel.text, false
	case errors.Is(err, storage.ErrNotFound):
		return errNoGame.text, false
	case errors.Is(err, engine.ErrGameOver):
		return "This game is over.", false
	case errors.Is(err, engine.ErrNotYourTurn):
		return "It is not your turn.", false
	case errors.Is(err, engine.ErrUnknownAction):
		return "That is not an action of this game.", false
	case errors.Is(err, engine.ErrIllegalAction):
		return "The rules do not allow that now.", false
	case errors.Is(err, errClosingDown):
		return errClosing.text, false
	}
	return genericFailure, true
}

// errClosingDown: the bot is shutting down and takes no new work.
var errClosingDown = errors.New("bot closing")
