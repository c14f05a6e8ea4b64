package eightydays

import (
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Describe says in a few words what a legal action of seat would do now,
// for menus that list actions: "pay 6£ · Bet 2", "take 40£ · Calcutta
// (Layover)", "Kiouni the Elephant: this turn's move costs 15£ less", as
// data for the wording layer (engine.Describer). It is the zero Text for
// an action it cannot read or that is not legal now; it changes nothing.
func (s *State) Describe(seat engine.Seat, action string) engine.Text {
	a, err := s.parse(action)
	if err != nil || !s.refusal(int(seat), &a).ok() {
		return engine.Text{}
	}
	me := &s.Seats[seat]
	ev := &s.rules.events
	switch a.Verb {
	case VerbMove:
		p := s.pawn(int(seat), a.Pawn)
		return engine.Dotted(engine.Say("ed.describe.pay", engine.Num("Pounds", s.price(p.Space, a.To))), ev.spaces[a.To])
	case VerbBack:
		p := s.pawn(int(seat), a.Pawn)
		to := s.rules.behind[p.Space]
		return engine.Dotted(engine.Say("ed.describe.take", engine.Num("Pounds", (p.Space-to)*BackPayPerSpace)), ev.spaces[to])
	case VerbStay:
		if a.Take {
			return engine.Say("ed.describe.stay_take", engine.Num("Pounds", PoundStep))
		}
		return engine.Say("ed.describe.stay_give", engine.Num("Pounds", PoundStep))
	case VerbDiscard:
		return engine.Say("ed.describe.take", engine.Num("Pounds", s.Rank(s.pawn(int(seat), a.Pawn).Space)*PositionPayPerRank))
	case VerbRestart:
		return engine.Say("ed.describe.restart", engine.Num("Pounds", RestartPounds))
	case VerbPass:
		return engine.Say("ed.describe.pass")
	case VerbKeep:
		c := s.Drawn[a.Card-1]
		if s.rules.content.Cards[c].Kind == CardCharacter {
			return engine.Say("ed.describe.keep_character", engine.Item("Card", s.rules.keys.card[c]), engine.Ref("Effect", &ev.effects[c]))
		}
		return s.cardWords(c)
	case VerbPlay:
		for _, c := range me.Characters {
			if s.rules.content.Cards[c].ID == a.ID {
				return s.cardWords(c)
			}
		}
	}
	return engine.Text{}
}

// price is what moving a pawn forward from space from to space to costs
// this turn, after the characters played.
func (s *State) price(from, to int) int { return max(0, cost(to-from)-s.Discount) }

// cardWords is card c and what it does: "Aouda: discard 1 Rumor".
func (s *State) cardWords(c int) engine.Text {
	return engine.Say("ed.describe.card", engine.Item("Card", s.rules.keys.card[c]), engine.Ref("Effect", &s.rules.events.effects[c]))
}

// spaceWords names space n for a player: "Bet 4/5/6", "Calcutta (Layover)";
// NewRules keeps them in words.
func (r *Rules) spaceWords(n int) string {
	sp := r.content.Track[n]
	switch r.kinds[n] {
	case spaceLondon:
		return "London"
	case spaceLayover:
		return sp.City + " (Layover)"
	case spaceBet:
		bets := make([]string, len(sp.Bets))
		for i, b := range sp.Bets {
			bets[i] = itoa(b)
		}
		return "Bet " + strings.Join(bets, "/")
	case spacePound:
		return "Pound"
	case spacePolice:
		return "Police"
	}
	return "Passepartout"
}
