package present

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

func crystalPalace(v *cp.View, names []string, st Style) string {
	var b strings.Builder
	head := joinNonEmpty(" · ", st.Bold("Crystal Palace"), v.Label)
	if v.First >= 0 {
		head += " · first: " + Name(names, v.First)
	}
	b.WriteString(head + "\n")
	if len(v.Waiting) > 0 {
		var w []string
		for _, x := range v.Waiting {
			w = append(w, st.Seat(x.Seat, Name(names, x.Seat))+" ("+st.say(x.Text, x.Kind)+")")
		}
		b.WriteString(st.Dim("waiting for: ") + strings.Join(w, ", ") + "\n")
	}
	cpSeats(&b, v, names, st)
	cpLocations(&b, v, names, st)
	cpTracks(&b, v, names, st)
	if v.Private != nil {
		cpPrivate(&b, v.Private, st)
	}
	if v.Result != nil {
		b.WriteString(st.Bold("Final scores:"))
		for seat, score := range v.Result.Scores {
			s := engine.Seat(seat)
			mark := ""
			if contains(v.Result.Winners, s) {
				mark = " ★"
			}
			fmt.Fprintf(&b, " %s %d%s", st.Seat(s, Name(names, s)), score, mark)
		}
		b.WriteString("\n")
	}
	return fitLines(b.String(), textWidth)
}

// cpSeats writes the players' numbers as a table, then, under it, each
// player's revealed dice and cards, which would make the table too wide.
func cpSeats(b *strings.Builder, v *cp.View, names []string, st Style) {
	t, more := &table{}, &table{}
	t.add(" ", st.Dim("player"), st.Dim("nation"), st.Dim("VP"), st.Dim("£"), st.Dim("gears"), st.Dim("energy"),
		st.Dim("news"), st.Dim("dice"), st.Dim("buzz"), st.Dim("westm."), st.Dim("income"), st.Dim("loans"))
	for _, p := range v.Seats {
		mark := " "
		if p.Seat == v.Turn {
			mark = "▶"
		}
		if p.Passed {
			mark = "–"
		}
		name := Name(names, p.Seat)
		if p.Seat == v.Viewer {
			name += " (you)"
		}
		dice := fmt.Sprintf("%d/%d", p.DiceLeft, p.Dice)
		if p.Submitted && len(p.DiceValues) == 0 {
			dice += " ✓"
		}
		loans := strconv.Itoa(p.Loans)
		if p.Repaid > 0 {
			loans += fmt.Sprintf(" (%d repaid)", p.Repaid)
		}
		cards := joinNonEmpty(" ",
			countOf(len(p.Patents), "pat"), countOf(len(p.Prototypes), "proto"),
			countOf(len(p.Characters), "char"), countOf(len(p.Shares), "share"))
		if p.Watch {
			cards = joinNonEmpty(" ", cards, "⌚")
		}
		t.add(mark, st.Seat(p.Seat, name), p.Nation, strconv.Itoa(p.VP), strconv.Itoa(p.Pounds), strconv.Itoa(p.Gears),
			strconv.Itoa(p.Energy), strconv.Itoa(p.Newspapers), dice, strconv.Itoa(p.Buzz), strconv.Itoa(p.Westminster),
			strconv.Itoa(p.Income), loans)
		var detail []string
		if len(p.DiceValues) > 0 {
			detail = append(detail, st.Dim("dice ")+diceText(p.Unplaced, p.Placed, st))
		}
		if cards != "" {
			detail = append(detail, st.Dim("cards ")+cards)
		}
		if len(detail) > 0 {
			more.add(" ", st.Seat(p.Seat, name), strings.Join(detail, " · "))
		}
	}
	t.writeWithin(b, textWidth)
	more.writeWithin(b, textWidth)
}

// diceText is a seat's revealed dice: those still to place, then the
// placed ones dimmed, "to place 5 1 · placed 6 6".
func diceText(unplaced, placed []int, st Style) string {
	var parts []string
	if len(unplaced) > 0 {
		parts = append(parts, "to place "+ints(unplaced))
	}
	if len(placed) > 0 {
		parts = append(parts, st.Dim("placed "+ints(placed)))
	}
	return strings.Join(parts, " · ")
}

func countOf(n int, what string) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n) + " " + what
}

func cpLocations(b *strings.Builder, v *cp.View, names []string, st Style) {
	t := &table{}
	for _, loc := range v.Locations {
		var dice []string
		for _, d := range loc.Dice {
			switch {
			case d.Owner < 0:
				dice = append(dice, st.Dim(freeSpace(d)))
			case d.Value > 0:
				dice = append(dice, st.Seat(d.Owner, fmt.Sprintf("%s:%d", ShortName(names, d.Owner), d.Value)))
			default:
				dice = append(dice, st.Seat(d.Owner, ShortName(names, d.Owner)))
			}
		}
		var offer []string
		for _, c := range loc.Display {
			if c.Kind == "" {
				offer = append(offer, st.Dim("—"))
				continue
			}
			offer = append(offer, cardShort(c))
		}
		if loc.StackTop != nil {
			offer = append(offer, st.Dim("stack top (not on offer): "+cardShort(*loc.StackTop)))
		}
		for _, p := range loc.Possibilities {
			if p.Available && !p.Used {
				offer = append(offer, p.Key+": "+p.Text)
			}
		}
		if loc.TicketsLeft > 0 {
			offer = append(offer, plural(loc.TicketsLeft, "ticket", "tickets"))
		}
		mark := " "
		if loc.Resolving {
			mark = "▶"
		}
		t.add(mark, strconv.Itoa(loc.Number), st.Bold(loc.Name), strings.Join(dice, " "), strings.Join(offer, ", "))
	}
	if len(t.rows) > 0 {
		t.writeWithin(b, textWidth)
		b.WriteString(st.Dim("  dice spaces 1, 2, … from the left; ·N free for a die of N+ (a: assistant action, £N: fee)") + "\n")
	}
}

