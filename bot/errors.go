package bot

import (
	"errors"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// refusalText writes r, a request the bot or its table turns down, in p's
// language. Arguments that list names or Discord permissions are joined
// as the reader's language joins them.
func refusalText(p *locale.Printer, r *table.Refusal) string {
	args := slices.Clone(r.Args)
	for i, a := range args {
		switch list := a.(type) {
		case nameList:
			args[i] = joinNames(p, list)
		case permissionList:
			names := make([]string, len(list))
			for n, name := range list {
				names[n] = permissionName(p, name)
			}
			args[i] = joinNames(p, names)
		}
	}
	return p.T(r.ID, args...)
}

// nameList is an argument of a refusal that lists names, joined in the
// reader's language ("A, B and C").
type nameList []string

// permissionList is an argument of a refusal that lists Discord
// permissions by their English names (Permission.Name), written as
// Discord names them in the reader's language.
type permissionList []string

// permissionName is Discord's name of a permission in p's language
// (permission.* of the catalogue: "Send Messages" is
// permission.send_messages), or its English name.
func permissionName(p *locale.Printer, english string) string {
	if id := "permission." + strings.ReplaceAll(strings.ToLower(english), " ", "_"); p.Has(id) {
		return p.T(id)
	}
	return english
}

// refuseWith returns a refusal worded by message id of the catalogue, with
// its arguments as name, value pairs (see locale.Printer.T).
func refuseWith(id string, args ...any) error {
	return &table.Refusal{ID: id, Args: args}
}

// Refusals the handlers share.
var (
	errNoGame      = &table.Refusal{ID: "refuse.no_game"}
	errNoLobby     = &table.Refusal{ID: "refuse.no_lobby"}
	errUnknownComp = &table.Refusal{ID: "refuse.unknown_component"}
	// errMisplaced: a button of this Meeple on a message it never put
	// it on (a forged click)
	errMisplaced   = &table.Refusal{ID: "refuse.misplaced_button"}
	errBusyChannel = &table.Refusal{ID: "refuse.busy_channel"}
	errGuildOnly   = &table.Refusal{ID: "refuse.guild_only"}
	errClosing     = &table.Refusal{ID: "refuse.closing"}
	errPickOne     = &table.Refusal{ID: "play.pick_one"}
	errNoSecret    = &table.Refusal{ID: "play.no_secret"}
)

// recordedNote tells a player that their move was recorded, when the
// database's answer to its commit was lost and a retry found the move
// kept: it counts, once.
const recordedNote = "play.recorded"

// errPanic stands for a recovered panic, which is logged where it happens.
var errPanic = &table.Refusal{ID: genericFailure}

// genericFailure is the message a user sees for an error that is not theirs.
const genericFailure = "refuse.failure"

// userMessage returns the words to show for err in p's language, and
// whether err is unexpected (a failure to log rather than a refusal to
// explain). Engine refusals reach the player in p's language.
func userMessage(p *locale.Printer, err error) (string, bool) {
	words, unexpected := explain(err)
	return words(p), unexpected
}

// explain returns what writes the words for err in a reader's language,
// and whether err is unexpected.
func explain(err error) (func(p *locale.Printer) string, bool) {
	message := func(id string) func(p *locale.Printer) string {
		return func(p *locale.Printer) string { return p.T(id) }
	}
	var replay *storage.ReplayError
	if errors.As(err, &replay) {
		return message(genericFailure), true // a stored game that no longer replays is not the user's doing
	}
	var refusal *table.Refusal
	if errors.As(err, &refusal) {
		return func(p *locale.Printer) string { return refusalText(p, refusal) }, false
	}
	var rule *engine.RuleError
	if errors.As(err, &rule) {
		var rules engine.Rules // names the items the reason mentions
		if in := (*table.RuleRefusal)(nil); errors.As(err, &in) {
			rules = in.Rules
		}
		return func(p *locale.Printer) string { return wording.ForRules(p, rules, nil).Refusal(rule) }, false
	}
	switch {
	case errors.Is(err, storage.ErrStale):
		return message("refuse.stale"), false
	case errors.Is(err, storage.ErrChannelBusy):
		return message(errBusyChannel.ID), false
	case errors.Is(err, storage.ErrNotFound):
		return message(errNoGame.ID), false
	case errors.Is(err, engine.ErrGameOver):
		return message("refuse.game_over"), false
	case errors.Is(err, engine.ErrNotYourTurn):
		return message("refuse.not_your_turn"), false
	case errors.Is(err, engine.ErrUnknownAction):
		return message("refuse.unknown_action"), false
	case errors.Is(err, engine.ErrIllegalAction):
		return message("refuse.illegal_action"), false
	}
	return message(genericFailure), true
}
