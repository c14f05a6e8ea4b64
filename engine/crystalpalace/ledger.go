package crystalpalace

import (
	"github.com/meeplegames/meeple/engine"
)

// EventChange is the kind of the events that report a change of a seat's
// pounds, VP, goods, income, Buzz or track positions, with its cause: "P3:
// +9 £ (income)", or the line of the action that made it, "P2 places a 1 on
// space 4 at Westminster — -2 £ (fee)".
const EventChange = "change"

// tally is what the log reports changes of for one seat.
type tally struct {
	pounds, vp, gears, energy, news, dice int
	income, buzz, west, obj               int
}

// same reports whether p's figures are still those t holds.
func (t *tally) same(p *Player) bool {
	return t.pounds == p.Pounds && t.vp == p.VP && t.gears == p.Gears && t.energy == p.Energy && t.news == p.News &&
		t.dice == p.Dice+p.New+p.Tick && t.income == p.Income && t.buzz == p.Buzz && t.west == p.West && t.obj == p.Obj
}

func (s *State) tally(seat int) tally {
	p := &s.Seats[seat]
	return tally{pounds: p.Pounds, vp: p.VP, gears: p.Gears, energy: p.Energy, news: p.News,
		dice: p.Dice + p.New + p.Tick, income: p.Income, buzz: p.Buzz, west: p.West, obj: p.Obj}
}

// startLedger records every seat's tally as reported; Apply calls it before
// an action, so that report finds what changed since. After an action
// every change has been reported, so the tallies kept from it still hold
// (a copy or a decoded state starts without).
func (s *State) startLedger() {
	if len(s.seen) == s.PlayerCount {
		return
	}
	s.seen = make([]tally, s.PlayerCount)
	for seat := range s.seen {
		s.seen[seat] = s.tally(seat)
	}
}

// report emits what changed for seat since it was last reported, with
// cause ("income", "salaries", …; "" when the change is the action's own).
// States without a ledger (copies made to look ahead) report nothing.
func (s *State) report(seat int, cause string) {
	if seat < len(s.seen) && !s.seen[seat].same(&s.Seats[seat]) { // most often nothing changed
		s.reportN(seat, cause, 0)
	}
}

// reportN is report with a cause that counts something (n: "end:
// objective level 3").
func (s *State) reportN(seat int, cause string, n int) {
	if len(s.seen) <= seat {
		return
	}
	seen := &s.seen[seat]
	if seen.same(&s.Seats[seat]) { // the common case, checked without copying
		return
	}
	was, now := *seen, s.tally(seat)
	*seen = now
	fold := s.fold == len(s.ev) && s.fold > 0 && s.foldSeat == seat && (cause == "" || cause == s.own)
	// One slice holds the line's arguments: the line it joins or the seat,
	// the changes (parts), the cause.
	var args []engine.Arg
	var line *engine.Event
	if fold {
		// The action's own changes join the line that says what it does.
		line = &s.ev[s.fold-1]
		args = s.grow(line.Text.Args, 1+changes(was, now)+causes(cause))
		args = append(args, engine.Arg{Name: "Before", Kind: engine.ArgInline, S: line.Text.ID, M: int16(len(line.Text.Args))})
	} else {
		args = s.room(1 + changes(was, now) + causes(cause))
		args = append(args, engine.Who("Who", engine.Seat(seat)))
	}
	amount := func(d int, unit string) {
		if d != 0 {
			args = append(args, engine.Amount(unit, d))
		}
	}
	amount(now.pounds-was.pounds, "unit.pounds")
	amount(now.vp-was.vp, "unit.vp")
	amount(now.gears-was.gears, "unit.gears")
	amount(now.energy-was.energy, "unit.energy")
	amount(now.news-was.news, "unit.newspapers")
	amount(now.dice-was.dice, "unit.dice")
	if inc := s.c.Tracks.Income; now.income != was.income {
		args = append(args, engine.Change("move.income", inc[was.income].Income, inc[now.income].Income))
	}
	if now.buzz != was.buzz {
		args = append(args, engine.Change("move.buzz", was.buzz, now.buzz))
	}
	if now.west != was.west {
		args = append(args, engine.Part(engine.Nested("", s.say("cp.move.westminster",
			engine.Item("From", s.c.keys.west[was.west]), engine.Item("To", s.c.keys.west[now.west])))))
	}
	if now.obj != was.obj {
		args = append(args, engine.Part(engine.Msg("", "cp.objective.level", now.obj)))
	}
	if cause != "" {
		args = append(args, engine.Msg("Cause", causeID(cause), n))
	}
	if fold {
		id := "log.then"
		switch {
		case line.Kind == EventChange && cause != "":
			id = "log.more_cause"
		case line.Kind == EventChange:
			id = "log.more"
		case cause != "":
			id = "log.then_cause"
		}
		line.Kind, line.Text = EventChange, engine.Text{ID: id, Args: args}
		return
	}
	id := "log.change"
	if cause != "" {
		id = "log.change_cause"
	}
	s.emit(EventChange, seat, engine.Text{ID: id, Args: args}, false)
}

