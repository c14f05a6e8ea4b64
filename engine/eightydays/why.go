package eightydays

import (
	"github.com/meeplegames/meeple/engine"
)

// why is the legality predicate's answer: the zero value means "allowed",
// anything else names the rule that refuses and the numbers the reason
// needs. The words are only written (err) when a refusal reaches a player,
// so that listing legal actions costs no formatting.
type why struct {
	code    whyCode
	pawn    int8 // the pawn number concerned
	a, b, c int
	text    string
}

type whyCode uint8

const (
	allowed whyCode = iota
	whyGameOver
	whyNotSeated
	whyNotYourTurn
	whyKeepFirst
	whyNothingDrawn
	whyPoliceTurn
	whyKeepRange
	whyCanMove
	whyRestartInstead
	whyNotAtPolice
	whyTwoPawns
	whyOnePawn
	whyPawnHome
	whyMustLeave
	whyForwardOnly
	whyTrackEnds
	whyLayover
	whyTaken
	whyTooDear
	whyPoliceNeedsRumor
	whyLondonRumors
	whyLondonPounds
	whyNoLayoverBehind
	whyLayoverTaken
	whyNotPound
	whyCannotGive
	whyRestartCanMove
	whyPassedParis
	whyNoCharacter
	whyCharacterPays
	whyMustStay
)

func (w why) ok() bool { return w.code == allowed }

// err returns the refusal as an *engine.RuleError, its reason as data
// (ids ed.refuse.*, worded in the catalogues refuse.<lang>.toml), or nil
// when allowed.
func (w why) err() error {
	kind := engine.ErrIllegalAction
	say := func(id string, args ...engine.Arg) engine.Text { return engine.Say(id, args...) }
	pawn := pawnRefArg(int(w.pawn))
	space := engine.Num("Space", w.a)
	var reason engine.Text
	switch w.code {
	case allowed:
		return nil
	case whyGameOver:
		kind, reason = engine.ErrGameOver, say("ed.refuse.game_over")
	case whyNotSeated:
		kind, reason = engine.ErrNotYourTurn, say("ed.refuse.not_seated", engine.Num("Seat", w.a+1))
	case whyNotYourTurn:
		kind, reason = engine.ErrNotYourTurn, say("ed.refuse.turn_of", engine.Who("Who", engine.Seat(w.a)))
	case whyKeepFirst:
		reason = say("ed.refuse.keep_first")
	case whyNothingDrawn:
		reason = say("ed.refuse.nothing_drawn")
	case whyPoliceTurn:
		reason = say("ed.refuse.police_turn")
	case whyKeepRange:
		reason = say("ed.refuse.keep_range", engine.Num("Count", w.a))
	case whyCanMove:
		reason = say("ed.refuse.can_move")
	case whyRestartInstead:
		reason = say("ed.refuse.restart_instead", engine.Num("Pounds", RestartPounds))
	case whyNotAtPolice:
		reason = say("ed.refuse.not_at_police", pawn)
	case whyTwoPawns:
		reason = say("ed.refuse.two_pawns", engine.Code("Example", w.example(1)))
	case whyOnePawn:
		reason = say("ed.refuse.one_pawn", engine.Code("Example", w.example(0)))
	case whyPawnHome:
		reason = say("ed.refuse.pawn_home", pawn)
	case whyMustLeave:
		reason = say("ed.refuse.must_leave", pawn)
	case whyForwardOnly:
		reason = say("ed.refuse.forward_only", pawn, space)
	case whyTrackEnds:
		reason = say("ed.refuse.track_ends", engine.Num("Space", LondonEnd))
	case whyLayover:
		reason = say("ed.refuse.layover", space, engine.Item("City", keyCity+itoa(w.a)))
	case whyTaken:
		reason = say("ed.refuse.taken", space)
	case whyTooDear:
		reason = say("ed.refuse.too_dear", engine.Num("Count", w.a), engine.Num("Price", w.b), engine.Num("Pounds", w.c))
	case whyPoliceNeedsRumor:
		reason = say("ed.refuse.police_needs_rumor", space)
	case whyLondonRumors:
		reason = say("ed.refuse.london_rumors", engine.Num("Count", w.a))
	case whyLondonPounds:
		reason = say("ed.refuse.london_pounds", engine.Num("Pounds", w.a), engine.Num("Limit", w.b))
	case whyNoLayoverBehind:
		reason = say("ed.refuse.no_layover_behind", space)
	case whyLayoverTaken:
		reason = say("ed.refuse.layover_taken", engine.Item("City", keyCity+itoa(w.a)), space)
	case whyNotPound:
		reason = say("ed.refuse.not_pound", pawn, space, engine.Nested("Kind", say(spaceKindIDs[w.b], engine.Item("City", keyCity+itoa(w.a)))))
	case whyCannotGive:
		reason = say("ed.refuse.cannot_give", engine.Num("Pounds", w.a))
	case whyRestartCanMove:
		reason = say("ed.refuse.restart_can_move")
	case whyMustStay:
		reason = say("ed.refuse.must_stay", pawn, engine.Code("Example", w.stayExample()))
	case whyPassedParis:
		reason = say("ed.refuse.passed_paris", pawn, space)
	case whyCharacterPays:
		reason = say("ed.refuse.character_pays", engine.Code("Play", Action{Verb: VerbPlay, ID: w.text}.String()))
	case whyNoCharacter:
		reason = say("ed.refuse.no_character", engine.Code("Card", w.text))
	default:
		kind, reason = engine.ErrUnknownAction, say("ed.refuse.unknown")
	}
	return engine.RefuseWith(kind, reason)
}

// pawnRefArg names pawn pw (0: a traveller's only pawn) as argument
// "Pawn" of a refusal: "your pawn", "pawn a".
func pawnRefArg(pw int) engine.Arg {
	switch pw {
	case 1:
		return engine.Msg("Pawn", "ed.refuse.pawn.a", 0)
	case 2:
		return engine.Msg("Pawn", "ed.refuse.pawn.b", 0)
	}
	return engine.Msg("Pawn", "ed.refuse.pawn.yours", 0)
}

// spaceKindIDs word each kind of space after "on 12," in a refusal: "a
// Bet space"; a Layover's reads its city as "City".
var spaceKindIDs = [...]string{
	spaceLondon:       "ed.refuse.kind.london",
	spaceLayover:      "ed.refuse.kind.layover",
	spacePound:        "ed.refuse.kind.pound",
	spaceBet:          "ed.refuse.kind.bet",
	spacePolice:       "ed.refuse.kind.police",
	spacePassepartout: "ed.refuse.kind.passepartout",
}

// refusedAction keeps the refused action's verb, destination and choice in
// a why, for the example a reason gives.
func refusedAction(code whyCode, a *Action) why {
	take := 0
	if a.Take {
		take = 1
	}
	return why{code: code, a: int(a.Verb), b: a.To, c: take}
}

// example is the refused action written for the given pawn.
func (w why) example(pawn int) string {
	return Action{Verb: Verb(w.a), Pawn: pawn, To: w.b, Take: w.c == 1}.String()
}

// stayExample is the stay that takes 10£ with the refused pawn.
func (w why) stayExample() string {
	return Action{Verb: VerbStay, Pawn: int(w.pawn), Take: true}.String()
}
