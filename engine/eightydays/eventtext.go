package eightydays

// eventTexts holds the words of the events a turn may report, built once
// per Rules so that applying an action joins no strings in the common
// cases. Each table is by seat (0 to 5, all a state may hold), then by
// card index or race position; the rare texts that carry an amount of
// money (a restart) are still joined when they happen.
type eventTexts struct {
	draws    [][]string // [seat][card]: "P2 draws Aouda"
	keeps    [][]string // [seat][card]: "P2 keeps Aouda (…)", a character kept
	applies  [][]string // [seat][card]: "P2: Storm (…)", an event applied
	discards [][]string // [seat][card]: "P2 discards Storm", the card not kept
	plays    [][]string // [seat][card]: "P2 plays Aouda (…)"
	police   [][]string // [seat][rank]: "P2 discards a Rumor at the Police and takes 30£"
	wins     []string   // [seat]: "P2 is home in London and wins"
	// bets[seat][space][rank][paid] is the text of a Bet paid (or not) before
	// seat's move, for the Bet spaces only (nil elsewhere).
	bets   [][][][2]string
	rounds []string // rounds[n]: "round n", for the first roundTexts rounds
}

// roundTexts is how many round labels are built ahead: more than any game
// of fewer than a thousand turns needs.
const roundTexts = 512

// maxRank is the last race position: six travellers, or two with two pawns.
const maxRank = 6

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
		e.draws = append(e.draws, perCard(seat, func(name string, c int) string { return name + " draws " + cards[c].Name }))
		e.keeps = append(e.keeps, perCard(seat, func(name string, c int) string {
			return name + " keeps " + cards[c].Name + " (" + r.effects[c] + ")"
		}))
		e.applies = append(e.applies, perCard(seat, func(name string, c int) string {
			return name + ": " + cards[c].Name + " (" + r.effects[c] + ")"
		}))
		e.discards = append(e.discards, perCard(seat, func(name string, c int) string { return name + " discards " + cards[c].Name }))
		e.plays = append(e.plays, perCard(seat, func(name string, c int) string {
			return name + " plays " + cards[c].Name + " (" + r.effects[c] + ")"
		}))
		police := make([]string, maxRank+1)
		for rank := 1; rank <= maxRank; rank++ {
			police[rank] = policeText(seat, rank)
		}
		e.police = append(e.police, police)
		e.wins = append(e.wins, seatName(seat)+" is home in London and wins")
		bets := make([][][2]string, len(r.kinds))
		for n, kind := range r.kinds {
			if kind != spaceBet {
				continue
			}
			bets[n] = make([][2]string, maxRank+1)
			for rank := 1; rank <= maxRank; rank++ {
				bets[n][rank] = [2]string{r.betText(seat, n, rank, false), r.betText(seat, n, rank, true)}
			}
		}
		e.bets = append(e.bets, bets)
	}
	for n := 0; n < roundTexts; n++ {
		e.rounds = append(e.rounds, "round "+itoa(n))
	}
}

// policeText is seat's visit to the Police from race position rank.
func policeText(seat, rank int) string {
	return seatName(seat) + " discards a Rumor at the Police and takes " + pounds(rank*PositionPayPerRank)
}

// betText is what the Bet on space n does for seat in race position rank.
func (r *Rules) betText(seat, n, rank int, paid bool) string {
	text := seatName(seat) + " is in position " + itoa(rank) + " on " + r.words[n]
	if paid {
		return text + " and takes " + pounds(rank*PositionPayPerRank)
	}
	return text + ": the bet pays nothing"
}

// roundLabel is "round n".
func (e *eventTexts) roundLabel(n int) string {
	if n >= 0 && n < len(e.rounds) {
		return e.rounds[n]
	}
	return "round " + itoa(n)
}

// policeLabel is seat's Police text at race position rank.
func (e *eventTexts) policeLabel(seat, rank int) string {
	if rank >= 0 && rank < len(e.police[seat]) {
		return e.police[seat][rank]
	}
	return policeText(seat, rank)
}

// betLabel is the text of the Bet on space n for seat at race position rank.
func (r *Rules) betLabel(seat, n, rank int, paid bool) string {
	e := &r.events
	if e.bets[seat][n] != nil && rank >= 0 && rank < len(e.bets[seat][n]) {
		if paid {
			return e.bets[seat][n][rank][1]
		}
		return e.bets[seat][n][rank][0]
	}
	return r.betText(seat, n, rank, paid)
}
