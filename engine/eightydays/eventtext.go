package eightydays

import (
	"strconv"

	"github.com/meeplegames/meeple/engine"
)

// The game's log: every change of a traveller's pounds, Rumors, characters
// or pawns is told by an event whose text says what happened and what the
// traveller holds after it, in words a player reads without the rules at
// hand. The texts that need no amounts are built once per Rules, so most
// actions join one string.

// eventTexts holds the words of the events a turn may report, built once
// per Rules. Each table is by seat (0 to 5, all a state may hold), then by
// card index, race position or space.
type eventTexts struct {
	draws    [][]string // [seat][card]: "P2 draws Aouda (character ↻)"
	discards [][]string // [seat][card]: "P2 discards Storm, the card not kept"
	wins     []string   // [seat]: "P2 is home in London and wins"
	rounds   []string   // rounds[n]: "round n", for the first roundTexts rounds
	// places[n] names space n after a number: "4 (Bet 2)", "London".
	places []string
}

// roundTexts is how many round labels are built ahead: more than any game
// of fewer than a thousand turns needs.
const roundTexts = 512

// maxRank is the last race position: six travellers, or two with two pawns.
const maxRank = 6

// ReshuffleMark marks a card with the reshuffle symbol in texts.
const ReshuffleMark = "↻"

func (r *Rules) buildEventTexts() {
	e := &r.events
	seats := r.MaxPlayers()
	cards := r.content.Cards
	perCard := func(seat int, text func(name string, c int) string) []string {
		out := make([]string, len(cards))
		for c := range cards {
			out[c] = text(seatName(seat), c)
		}
		return out
	}
	for seat := 0; seat < seats; seat++ {
		e.draws = append(e.draws, perCard(seat, func(name string, c int) string {
			return name + " draws " + cards[c].Name + " (" + r.cardKind(c) + ")"
		}))
		e.discards = append(e.discards, perCard(seat, func(name string, c int) string {
			return name + " discards " + cards[c].Name + ", the card not kept"
		}))
		e.wins = append(e.wins, seatName(seat)+" is home in London and wins")
	}
	for n := 0; n < roundTexts; n++ {
		e.rounds = append(e.rounds, "round "+itoa(n))
	}
	for n := range r.kinds {
		place := itoa(n) + " (" + r.words[n] + ")"
		switch r.kinds[n] {
		case spaceLondon:
			place = "London"
		case spaceLayover:
			place = itoa(n) + " (" + r.content.Track[n].City + ", a Layover)"
		}
		e.places = append(e.places, place)
	}
}

// cardKind is "character" or "event", with the reshuffle mark.
func (r *Rules) cardKind(c int) string {
	card := &r.content.Cards[c]
	if card.Reshuffle {
		return card.Kind + " " + ReshuffleMark
	}
	return card.Kind
}

// roundLabel is "round n".
func (e *eventTexts) roundLabel(n int) string {
	if n >= 0 && n < len(e.rounds) {
		return e.rounds[n]
	}
	return "round " + itoa(n)
}

// teller builds an event's text in a buffer the state reuses, so that a
// text costs one allocation however many parts it joins.
type teller struct{ buf []byte }

func (t *teller) start(text string) *teller {
	t.buf = append(t.buf[:0], text...)
	return t
}

func (t *teller) add(text string) *teller {
	t.buf = append(t.buf, text...)
	return t
}

func (t *teller) num(n int) *teller {
	t.buf = strconv.AppendInt(t.buf, int64(n), 10)
	return t
}

// pounds adds an amount: "20£".
func (t *teller) pounds(n int) *teller { return t.num(n).add("£") }

// rumors adds a count of Rumor cards: "no Rumor", "1 Rumor", "3 Rumors".
func (t *teller) rumors(n int) *teller {
	switch n {
	case 0:
		return t.add("no Rumor")
	case 1:
		return t.add("1 Rumor")
	}
	return t.num(n).add(" Rumors")
}

// pawn adds "" with one pawn, " pawn a" with two.
func (t *teller) pawn(pw int) *teller {
	if pw == 0 {
		return t
	}
	t.buf = append(t.buf, " pawn "...)
	t.buf = append(t.buf, byte('a'+pw-1))
	return t
}

func (t *teller) String() string { return string(t.buf) }

// hatText tells a pawn arriving at the Police.
func (s *State) hatText(seat, pw int) string {
	t := s.text.start(seatName(seat)).add("'s hat")
	if pw > 0 {
		t.buf = append(t.buf, " (pawn "...)
		t.buf = append(t.buf, byte('a'+pw-1), ')')
	}
	return t.add(" is turned over at the Police: the next turn is spent discarding a Rumor").String()
}

