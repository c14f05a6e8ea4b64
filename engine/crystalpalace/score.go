package crystalpalace

import (
	"slices"

	"github.com/meeplegames/meeple/engine"
)

// endScoring is the end of the game after phase 6 of round 5.
func (s *State) endScoring() {
	e := &s.c.Tracks.Economy
	for seat := range s.Seats {
		p := &s.Seats[seat]
		// In the printed order: loans are paid back (the costliest first),
		// then leftover goods turn into a pound each.
		for p.Pounds >= e.RepayPounds {
			sl := costliestLoan(p)
			if sl == nil {
				break
			}
			sl.Repaid = true
			p.Pounds -= e.RepayPounds
		}
		s.report(seat, "end: loans paid back")
		p.Pounds += p.Energy + p.Gears + p.News
		p.Energy, p.Gears, p.News = 0, 0, 0
		s.report(seat, "end: leftover goods sold")
		// 10-pound notes cover free research spaces.
		for p.Pounds >= e.NotePounds {
			i := freeSlot(p)
			if i < 0 {
				break
			}
			p.Slots[i] = Slot{Kind: slotNote}
			p.Pounds -= e.NotePounds
		}
		s.report(seat, "end: 10 £ notes on free research spaces")
	}
	s.scoreBuzz()
	s.reportAll("end: Buzz ranking")
	// Black Market: the highest assistants score 3, 2, 1.
	k := 0
	for t := len(s.Market) - 1; t >= 0 && k < len(e.MarketVP); t-- {
		if o := s.Market[t]; o >= 0 {
			s.addVP(o, e.MarketVP[k], vpBlackMarket)
			k++
		}
	}
	s.reportAll("end: Black Market ranking")
	for seat := range s.Seats {
		p := &s.Seats[seat]
		if p.Obj > 0 {
			s.addVP(seat, s.c.Mats[p.Mat].Objective[p.Obj-1].VP, vpObjective)
		}
		s.reportN(seat, "end: objective level", p.Obj)
		for _, sl := range append(append([]Slot(nil), p.Slots...), p.Extra...) {
			switch {
			case sl.Kind == slotLoan && sl.Repaid:
				s.addVP(seat, e.RepaidVP, vpLoans)
			case sl.Kind == slotLoan:
				s.addVP(seat, sl.ID, vpLoans)
			}
		}
		s.report(seat, "end: loans")
		for _, sl := range p.Slots {
			if sl.Kind == slotEmpty {
				s.addVP(seat, e.EmptySpaceVP, vpResearchSpaces)
			}
		}
		s.report(seat, "end: empty research spaces")
	}
	s.reportAll("end of the game")
	s.Done = true
	winners := s.winners()
	scores := make([]engine.Arg, 0, s.PlayerCount+2)
	scores = append(scores, engine.Seats("Winners", winners...), engine.Num("VP", s.Seats[winners[0]].VP), engine.Num("Count", len(winners)))
	for _, seat := range s.byScore() {
		scores = append(scores, engine.Part(engine.Nested("", s.say("cp.log.score", engine.Who("Who", engine.Seat(seat)), engine.Num("VP", s.Seats[seat].VP)))))
	}
	s.emit(engine.EventEnd, -1, engine.Text{ID: "cp.log.end", Args: scores}, false)
}

// byScore lists the seats from the most VP to the fewest, in seat order on
// ties.
func (s *State) byScore() []int {
	seats := make([]int, s.PlayerCount)
	for i := range seats {
		seats[i] = i
	}
	slices.SortStableFunc(seats, func(a, b int) int { return s.Seats[b].VP - s.Seats[a].VP })
	return seats
}

func costliestLoan(p *Player) *Slot {
	var best *Slot
	for _, list := range [][]Slot{p.Slots, p.Extra} {
		for i := range list {
			sl := &list[i]
			if sl.Kind == slotLoan && !sl.Repaid && (best == nil || sl.ID < best.ID) {
				best = sl
			}
		}
	}
	return best
}

// buzzOrder ranks seats on the Buzz track: further first, then by entry
// ticket. Seats in the same group are tied.
func (s *State) buzzOrder() [][]int {
	key := func(seat int) int {
		k := s.Seats[seat].Buzz * 10
		for i, t := range s.Tickets {
			if t == seat {
				k += 9 - i
			}
		}
		return k
	}
	seats := make([]int, s.PlayerCount)
	for i := range seats {
		seats[i] = i
	}
	slices.SortStableFunc(seats, func(a, b int) int { return key(b) - key(a) })
	var groups [][]int
	for i, seat := range seats {
		if i > 0 && key(seat) == key(seats[i-1]) {
			groups[len(groups)-1] = append(groups[len(groups)-1], seat)
		} else {
			groups = append(groups, []int{seat})
		}
	}
	return groups
}

// scoreBuzz gives 6/4/2 by Buzz position, ties sharing the tiers they
// cover, rounded down.
func (s *State) scoreBuzz() {
	ranks := s.c.Tracks.Buzz.RankVP
	pos := 0
	for _, g := range s.buzzOrder() {
		total := 0
		for i := pos; i < pos+len(g) && i < len(ranks); i++ {
			total += ranks[i]
		}
		if total > 0 {
			for _, seat := range g {
				s.addVP(seat, total/len(g), vpBuzzRank)
			}
		}
		pos += len(g)
	}
}

// winners are the seats with the most VP (all of them win a tie).
func (s *State) winners() []engine.Seat {
	best := 0
	for seat := range s.Seats {
		if seat == 0 || s.Seats[seat].VP > best {
			best = s.Seats[seat].VP
		}
	}
	var out []engine.Seat
	for seat := range s.Seats {
		if s.Seats[seat].VP == best {
			out = append(out, engine.Seat(seat))
		}
	}
	return out
}

// Result implements engine.State.
func (s *State) Result() engine.Result {
	res := engine.Result{Over: s.Done, Scores: make([]int, s.PlayerCount), Breakdown: make([]map[string]int, s.PlayerCount), Counters: map[string]int{},
		Winners: s.winners()}
	for seat := range s.Seats {
		p := &s.Seats[seat]
		res.Scores[seat] = p.VP
		bd := map[string]int{}
		for i, v := range p.VPBy {
			if v != 0 {
				bd[sourceName(i)] = v
			}
		}
		res.Breakdown[seat] = bd
	}
	if !s.Done {
		return res
	}
	for seat := range s.Seats {
		p := &s.Seats[seat]
		for _, i := range append(cloneInts(p.Patents), p.Protos...) {
			res.Counters["taken:patent:"+s.c.Patents[i].ID]++
		}
		for _, i := range p.Protos {
			res.Counters["built:prototype:"+s.c.Patents[i].ID]++
		}
		for _, i := range p.Chars {
			res.Counters["taken:character:"+s.c.Characters[i].ID]++
		}
		for _, sl := range p.Slots {
			if sl.Kind == slotResearch {
				res.Counters["taken:research:"+s.c.Research[sl.ID].ID]++
			}
		}
		for _, i := range p.Shares {
			res.Counters["taken:share:"+s.c.Shares[i].ID]++
		}
	}
	for _, id := range s.Discarded {
		res.Counters["taken:research:"+s.c.Research[id].ID]++
	}
	res.Counters["rounds"] = s.Round
	return res
}
