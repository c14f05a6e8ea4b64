package crystalpalace

// worthFeatures are the numbers the search's evaluation reads from a seat's
// position at the start of a round, each weighed by worthWeights.
const worthFeatures = 23

// The features that count money: pounds in hand, and the income and
// salaries of the rounds left.
const (
	poundFeature  = 2
	incomeFeature = 3
	salaryFeature = 4
)

// The search trusts the fitted weights of money only in part. A seat with
// pounds or income at a round's start is mostly a seat that plays well,
// and the fit credits the money with that play: it weighs a pound at 0.6
// to 1.0 points and a pound of income or salary a round as much. Searches
// that believed it kept their pounds and shunned characters for their
// salaries. Worth scales those features by these factors, found by
// playing four strong players (docs/computer-players.md).
const (
	poundTrust = 0.7 // pounds in hand
	flowTrust  = 0.5 // income and salaries of the rounds left
)

// features writes seat's worthFeatures into f.
func (s *State) features(seat int, f *[worthFeatures]float64) {
	p := &s.Seats[seat]
	left := float64(6 - s.Round) // rounds still to play, this one included
	salary := s.salary(seat)
	patents := 0.0
	for _, id := range p.Patents {
		patents += max(0, s.patentWorth(seat, id))
	}
	unpaid := 0.0
	for _, list := range [][]Slot{p.Slots, p.Extra} {
		for _, sl := range list {
			if sl.Kind == slotLoan && !sl.Repaid {
				unpaid++
			}
		}
	}
	ahead := 0.0 // seats further on the Buzz track
	for o := range s.Seats {
		if o != seat && s.Seats[o].Buzz > p.Buzz {
			ahead++
		}
	}
	objective := 0.0
	if p.Obj > 0 {
		objective = float64(s.c.Mats[p.Mat].Objective[p.Obj-1].VP)
	}
	*f = [worthFeatures]float64{
		1,
		float64(p.VP),
		float64(p.Pounds),
		float64(s.c.Tracks.Income[p.Income].Income) * left,
		float64(salary) * left,
		float64(p.Gears),
		float64(p.Energy),
		float64(p.News),
		float64(p.Dice+p.New) * left,
		float64(p.Buzz),
		float64(p.West),
		float64(s.count(seat, metricMarket)),
		float64(len(p.Patents)),
		patents,
		float64(len(p.Chars)),
		float64(s.count(seat, metricResearch)),
		float64(s.count(seat, metricGreenResearch)) * left,
		unpaid,
		objective,
		float64(len(p.Tokens)) * left,
		ahead,
		float64(len(p.Protos)),
		float64(max(0, p.Dice+p.New+salary-p.Pounds-p.News-p.Gears-p.Energy)),
	}
}

// worth is the points seat can expect at the end of the game. At the start
// of rounds 2 to 5, where the search's rollouts stop, it is a linear model
// of features whose weights were fitted to the final scores of games
// between searching players (worth_weights.go, TestFitWorth); elsewhere
// it is the heuristic's estimate.
func (s *State) worth(seat int) float64 {
	if s.CurrentPhase != phaseDice || s.Round < 2 || s.Round > 5 {
		return s.estimate(seat)
	}
	var f [worthFeatures]float64
	s.features(seat, &f)
	f[poundFeature] *= poundTrust
	f[incomeFeature] *= flowTrust
	f[salaryFeature] *= flowTrust
	w := 0.0
	for k, x := range f {
		w += worthWeights[s.Round][k] * x
	}
	return w
}