// freeSpace is a free dice space in a few characters: "·3a", "·1£2".
func freeSpace(d cp.DiceSpaceView) string {
	s := "·" + strconv.Itoa(d.Min)
	if d.Assistant {
		s += "a"
	}
	if d.Fee > 0 {
		s += "£" + strconv.Itoa(d.Fee)
	}
	return s
}

func cardShort(c cp.CardView) string {
	s := c.Name
	if s == "" {
		s = c.ID
	}
	if cost := costText(c.Cost); cost != "" {
		s += " [" + cost + "]"
	}
	if (c.Kind == "share" || c.Kind == "research") && c.Effect != "" {
		s += " (" + c.Effect + ")" // what a share or tile gives is all there is to it
	}
	return s
}

func costText(c cp.Cost) string {
	return joinNonEmpty(" ", amount(c.Pounds, "£"), amount(c.Gears, "g"), amount(c.Energy, "e"))
}

func amount(n int, unit string) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n) + unit
}

func cpTracks(b *strings.Builder, v *cp.View, names []string, st Style) {
	var market []string
	for _, sp := range v.BlackMarket.Spaces {
		if sp.Owner >= 0 {
			market = append(market, fmt.Sprintf("tier %d %s (phase 6: %s)", sp.Tier, st.Seat(sp.Owner, ShortName(names, sp.Owner)), sp.Effect))
		}
	}
	line := fmt.Sprintf("%s %s on the banner; moving an assistant down from tier %d or higher takes one", st.Dim("Black Market:"),
		plural(v.BlackMarket.Gears, "gear", "gears"), v.BlackMarket.BannerTier)
	if len(market) > 0 {
		tiers := strings.Join(market, ", ")
		if visibleLen(line)+2+visibleLen(tiers) > textWidth {
			line += ";\n  " + strings.Join(breakText(tiers, textWidth-2), "\n  ")
		} else {
			line += "; " + tiers
		}
	}
	b.WriteString(line + "\n")
	if v.PocketWatch.Text != "" || v.PocketWatch.Holder >= 0 {
		holder := "supply"
		if v.PocketWatch.Holder >= 0 {
			holder = Name(names, v.PocketWatch.Holder)
		}
		b.WriteString(st.Dim("Pocket Watch: ") + holder + joinNonEmpty("", ifText(v.PocketWatch.Text != "", " ("+v.PocketWatch.Text+")")) + "\n")
	}
	d := v.Decks
	fmt.Fprintf(b, "%s patents %d, characters %d, research %d, loans %d\n", st.Dim("Decks:"), d.Patents, d.Characters, d.Research, d.Loans)
}

func ifText(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

func cpPrivate(b *strings.Builder, p *cp.PrivateView, st Style) {
	b.WriteString(st.Bold("Your mat") + st.Dim(" (only you see this)") + "\n")
	dice := "none yet"
	switch {
	case len(p.Dice) > 0 && p.Submitted:
		dice = ints(p.Dice) + " (submitted)"
	case len(p.Dice) > 0 && len(p.Unplaced) > 0:
		dice = ints(p.Dice) + " · to place " + ints(p.Unplaced)
	case len(p.Dice) > 0:
		dice = ints(p.Dice)
	}
	fmt.Fprintf(b, "  dice: %s · salary due: %d£\n", dice, p.SalaryDue)
	for i, o := range p.Objective {
		mark := "○"
		switch {
		case o.Reached:
			mark = st.Good("●")
		case o.Met:
			mark = st.Good("◐")
		}
		fmt.Fprintf(b, "  objective %d %s %s (%d VP)\n", i+1, mark, o.Text, o.VP)
	}
	cardList(b, "patents", p.Patents)
	cardList(b, "prototypes", p.Prototypes)
	cardList(b, "characters", p.Characters)
	var slots []string
	for _, s := range p.Research {
		switch {
		case s.Tile != nil:
			slots = append(slots, cardShort(*s.Tile))
		case s.Kind == "loan" && s.Repaid:
			slots = append(slots, "loan (repaid)")
		case s.Kind == "loan":
			slots = append(slots, fmt.Sprintf("loan %d VP", s.LoanVP))
		default:
			slots = append(slots, st.Dim("empty"))
		}
	}
	if len(slots) > 0 {
		b.WriteString("  research: " + strings.Join(slots, ", ") + "\n")
	}
	if len(p.ExtraLoans) > 0 {
		b.WriteString("  loans beside the mat: " + ints(p.ExtraLoans) + "\n")
	}
}

func cardList(b *strings.Builder, label string, cards []cp.CardView) {
	if len(cards) == 0 {
		return
	}
	var names []string
	for _, c := range cards {
		names = append(names, joinNonEmpty(": ", cardShort(c), c.Effect))
	}
	b.WriteString("  " + label + ": " + strings.Join(names, "; ") + "\n")
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