// betText tells what the Bet on space n did for seat in race position
// rank before its move; a 4/5/6 space that cannot pay in this game says why.
func (s *State) betText(seat, n, rank int, paid bool) string {
	t := s.text.start(seatName(seat)).add(" is ").add(engine.Ordinal(rank)).add(" on ").add(s.rules.words[n])
	switch {
	case paid:
		t.add(" and takes ").pounds(rank * PositionPayPerRank).add(": ").pounds(s.Seats[seat].Pounds).add(" now")
	case s.betDead(n):
		t.add(": that space pays nothing with 2 or 3 players")
	default:
		t.add(": the Bet pays nothing")
	}
	return t.String()
}

// moveText tells a move forward: "P1 moves from 0 to 4 (Bet 2) for 10£:
// 70£ left", with what played characters took off the cost.
func (s *State) moveText(seat, pw, from, to, price int) string {
	t := s.text.start(seatName(seat)).add(" moves").pawn(pw).add(" from ").num(from).add(" to ").add(s.rules.events.places[to]).add(" for ").pounds(price)
	if full := cost(to - from); full != price {
		t.add(" (").pounds(full).add(" less ").pounds(full - price).add(" from characters)")
	}
	return t.add(": ").pounds(s.Seats[seat].Pounds).add(" left").String()
}

// backText tells a move back to a Layover and the pounds it brought.
func (s *State) backText(seat, pw, from, to, gain int) string {
	return s.text.start(seatName(seat)).add(" moves").pawn(pw).add(" back from ").num(from).add(" to ").add(s.rules.events.places[to]).
		add(" and takes ").pounds(gain).add(": ").pounds(s.Seats[seat].Pounds).add(" now").String()
}

// stayText tells a stay on a Pound space.
func (s *State) stayText(seat, pw int, take bool) string {
	t := s.text.start(seatName(seat)).add(" stays").pawn(pw).add(" on the Pound space and ")
	if take {
		return t.add("takes ").pounds(PoundStep).add(": ").pounds(s.Seats[seat].Pounds).add(" now").String()
	}
	return t.add("gives the bank ").pounds(PoundStep).add(": ").pounds(s.Seats[seat].Pounds).add(" left").String()
}

// policeText tells a Rumor discarded at the Police from race position rank.
func (s *State) policeText(seat, rank, gain int) string {
	me := &s.Seats[seat]
	return s.text.start(seatName(seat)).add(" turns the hat back up and discards a Rumor at the Police (").rumors(me.Rumors).add(" left); ").
		add(engine.Ordinal(rank)).add(" place brings ").pounds(gain).add(": ").pounds(me.Pounds).add(" now").String()
}

// restartText tells a pawn sent back to London for want of money.
func (s *State) restartText(seat, pw, from int) string {
	return s.text.start(seatName(seat)).add(" cannot pay for a move before Paris and goes back").pawn(pw).add(" from ").num(from).
		add(" to London: ").pounds(s.Seats[seat].Pounds).add(" now").String()
}

// cardText tells a card's effect on seat, an event drawn ("Storm: P1
// pays 10£…") or a character played ("P1 plays Aouda and discards…"):
// the pounds actually paid or taken and the Rumor actually taken or
// discarded.
func (s *State) cardText(seat, paid, rumors int, card *Card, played bool) string {
	me := &s.Seats[seat]
	t := s.text.start(card.Name).add(": ").add(seatName(seat)).add(" ")
	if played {
		t.start(seatName(seat)).add(" plays ").add(card.Name).add(" and ")
	}
	parts := 0
	next := func() *teller {
		parts++
		if parts > 1 {
			return t.add(" and ")
		}
		return t
	}
	switch {
	case paid > 0:
		next().add("takes ").pounds(paid).add(": ").pounds(me.Pounds).add(" now")
	case paid < 0 && -paid < -card.Pounds:
		next().add("pays ").pounds(-paid).add(", all there was: ").pounds(me.Pounds).add(" left")
	case paid < 0:
		next().add("pays ").pounds(-paid).add(": ").pounds(me.Pounds).add(" left")
	case card.Pounds < 0:
		next().add("has no pounds to pay")
	}
	switch {
	case rumors > 0:
		next().add("takes a Rumor: ").rumors(me.Rumors).add(" now")
	case rumors < 0:
		next().add("discards a Rumor: ").rumors(me.Rumors).add(" left")
	case card.Rumors > 0:
		next().add("would take a Rumor, but none is left in the box")
	case card.Rumors < 0:
		next().add("has no Rumor to discard")
	}
	if card.Discount > 0 {
		next().add("saves ").pounds(card.Discount).add(" on this turn's move")
	}
	return t.String()
}
