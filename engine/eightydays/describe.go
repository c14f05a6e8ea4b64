package eightydays

import (
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// Describe says in a few words what a legal action of seat would do now,
// for menus that list actions: "pay 6£ · Bet 2", "take 40£ · Calcutta
// (Layover)", "Kiouni the Elephant: this turn's move costs 15£ less". It
// returns "" for an action it cannot read or that is not legal now; it
// changes nothing.
func (s *State) Describe(seat engine.Seat, action string) string {
	a, err := s.parse(action)
	if err != nil || !s.refusal(int(seat), &a).ok() {
		return ""
	}
	me := &s.Seats[seat]
	switch a.Verb {
	case VerbMove:
		p := s.pawn(int(seat), a.Pawn)
		return "pay " + pounds(s.price(p.Space, a.To)) + " · " + s.rules.words[a.To]
	case VerbBack:
		p := s.pawn(int(seat), a.Pawn)
		to := s.rules.behind[p.Space]
		return "take " + pounds((p.Space-to)*BackPayPerSpace) + " · " + s.rules.words[to]
	case VerbStay:
		if a.Take {
			return "take " + pounds(PoundStep) + ", stay here"
		}
		return "give " + pounds(PoundStep) + ", stay here"
	case VerbDiscard:
		return "take " + pounds(s.Rank(s.pawn(int(seat), a.Pawn).Space)*PositionPayPerRank)
	case VerbRestart:
		return "back to London with at least " + pounds(RestartPounds)
	case VerbPass:
		return "no move this turn"
	case VerbKeep:
		c := s.Drawn[a.Card-1]
		if s.rules.content.Cards[c].Kind == CardCharacter {
			return s.rules.content.Cards[c].Name + " (character, played later): " + s.rules.effects[c]
		}
		return s.cardWords(c)
	case VerbPlay:
		for _, c := range me.Characters {
			if s.rules.content.Cards[c].ID == a.ID {
				return s.cardWords(c)
			}
		}
	}
	return ""
}

// price is what moving a pawn forward from space from to space to costs
// this turn, after the characters played.
func (s *State) price(from, to int) int { return max(0, cost(to-from)-s.Discount) }

func (s *State) cardWords(c int) string {
	return s.rules.content.Cards[c].Name + ": " + s.rules.effects[c]
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