// changes counts the figures that differ between was and now.
func changes(was, now tally) int {
	n := 0
	for _, d := range [...]bool{was.pounds != now.pounds, was.vp != now.vp, was.gears != now.gears, was.energy != now.energy,
		was.news != now.news, was.dice != now.dice, was.income != now.income, was.buzz != now.buzz, was.west != now.west, was.obj != now.obj} {
		if d {
			n++
		}
	}
	return n
}

// causes is the number of arguments cause takes: none or one.
func causes(cause string) int {
	if cause == "" {
		return 0
	}
	return 1
}

// causeID is the message of a cause of changes.
func causeID(cause string) string {
	switch cause {
	case "special expenses":
		return "cp.cause.expenses"
	case "lowest dice total":
		return "cp.cause.lowest_dice"
	case "green bonuses":
		return "cp.cause.green"
	case "Pocket Watch":
		return "cp.cause.watch"
	case "dice paid":
		return "cp.cause.dice_paid"
	case "end of the game":
		return "cp.cause.end"
	case "action space":
		return "cp.cause.action_space"
	case "end: loans paid back":
		return "cp.cause.end_repaid"
	case "end: leftover goods sold":
		return "cp.cause.end_goods"
	case "end: 10 £ notes on free research spaces":
		return "cp.cause.end_notes"
	case "end: Buzz ranking":
		return "cp.cause.end_buzz"
	case "end: Black Market ranking":
		return "cp.cause.end_market"
	case "end: objective level":
		return "cp.cause.end_objective"
	case "end: loans":
		return "cp.cause.end_loans"
	case "end: empty research spaces":
		return "cp.cause.end_empty"
	case "income":
		return "cp.cause.income"
	case "posters":
		return "cp.cause.posters"
	case "flyer":
		return "cp.cause.flyer"
	case "prototype target":
		return "cp.cause.target"
	case "character":
		return "cp.cause.character"
	case "poster":
		return "cp.cause.poster"
	case "compensation":
		return "cp.cause.compensation"
	case "salaries":
		return "cp.cause.salaries"
	case "fee":
		return "cp.cause.fee"
	}
	return "cp.cause.unknown"
}

// reportAll reports every seat's changes with cause.
func (s *State) reportAll(cause string) {
	for seat := range s.seen { // none in copies
		if !s.seen[seat].same(&s.Seats[seat]) {
			s.reportN(seat, cause, 0)
		}
	}
}

// Causes an effect task's Subject may carry: phase 1's newspaper for the lowest
// dice total, a flyer's bonus on the Buzz track, and the effect of another
// player's prototype aimed at the seat (which may wait behind the seat's
// own decisions, so it must not join the line of the seat's next action).
const (
	causeLowestDice = 1
	causeFlyer      = 2
	causeTarget     = 3
)

// taskCause names what a task's changes come from.
func (s *State) taskCause(t Task) string {
	switch t.Kind {
	case tIncome:
		return "income"
	case tExpense:
		return "special expenses"
	case tPosters:
		return "posters"
	case tAct:
		return ""
	case tEffect:
		switch t.Subject {
		case causeLowestDice:
			return "lowest dice total"
		case causeFlyer:
			return "flyer"
		case causeTarget:
			return "prototype target"
		}
	}
	if s.CurrentPhase == phaseIncome && s.Turn == 3 { // phase 6 step 3 is being settled
		return "green bonuses"
	}
	switch t.Src {
	case vpCharacters:
		return "character"
	case vpPosters:
		return "poster"
	case vpWatch:
		return "Pocket Watch"
	}
	return ""
}

// stepCause names what a phase step's own changes come from.
func stepCause(ph phase) string {
	switch ph {
	case phaseDice:
		return "dice paid"
	case phaseActions:
		return "compensation"
	case phaseSalaries:
		return "salaries"
	case phaseIncome:
		return "end of the game"
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}
