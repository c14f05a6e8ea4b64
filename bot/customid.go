package bot

import (
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/meeplegames/meeple/storage"
)

// customIDVersion prefixes every custom_id Meeple writes. A component
// drawn by an older build carries another prefix and is refused as stale:
// "m1" ids carried the game's version (its log's length), which an undo
// and another action bring back, where "m2" ids carry its revision.
const customIDVersion = "m2"

// oldCustomIDVersions are the prefixes of older builds' custom_ids, still
// on messages in channels: a click on one is told the board is out of date.
var oldCustomIDVersions = []string{"m1"}

// verb is what a component does when used.
type verb string

// The verbs of Meeple's components.
const (
	verbJoin      verb = "join"    // lobby: take a seat
	verbLeave     verb = "leave"   // lobby: give it up
	verbAddAI     verb = "addai"   // lobby: seat a computer player (arg: its name)
	verbDropAI    verb = "dropai"  // lobby: remove the last computer player
	verbStart     verb = "start"   // lobby: start (arg: "shuffle" or "order")
	verbAbandon   verb = "abandon" // ask to abandon the game
	verbConfirm   verb = "confirm" // confirm abandoning
	verbAct       verb = "act"     // play the action in arg
	verbPick      verb = "pick"    // select menu: play the chosen value
	verbSecret    verb = "secret"  // open the private input for a secret prompt
	verbModal     verb = "modal"   // modal submit of a secret or free-text action
	verbWhich     verb = "which"   // DM: which game a pending DM is for
	verbLogPage   verb = "log"     // show a page of the log (arg: page)
	verbTree      verb = "tree"    // board: open the action picker (arg: seat)
	verbTreeStep  verb = "step"    // select menu: a step in the action picker (arg: seat and path)
	verbTreeBack  verb = "back"    // a step back in the action picker (arg: seat and path)
	verbEndVote   verb = "endvote" // vote to end the game now
	verbFullBoard verb = "full"    // board: show the full board privately
	verbInbox     verb = "inbox"   // /inbox: show a page (arg: w or o, for waiting or other games, and the page)
	verbExtend    verb = "extend"  // agree to give a player more time (/game extend)
)

// knownVerbs is the set parseCustomID accepts.
var knownVerbs = map[verb]bool{
	verbJoin: true, verbLeave: true, verbAddAI: true, verbDropAI: true, verbStart: true,
	verbAbandon: true, verbConfirm: true, verbAct: true, verbPick: true, verbSecret: true,
	verbModal: true, verbWhich: true, verbLogPage: true, verbTree: true, verbTreeStep: true, verbTreeBack: true,
	verbEndVote: true, verbFullBoard: true, verbInbox: true, verbExtend: true,
}

// customID is the decoded custom_id of a component Meeple posted: the game
// it belongs to, the revision of the game's history it was drawn for (the
// store's guard: storage.Guard), and what it does. It never carries a
// secret: components on public messages only name public actions, and
// secret choices travel in select values or modal text.
type customID struct {
	Game     uint64
	Revision uint64
	Verb     verb
	Arg      string
}

// errCustomID: a custom_id that Meeple did not write.
var errCustomID = errors.New("unrecognised component")

// errOldCustomID: a custom_id an older build of Meeple wrote, on a message
// still in a channel; the component is stale.
var errOldCustomID = errors.New("component drawn by an older Meeple")

// componentID is the custom_id of a component drawn at revision at that
// does v with arg ("" for none). An arg that may be long is checked with
// fitsCustomID before the id is used.
func componentID(at storage.Guard, v verb, arg string) string {
	return customID{Game: at.Game, Revision: at.Revision, Verb: v, Arg: arg}.encode()
}

// encode writes id as "m2:<game base 36>:<revision base 36>:<verb>[:<arg>]".
func (id customID) encode() string {
	s := stamp(id.Game, id.Revision) + ":" + string(id.Verb)
	if id.Arg != "" {
		s += ":" + id.Arg
	}
	return s
}

// fitsCustomID reports whether Discord takes s as a custom_id.
func fitsCustomID(s string) bool {
	return utf8.RuneCountInString(s) <= transport.MaxCustomID && utf8.ValidString(s)
}

// stamp is the beginning of a custom_id, and of an autocomplete choice's
// value (listValue): "m2:<game base 36>:<revision base 36>".
func stamp(game, revision uint64) string {
	return customIDVersion + ":" + strconv.FormatUint(game, 36) + ":" + strconv.FormatUint(revision, 36)
}

// readStamp reads the game and revision of a stamp split at its colons
// (version, game, revision), each number in the one form stamp writes.
func readStamp(parts []string) (game, revision uint64, ok bool) {
	if len(parts) < 3 || parts[0] != customIDVersion {
		return 0, 0, false
	}
	game, err1 := strconv.ParseUint(parts[1], 36, 64)
	revision, err2 := strconv.ParseUint(parts[2], 36, 64)
	ok = err1 == nil && err2 == nil && strconv.FormatUint(game, 36) == parts[1] && strconv.FormatUint(revision, 36) == parts[2]
	return game, revision, ok
}

// parseCustomID decodes a custom_id written by encode. One an older build
// wrote wraps errOldCustomID; anything else wraps errCustomID.
func parseCustomID(s string) (customID, error) {
	if utf8.RuneCountInString(s) > transport.MaxCustomID || !utf8.ValidString(s) {
		return customID{}, fmt.Errorf("%w: too long", errCustomID)
	}
	parts := strings.SplitN(s, ":", 5)
	if len(parts) >= 4 && slices.Contains(oldCustomIDVersions, parts[0]) {
		return customID{}, fmt.Errorf("%w: %.20q", errOldCustomID, s)
	}
	if len(parts) < 4 || parts[0] != customIDVersion {
		return customID{}, fmt.Errorf("%w: %.20q", errCustomID, s)
	}
	game, revision, ok := readStamp(parts)
	if !ok {
		return customID{}, fmt.Errorf("%w: bad game or revision", errCustomID)
	}
	id := customID{Game: game, Revision: revision, Verb: verb(parts[3])}
	if len(parts) == 5 {
		if parts[4] == "" {
			return customID{}, fmt.Errorf("%w: empty argument", errCustomID)
		}
		id.Arg = parts[4]
	}
	if !knownVerbs[id.Verb] {
		return customID{}, fmt.Errorf("%w: unknown verb", errCustomID)
	}
	return id, nil
}
