package bot

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// refusal is a request the bot turns down, with the words the user sees:
// a message of the catalogue (id and its arguments, written in the
// reader's language) or, from the handlers not yet moved onto the
// catalogue, an English text. It changes nothing.
type refusal struct {
	id      string
	args    []any
	english string
}

func (r *refusal) Error() string {
	if r.id != "" {
		return r.id
	}
	return r.english
}

// in writes the refusal in p's language.
func (r *refusal) in(p *locale.Printer) string {
	if r.id == "" {
		return r.english
	}
	args := slices.Clone(r.args)
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
	return p.T(r.id, args...)
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

// refuse returns a refusal with a formatted English text.
func refuse(format string, args ...any) error {
	return &refusal{english: fmt.Sprintf(format, args...)}
}

// refuseWith returns a refusal worded by message id of the catalogue, with
// its arguments as name, value pairs (see locale.Printer.T).
func refuseWith(id string, args ...any) error {
	return &refusal{id: id, args: args}
}

// Refusals the handlers share.
var (
	errNoGame      = &refusal{id: "refuse.no_game"}
	errNoLobby     = &refusal{id: "refuse.no_lobby"}
	errUnknownComp = &refusal{id: "refuse.unknown_component"}
	// errMisplaced: a button of this Meeple on a message it never put
	// it on (a forged click)
	errMisplaced   = &refusal{id: "refuse.misplaced_button"}
	errBusyChannel = &refusal{id: "refuse.busy_channel"}
	errGuildOnly   = &refusal{id: "refuse.guild_only"}
	errClosing     = &refusal{id: "refuse.closing"}
	errPickOne     = &refusal{id: "play.pick_one"}
	errNoSecret    = &refusal{id: "play.no_secret"}
)

// recordedNote tells a player that their move was recorded, when the
// database's answer to its commit was lost and a retry found the move
// kept: it counts, once.
const recordedNote = "play.recorded"

// errPanic stands for a recovered panic, which is logged where it happens.
var errPanic = &refusal{id: genericFailure}

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
	var ref *refusal
	if errors.As(err, &ref) {
		return ref.in, false
	}
	var tableRefusal *table.Refusal
	if errors.As(err, &tableRefusal) {
		return fromTable(tableRefusal).in, false
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
		return errBusyChannel.in, false
	case errors.Is(err, storage.ErrNotFound):
		return errNoGame.in, false
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

// fromTable is the table's refusal r as the bot's, to be written in a
// reader's language.
func fromTable(r *table.Refusal) *refusal { return &refusal{id: r.ID, args: r.Args} }
