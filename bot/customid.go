package bot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// customIDVersion prefixes every custom_id Meeple writes. A component
// drawn by an older build carries another prefix and is refused as stale:
// "m1" ids carried the game's version (its log's length), which an undo
// and another action bring back, where "m2" ids carry its revision.
const customIDVersion = "m2"

// oldCustomIDVersions are the prefixes of older builds' custom_ids, still
// on messages in channels: a click on one is told the board is out of date.
var oldCustomIDVersions = []string{"m1"}

// maxCustomID is Discord's limit on a custom_id, in characters.
const maxCustomID = 100

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
)

// knownVerbs is the set ParseCustomID accepts.
var knownVerbs = map[verb]bool{
	verbJoin: true, verbLeave: true, verbAddAI: true, verbDropAI: true, verbStart: true,
	verbAbandon: true, verbConfirm: true, verbAct: true, verbPick: true, verbSecret: true,
	verbModal: true, verbWhich: true, verbLogPage: true, verbTree: true, verbTreeStep: true, verbTreeBack: true,
	verbEndVote: true, verbFullBoard: true,
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

// encode writes id as "m2:<game base 36>:<revision base 36>:<verb>[:<arg>]".
// It reports false when the result would exceed Discord's 100 characters.
func (id customID) encode() (string, bool) {
	s := customIDVersion + ":" + strconv.FormatUint(id.Game, 36) + ":" + strconv.FormatUint(id.Revision, 36) + ":" + string(id.Verb)
	if id.Arg != "" {
		s += ":" + id.Arg
	}
	return s, utf8.RuneCountInString(s) <= maxCustomID && id.valid()
}

func (id customID) valid() bool {
	return knownVerbs[id.Verb] && utf8.ValidString(id.Arg)
}

// parseCustomID decodes a custom_id written by encode. One an older build
// wrote wraps errOldCustomID; anything else wraps errCustomID.
func parseCustomID(s string) (customID, error) {
	if utf8.RuneCountInString(s) > maxCustomID || !utf8.ValidString(s) {
		return customID{}, fmt.Errorf("%w: too long", errCustomID)
	}
	parts := strings.SplitN(s, ":", 5)
	if len(parts) >= 4 && slices.Contains(oldCustomIDVersions, parts[0]) {
		return customID{}, fmt.Errorf("%w: %.20q", errOldCustomID, s)
	}
	if len(parts) < 4 || parts[0] != customIDVersion {
		return customID{}, fmt.Errorf("%w: %.20q", errCustomID, s)
	}
	game, err := strconv.ParseUint(parts[1], 36, 64)
	if err != nil || strconv.FormatUint(game, 36) != parts[1] {
		return customID{}, fmt.Errorf("%w: bad game id", errCustomID)
	}
	revision, err := strconv.ParseUint(parts[2], 36, 64)
	if err != nil || strconv.FormatUint(revision, 36) != parts[2] {
		return customID{}, fmt.Errorf("%w: bad revision", errCustomID)
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
