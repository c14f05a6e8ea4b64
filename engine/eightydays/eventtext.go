package eightydays

import (
	"maps"
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// The game's log: every change of a traveller's pounds, Rumors, characters
// or pawns is told by an event whose text says what happened and what the
// traveller holds after it, in words a player reads without the rules at
// hand, as data for the wording layer (engine.Text). The texts that need
// no amounts are built once per Rules and shared.

// eventTexts holds the texts of the events a turn may report, built once
// per Rules (texts are immutable values, so events share them). Each table
// is by seat (0 to 5, all a state may hold), then by card index, race
// position or space.
type eventTexts struct {
	draws    [][]engine.Text // [seat][card]: "P2 draws Aouda (character ↻)"
	discards [][]engine.Text // [seat][card]: "P2 discards Storm, the card not kept"
	keeps    [][]engine.Text // [seat][card]: "P2 keeps Aouda to play on a later turn (…)"
	wins     []engine.Text   // [seat]: "P2 is home in London and wins"
	rounds   []engine.Text   // rounds[n]: "round n", for the first roundTexts rounds
	// places[n] names space n after a number: "4 (Bet 2)", "London".
	places []engine.Text
	// spaces[n] names space n for a player: "Bet 2", "Calcutta (Layover)".
	spaces []engine.Text
	// effects[c] is what card c does: "take 10£, discard 1 Rumor".
	effects []engine.Text
}

// roundTexts is how many round labels are built ahead: more than any game
// of fewer than a thousand turns needs.
const roundTexts = 512

// maxRank is the last race position: six travellers, or two with two pawns.
const maxRank = 6

// ReshuffleMark marks a card with the reshuffle symbol in texts.
const ReshuffleMark = "↻"

// Item keys of the content, for the wording layer: "card:<id>", "city:<n>".
const (
	keyCard = "card:"
	keyCity = "city:"
)

func (r *Rules) buildEventTexts() {
	e := &r.events
	seats := r.MaxPlayers()
	cards := r.content.Cards
	for c := range cards {
		e.effects = append(e.effects, cardEffect(&cards[c]))
	}
	perCard := func(seat int, text func(who engine.Arg, c int) engine.Text) []engine.Text {
		out := make([]engine.Text, len(cards))
		for c := range cards {
			out[c] = text(engine.Who("Who", engine.Seat(seat)), c)
		}
		return out
	}
	for seat := 0; seat < seats; seat++ {
		e.draws = append(e.draws, perCard(seat, func(who engine.Arg, c int) engine.Text {
			return engine.Say("ed.log.draw", who, engine.Item("Card", keyCard+cards[c].ID), engine.Msg("Kind", cardKindID(&cards[c]), 0))
		}))
		e.discards = append(e.discards, perCard(seat, func(who engine.Arg, c int) engine.Text {
			return engine.Say("ed.log.discard", who, engine.Item("Card", keyCard+cards[c].ID))
		}))
		e.keeps = append(e.keeps, perCard(seat, func(who engine.Arg, c int) engine.Text {
			return engine.Say("ed.log.keep", who, engine.Item("Card", keyCard+cards[c].ID), engine.Nested("Effect", e.effects[c]))
		}))
		e.wins = append(e.wins, engine.Say("ed.log.wins", engine.Who("Who", engine.Seat(seat))))
	}
	for n := 0; n < roundTexts; n++ {
		e.rounds = append(e.rounds, engine.Say("ed.round", engine.Num("N", n)))
	}
	for n := range r.kinds {
		e.spaces = append(e.spaces, r.spaceText(n))
		place := engine.Say("ed.place.space", engine.Num("N", n), engine.Nested("Space", e.spaces[n]))
		switch r.kinds[n] {
		case spaceLondon:
			place = engine.Say("ed.space.london")
		case spaceLayover:
			place = engine.Say("ed.place.layover", engine.Num("N", n), engine.Item("City", keyCity+itoa(n)))
		}
		e.places = append(e.places, place)
	}
}

// spaceText names space n for a player: "Bet 4/5/6", "Calcutta (Layover)".
func (r *Rules) spaceText(n int) engine.Text {
	switch r.kinds[n] {
	case spaceLondon:
		return engine.Say("ed.space.london")
	case spaceLayover:
		return engine.Say("ed.space.layover", engine.Item("City", keyCity+itoa(n)))
	case spaceBet:
		return engine.Say("ed.space.bet", engine.Code("Bets", r.words[n][len("Bet "):]))
	case spacePound:
		return engine.Say("ed.space.pound")
	case spacePolice:
		return engine.Say("ed.space.police")
	}
	return engine.Say("ed.space.passepartout")
}

// cardKindID is the message naming card's kind, with the reshuffle mark.
func cardKindID(card *Card) string {
	switch {
	case card.Kind == CardCharacter && card.Reshuffle:
		return "ed.kind.character_reshuffle"
	case card.Kind == CardCharacter:
		return "ed.kind.character"
	case card.Reshuffle:
		return "ed.kind.event_reshuffle"
	}
	return "ed.kind.event"
}

// cardEffect is what card does, as Card.Effect says it.
func cardEffect(c *Card) engine.Text {
	var parts []engine.Arg
	switch {
	case c.Pounds > 0:
		parts = append(parts, engine.Part(engine.Msg("", "ed.effect.take", c.Pounds)))
	case c.Pounds < 0:
		parts = append(parts, engine.Part(engine.Msg("", "ed.effect.pay", -c.Pounds)))
	}
	switch {
	case c.Rumors > 0:
		parts = append(parts, engine.Part(engine.Msg("", "ed.effect.rumor_take", c.Rumors)))
	case c.Rumors < 0:
		parts = append(parts, engine.Part(engine.Msg("", "ed.effect.rumor_discard", -c.Rumors)))
	}
	if c.Discount > 0 {
		parts = append(parts, engine.Part(engine.Msg("", "ed.effect.discount", c.Discount)))
	}
	return engine.Text{ID: "ed.effects", Args: parts}
}

// ItemName names the content item key in lang (engine.Namer): a card
// ("card:aouda") or a Layover's city ("city:38"), by the names the content
// gives for lang, else in English; "" for a key that names nothing.
func (r *Rules) ItemName(key, lang string) string {
	names := r.names[key]
	if n := names[lang]; n != "" {
		return n
	}
	return names["en"]
}

// ItemKeys lists the keys ItemName names, sorted. It implements
// engine.ItemLister.
func (r *Rules) ItemKeys() []string { return slices.Sorted(maps.Keys(r.names)) }

// roundText is "round n".
func (e *eventTexts) roundText(n int) engine.Text {
	if n >= 0 && n < len(e.rounds) {
		return e.rounds[n]
	}
	return engine.Say("ed.round", engine.Num("N", n))
}

// who is seat as argument "Who".
func who(seat int) engine.Arg { return engine.Who("Who", engine.Seat(seat)) }

// pawnArg is "" with one pawn, " pawn a" with two (pw 1 or 2).
func pawnArg(pw int) engine.Arg {
	switch pw {
	case 1:
		return engine.Msg("Pawn", "ed.pawn.a", 0)
	case 2:
		return engine.Msg("Pawn", "ed.pawn.b", 0)
	}
	return engine.Code("Pawn", "")
}

// pawnParen is "" with one pawn, " (pawn a)" with two.
func pawnParen(pw int) engine.Arg {
	switch pw {
	case 1:
		return engine.Msg("Pawn", "ed.pawn.paren_a", 0)
	case 2:
		return engine.Msg("Pawn", "ed.pawn.paren_b", 0)
	}
	return engine.Code("Pawn", "")
}

// rumorsArg counts Rumor cards: "no Rumor", "1 Rumor", "3 Rumors".
func rumorsArg(name string, n int) engine.Arg {
	if n == 0 {
		return engine.Msg(name, "ed.rumors_none", 0)
	}
	a := engine.Amount("ed.rumors", n)
	a.Name = name
	return a
}

// ordinal is race position rank as argument "Rank": "2nd".
func ordinal(rank int) engine.Arg {
	switch rank {
	case 1:
		return engine.Msg("Rank", "ed.ordinal.1", 0)
	case 2:
		return engine.Msg("Rank", "ed.ordinal.2", 0)
	case 3:
		return engine.Msg("Rank", "ed.ordinal.3", 0)
	case 4:
		return engine.Msg("Rank", "ed.ordinal.4", 0)
	case 5:
		return engine.Msg("Rank", "ed.ordinal.5", 0)
	case 6:
		return engine.Msg("Rank", "ed.ordinal.6", 0)
	}
	return engine.Code("Rank", engine.Ordinal(rank))
}

// hatText tells a pawn arriving at the Police.
func (s *State) hatText(seat, pw int) engine.Text {
	return engine.Say("ed.log.hat", who(seat), pawnParen(pw))
}

// betText tells what the Bet on space n did for seat in race position
// rank before its move; a 4/5/6 space that cannot pay in this game says why.
func (s *State) betText(seat, n, rank int, paid bool) engine.Text {
	space := engine.Ref("Space", &s.rules.events.spaces[n])
	ord := ordinal(rank)
	switch {
	case paid:
		return engine.Say("ed.log.bet.paid", who(seat), ord, space, engine.Num("Take", rank*PositionPayPerRank), engine.Num("Pounds", s.Seats[seat].Pounds))
	case s.betDead(n):
		return engine.Say("ed.log.bet.dead", who(seat), ord, space)
	}
	return engine.Say("ed.log.bet.nothing", who(seat), ord, space)
}

// moveText tells a move forward: "P1 moves from 0 to 4 (Bet 2) for 10£:
// 70£ left", with what played characters took off the cost.
func (s *State) moveText(seat, pw, from, to, price int) engine.Text {
	place := engine.Ref("To", &s.rules.events.places[to])
	if full := cost(to - from); full != price {
		return engine.Say("ed.log.move_discount", who(seat), pawnArg(pw), engine.Num("From", from), place, engine.Num("Price", price),
			engine.Num("Full", full), engine.Num("Less", full-price), engine.Num("Pounds", s.Seats[seat].Pounds))
	}
	return engine.Say("ed.log.move", who(seat), pawnArg(pw), engine.Num("From", from), place, engine.Num("Price", price), engine.Num("Pounds", s.Seats[seat].Pounds))
}

// backText tells a move back to a Layover and the pounds it brought.
func (s *State) backText(seat, pw, from, to, gain int) engine.Text {
	return engine.Say("ed.log.back", who(seat), pawnArg(pw), engine.Num("From", from), engine.Ref("To", &s.rules.events.places[to]),
		engine.Num("Take", gain), engine.Num("Pounds", s.Seats[seat].Pounds))
}

// stayText tells a stay on a Pound space.
func (s *State) stayText(seat, pw int, take bool) engine.Text {
	id := "ed.log.stay.give"
	if take {
		id = "ed.log.stay.take"
	}
	return engine.Say(id, who(seat), pawnArg(pw), engine.Num("Step", PoundStep), engine.Num("Pounds", s.Seats[seat].Pounds))
}

// policeText tells a Rumor discarded at the Police from race position rank.
func (s *State) policeText(seat, rank, gain int) engine.Text {
	me := &s.Seats[seat]
	return engine.Say("ed.log.police", who(seat), rumorsArg("Rumors", me.Rumors), ordinal(rank),
		engine.Num("Take", gain), engine.Num("Pounds", me.Pounds))
}

// restartText tells a pawn sent back to London for want of money.
func (s *State) restartText(seat, pw, from int) engine.Text {
	return engine.Say("ed.log.restart", who(seat), pawnArg(pw), engine.Num("From", from), engine.Num("Pounds", s.Seats[seat].Pounds))
}

// cardText tells a card's effect on seat, an event drawn ("Storm: P1
// pays 10£…") or a character played ("P1 plays Aouda and discards…"):
// the pounds actually paid or taken and the Rumor actually taken or
// discarded.
func (s *State) cardText(seat, paid, rumors, c int, played bool) engine.Text {
	me := &s.Seats[seat]
	card := &s.rules.content.Cards[c]
	args := make([]engine.Arg, 4, 7)
	args[0], args[1] = who(seat), engine.Item("Card", s.rules.keys.card[c])
	args[2], args[3] = engine.Num("Pounds", me.Pounds), rumorsArg("Rumors", me.Rumors)
	part := func(id string, n int) { args = append(args, engine.Part(engine.Msg("", id, n))) }
	switch {
	case paid > 0:
		part("ed.card.take", paid)
	case paid < 0 && -paid < -card.Pounds:
		part("ed.card.pay_all", -paid)
	case paid < 0:
		part("ed.card.pay", -paid)
	case card.Pounds < 0:
		part("ed.card.no_pounds", 0)
	}
	switch {
	case rumors > 0:
		part("ed.card.rumor_take", 0)
	case rumors < 0:
		part("ed.card.rumor_discard", 0)
	case card.Rumors > 0:
		part("ed.card.rumor_none_left", 0)
	case card.Rumors < 0:
		part("ed.card.rumor_none", 0)
	}
	if card.Discount > 0 {
		part("ed.card.discount", card.Discount)
	}
	if played {
		return engine.Text{ID: "ed.log.play", Args: args}
	}
	return engine.Text{ID: "ed.log.event", Args: args}
}
