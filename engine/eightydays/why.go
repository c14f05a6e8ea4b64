package eightydays

import (
	"fmt"

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
)

func (w why) ok() bool { return w.code == allowed }

// err returns the refusal as an *engine.RuleError, or nil when allowed.
func (w why) err() error {
	kind := engine.ErrIllegalAction
	var reason string
	pawn := pawnLabel(int(w.pawn))
	switch w.code {
	case allowed:
		return nil
	case whyGameOver:
		kind, reason = engine.ErrGameOver, "the game is over"
	case whyNotSeated:
		kind, reason = engine.ErrNotYourTurn, fmt.Sprintf("seat %d is not at the table", w.a+1)
	case whyNotYourTurn:
		kind, reason = engine.ErrNotYourTurn, fmt.Sprintf("it is %s's turn", seatName(w.a))
	case whyKeepFirst:
		reason = "first choose which Passepartout card to apply: keep 1 or keep 2"
	case whyNothingDrawn:
		reason = "you have no Passepartout cards to choose between"
	case whyPoliceTurn:
		reason = "your hat is turned over at the Police: this turn you discard a Rumor card (discard)"
	case whyKeepRange:
		reason = fmt.Sprintf("you drew %d cards: keep 1 or keep 2", w.a)
	case whyCanMove:
		reason = "you can still move: pass only when you can neither pay for a move nor move back"
	case whyRestartInstead:
		reason = fmt.Sprintf("you have not passed Paris: instead of passing, go back to London and draw up to %d£ (restart)", RestartPounds)
	case whyNotAtPolice:
		reason = pawn + " is not waiting at the Police"
	case whyTwoPawns:
		reason = "you have two pawns: say which one, e.g. " + w.example(1)
	case whyOnePawn:
		reason = "you have one pawn: leave out the letter, e.g. " + w.example(0)
	case whyPawnHome:
		reason = pawn + " is already home in London"
	case whyMustLeave:
		reason = pawn + " must leave the Police space this turn"
	case whyForwardOnly:
		reason = fmt.Sprintf("%s is on space %d: move forward to a space after it, or use back to move back", pawn, w.a)
	case whyTrackEnds:
		reason = fmt.Sprintf("the track ends in London, space %d", LondonEnd)
	case whyLayover:
		reason = fmt.Sprintf("space %d is a Layover (%s): you can only reach it by moving back", w.a, w.text)
	case whyTaken:
		reason = fmt.Sprintf("space %d is taken: move to an unoccupied space", w.a)
	case whyTooDear:
		reason = fmt.Sprintf("moving %s costs %d£ and you have %d£", spaces(w.a), w.b, w.c)
	case whyPoliceNeedsRumor:
		reason = fmt.Sprintf("space %d is a Police space: you can only stop there with a Rumor card in hand", w.a)
	case whyLondonRumors:
		reason = fmt.Sprintf("you cannot come home to London with Rumor cards in hand (you hold %d)", w.a)
	case whyLondonPounds:
		reason = fmt.Sprintf("you would arrive in London with %d£ in hand: you must have %d£ or less", w.a, w.b)
	case whyNoLayoverBehind:
		reason = fmt.Sprintf("there is no Layover behind space %d to move back to (London is not a Layover)", w.a)
	case whyLayoverTaken:
		reason = fmt.Sprintf("the nearest Layover behind you, %s at %d, is taken: you can only move back to the nearest one", w.text, w.a)
	case whyNotPound:
		reason = fmt.Sprintf("you can only stay and take or give 10£ on a Pound space (%s is on %d, %s)", pawn, w.a, w.text)
	case whyCannotGive:
		reason = fmt.Sprintf("you have %d£: you cannot give 10£ to the bank", w.a)
	case whyRestartCanMove:
		reason = "you can still move: going back to London is only for when you cannot pay for any move"
	case whyPassedParis:
		reason = fmt.Sprintf("%s has passed Paris (space %d): with no move left you can only pass", pawn, w.a)
	case whyCharacterPays:
		reason = fmt.Sprintf("your characters can pay for a move: play %s, then move", w.text)
	case whyNoCharacter:
		reason = fmt.Sprintf("you hold no character %q to play", w.text)
	default:
		kind, reason = engine.ErrUnknownAction, "unknown action"
	}
	return engine.Refuse(kind, reason)
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

// spaces is "1 space", "4 spaces".
func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return fmt.Sprintf("%d spaces", n)
}
