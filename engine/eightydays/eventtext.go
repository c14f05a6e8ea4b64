package eightydays

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

// Ordinal writes a race position: 1st, 2nd, 3rd, 4th, ….
func Ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return itoa(n) + "th"
	case n%10 == 1:
		return itoa(n) + "st"
	case n%10 == 2:
		return itoa(n) + "nd"
	case n%10 == 3:
		return itoa(n) + "rd"
	}
	return itoa(n) + "th"
}

// roundLabel is "round n".
func (e *eventTexts) roundLabel(n int) string {
	if n >= 0 && n < len(e.rounds) {
		return e.rounds[n]
	}
	return "round " + itoa(n)
}

// betText tells what the Bet on space n did for seat in race position
// rank before its move; a 4/5/6 space that cannot pay in this game says why.
func (s *State) betText(seat, n, rank int, paid bool) string {
	text := seatName(seat) + " is " + Ordinal(rank) + " on " + s.rules.words[n]
	switch {
	case paid:
		return text + " and takes " + pounds(rank*PositionPayPerRank) + ": " + pounds(s.Seats[seat].Pounds) + " now"
	case s.betDead(n):
		return text + ": that space pays nothing with 2 or 3 players"
	}
	return text + ": the Bet pays nothing"
}

// pawnWords is "" with one pawn, " pawn a" with two.
func pawnWords(pw int) string {
	if pw == 0 {
		return ""
	}
	return " pawn " + string(rune('a'+pw-1))
}

// moveText tells a move forward: "P1 moves from 0 to 4 (Bet 2) for 10£:
// 70£ left", with what played characters took off the cost.
func (s *State) moveText(seat, pw, from, to, price int) string {
	text := seatName(seat) + " moves" + pawnWords(pw) + " from " + itoa(from) + " to " + s.rules.events.places[to] + " for " + pounds(price)
	if full := cost(to - from); full != price {
		text += " (" + pounds(full) + " less " + pounds(full-price) + " from characters)"
	}
	return text + ": " + pounds(s.Seats[seat].Pounds) + " left"
}

// backText tells a move back to a Layover and the pounds it brought.
func (s *State) backText(seat, pw, from, to, gain int) string {
	return seatName(seat) + " moves" + pawnWords(pw) + " back from " + itoa(from) + " to " + s.rules.events.places[to] +
		" and takes " + pounds(gain) + ": " + pounds(s.Seats[seat].Pounds) + " now"
}

// stayText tells a stay on a Pound space.
func (s *State) stayText(seat, pw int, take bool) string {
	text := seatName(seat) + " stays" + pawnWords(pw) + " on the Pound space and "
	if take {
		return text + "takes " + pounds(PoundStep) + ": " + pounds(s.Seats[seat].Pounds) + " now"
	}
	return text + "gives the bank " + pounds(PoundStep) + ": " + pounds(s.Seats[seat].Pounds) + " left"
}

// policeText tells a Rumor discarded at the Police from race position rank.
func (s *State) policeText(seat, rank, gain int) string {
	me := &s.Seats[seat]
	return seatName(seat) + " turns the hat back up and discards a Rumor at the Police (" + rumorCount(me.Rumors) + " left); " +
		Ordinal(rank) + " place brings " + pounds(gain) + ": " + pounds(me.Pounds) + " now"
}

// rumorCount is "1 Rumor", "no Rumor", "3 Rumors".
func rumorCount(n int) string {
	switch n {
	case 0:
		return "no Rumor"
	case 1:
		return "1 Rumor"
	}
	return itoa(n) + " Rumors"
}

// change tells what a card's effect did to seat: the pounds actually
// paid or taken and the Rumor actually taken or discarded.
func (s *State) change(seat, paid, rumors int, card *Card) string {
	me := &s.Seats[seat]
	var parts []string
	switch {
	case paid > 0:
		parts = append(parts, "takes "+pounds(paid)+": "+pounds(me.Pounds)+" now")
	case paid < 0 && -paid < -card.Pounds:
		parts = append(parts, "pays "+pounds(-paid)+", all there was: "+pounds(me.Pounds)+" left")
	case paid < 0:
		parts = append(parts, "pays "+pounds(-paid)+": "+pounds(me.Pounds)+" left")
	case card.Pounds < 0:
		parts = append(parts, "has no pounds to pay")
	}
	switch {
	case rumors > 0:
		parts = append(parts, "takes a Rumor: "+rumorCount(me.Rumors)+" now")
	case rumors < 0:
		parts = append(parts, "discards a Rumor: "+rumorCount(me.Rumors)+" left")
	case card.Rumors > 0:
		parts = append(parts, "would take a Rumor, but none is left in the box")
	case card.Rumors < 0:
		parts = append(parts, "has no Rumor to discard")
	}
	if card.Discount > 0 {
		parts = append(parts, "saves "+pounds(card.Discount)+" on this turn's move")
	}
	text := ""
	for i, p := range parts {
		switch {
		case i == 0:
		case i == len(parts)-1:
			text += " and "
		default:
			text += ", "
		}
		text += p
	}
	return text
}
