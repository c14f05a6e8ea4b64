package crystalpalace

import (
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// Unasked implements engine.Unasked: the answers a player of Crystal
// Palace would never stop to think about, which a table applies for them
// (the log says so). They are
//   - a prompt with one possible answer, or only "pass" and "pass always";
//   - a free instant bonus (see freeGain): declining it never helps;
//   - a debt that selling goods and exchanging newspapers could not make
//     smaller in loans: "pay", the loans follow;
//   - green bonus sources that give the same effects: the first.
//
// A debt that raising money would shrink is asked, so that the player can
// raise it first with the free actions.
func (s *State) Unasked(p engine.Prompt) (string, engine.Text, bool) {
	seat := int(p.Seat)
	if s.Done || seat < 0 || seat >= s.PlayerCount {
		return "", engine.Text{}, false
	}
	q := s.Seats[seat].Queue
	if len(q) == 0 {
		if len(p.Actions) == len(passOnly) && p.Actions[0] == passOnly[0] && p.Actions[1] == passOnly[1] {
			return p.Actions[0], engine.Say("engine.unasked.only"), true
		}
		return engine.OnlyAnswer(p)
	}
	switch t := q[0]; t.Kind {
	case dPay:
		if s.raisingSavesALoan(seat, t.Amount) {
			return "", engine.Text{}, false
		}
		return s.r.actionText(Action{Verb: vPay}), engine.Say("cp.unasked.no_loan_saved"), true
	case dInstant:
		if freeGain(s.c.Characters[t.Subject].Instant[t.Amount]) {
			return s.r.actionText(Action{Verb: vAccept}), engine.Say("cp.unasked.free"), true
		}
	case dGreen:
		if opts := s.decisionActions(seat, t); len(opts) > 1 && s.sameGreen(seat, opts) {
			return s.r.actionText(opts[0]), engine.Say("engine.unasked.same"), true
		}
	}
	return engine.OnlyAnswer(p)
}

// freeGain reports whether taking instant bonus e can never leave a
// player worse off than declining it: pounds, VP, goods, newspapers,
// income, Buzz, Westminster steps or an objective level, with nothing to
// pay or choose. A die (paid for in phase 1), a research tile, a Black
// Market placement or the Pocket Watch may be worth declining.
func freeGain(e Effect) bool {
	switch e.gain {
	case gainObjective:
		return true
	case gainPounds, gainVP, gainGears, gainEnergy, gainNewspapers, gainIncome, gainBuzz, gainWestminster:
		return e.N > 0 && e.metric == metricNone
	}
	return false
}

// raisingSavesALoan reports whether seat, owing owed pounds, would need
// fewer loans after selling all its gears and energy and exchanging its
// newspapers for pounds.
func (s *State) raisingSavesALoan(seat, owed int) bool {
	p := &s.Seats[seat]
	e := &s.c.Tracks.Economy
	short := owed - p.Pounds
	raised := p.News/e.PoundNewspapers + p.Energy*e.SellEnergy + p.Gears*e.SellGear
	return short > 0 && loansFor(short-raised, e.LoanPounds) < loansFor(short, e.LoanPounds)
}

// sameGreen reports whether the green bonus sources opts of seat all give
// the same effects, so that choosing between them is no choice.
func (s *State) sameGreen(seat int, opts []Action) bool {
	first := s.greenSourceEffects(seat, opts[0])
	for _, a := range opts[1:] {
		if a.Key == srcWatch || opts[0].Key == srcWatch || !slices.Equal(first, s.greenSourceEffects(seat, a)) {
			return false
		}
	}
	return true
}
