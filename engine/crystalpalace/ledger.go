package crystalpalace

import (
	"strconv"
	"strings"
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

func (s *State) tally(seat int) tally {
	p := &s.P[seat]
	return tally{pounds: p.Pounds, vp: p.VP, gears: p.Gears, energy: p.Energy, news: p.News,
		dice: p.Dice + p.New + p.Tick, income: p.Income, buzz: p.Buzz, west: p.West, obj: p.Obj}
}

// startLedger records every seat's tally as reported; Apply calls it before
// an action, so that report finds what changed since.
func (s *State) startLedger() {
	if cap(s.seen) >= s.N {
		s.seen = s.seen[:s.N]
	} else {
		s.seen = make([]tally, s.N)
	}
	for seat := range s.seen {
		s.seen[seat] = s.tally(seat)
	}
}

// report emits what changed for seat since it was last reported, with
// cause ("income", "salaries", …; "" when the change is the action's own).
// States without a ledger (copies made to look ahead) report nothing.
func (s *State) report(seat int, cause string) {
	if len(s.seen) <= seat {
		return
	}
	was, now := s.seen[seat], s.tally(seat)
	if was == now {
		return
	}
	s.seen[seat] = now
	var buf [128]byte
	b := append(append(buf[:0], seatName(seat)...), ": "...)
	head := len(b) // the changes follow "P2: "
	first := true
	sep := func() {
		if !first {
			b = append(b, ',', ' ')
		}
		first = false
	}
	amount := func(d int, unit string) {
		if d != 0 {
			sep()
			if d > 0 {
				b = append(b, '+')
			}
			b = strconv.AppendInt(b, int64(d), 10)
			b = append(b, ' ')
			b = append(b, unit...)
		}
	}
	move := func(what, from, to string) {
		sep()
		b = append(b, what...)
		b = append(b, ' ')
		b = append(b, from...)
		b = append(b, " → "...)
		b = append(b, to...)
	}
	amount(now.pounds-was.pounds, "£")
	amount(now.vp-was.vp, "VP")
	amount(now.gears-was.gears, plural(now.gears-was.gears, "gear", "gears"))
	amount(now.energy-was.energy, "energy")
	amount(now.news-was.news, plural(now.news-was.news, "newspaper", "newspapers"))
	amount(now.dice-was.dice, plural(now.dice-was.dice, "die", "dice"))
	if inc := s.c.Tracks.Income; now.income != was.income {
		move("income", strconv.Itoa(inc[was.income].Income), strconv.Itoa(inc[now.income].Income))
	}
	if now.buzz != was.buzz {
		move("Buzz", strconv.Itoa(was.buzz), strconv.Itoa(now.buzz))
	}
	if w := s.c.Tracks.Westminster; now.west != was.west {
		move("Westminster", w[was.west].Name, w[now.west].Name)
	}
	if now.obj != was.obj {
		sep()
		b = append(b, "objective level "...)
		b = strconv.AppendInt(b, int64(now.obj), 10)
	}
	if cause != "" {
		b = append(b, " ("...)
		b = append(b, cause...)
		b = append(b, ')')
	}
	if s.fold == len(s.ev) && s.fold > 0 && s.foldSeat == seat && (cause == "" || cause == s.own) {
		// The action's own changes join the line that says what it does.
		e := &s.ev[s.fold-1]
		sep := "; "
		if e.Kind != EventChange {
			sep = " — "
		}
		var text strings.Builder
		text.Grow(len(e.Text) + len(sep) + len(b) - head)
		text.WriteString(e.Text)
		text.WriteString(sep)
		text.Write(b[head:])
		e.Kind, e.Text = EventChange, text.String()
		return
	}
	s.emit(EventChange, seat, string(b), false)
}

// reportAll reports every seat's changes with cause.
func (s *State) reportAll(cause string) {
	for seat := range s.P {
		s.report(seat, cause)
	}
}

// Causes an effect task's X may carry: phase 1's newspaper for the lowest
// dice total, and a flyer's bonus on the Buzz track.
const (
	causeLowestDice = 1
	causeFlyer      = 2
)

// taskCause names what a task's changes come from.
func (s *State) taskCause(t Task) string {
	switch t.K {
	case tIncome:
		return "income"
	case tExpense:
		return "special expenses"
	case tPosters:
		return "posters"
	case tAct:
		return ""
	case tEffect:
		switch t.X {
		case causeLowestDice:
			return "lowest dice total"
		case causeFlyer:
			return "flyer"
		}
	}
	if s.Ph == 6 && s.Turn == 3 { // phase 6 step 3 is being settled
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
func stepCause(ph int) string {
	switch ph {
	case 1:
		return "dice paid"
	case 3:
		return "compensation"
	case 4:
		return "salaries"
	case 6:
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
