package present

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

func (w writer) crystalPalace(v *cp.View) string {
	st := w.st
	var b strings.Builder
	head := joinNonEmpty(" · ", st.Bold(w.t("cp.view.title")), w.say(v.LabelSay, v.Label))
	if v.First >= 0 {
		head += " · " + w.t("cp.view.first", "Who", w.words.Seat(v.First))
	}
	b.WriteString(head + "\n")
	if len(v.Waiting) > 0 {
		var wait []string
		for _, x := range v.Waiting {
			wait = append(wait, st.Seat(x.Seat, w.words.Seat(x.Seat))+" ("+w.words.Say(x.Text)+")")
		}
		b.WriteString(st.Dim(w.t("view.waiting")+" ") + strings.Join(wait, ", ") + "\n")
	}
	w.cpSeats(&b, v)
	w.cpLocations(&b, v)
	w.cpTracks(&b, v)
	if v.Private != nil {
		w.cpPrivate(&b, v.Private)
	}
	if v.Result != nil {
		b.WriteString(st.Bold(w.t("view.final")))
		for seat, score := range v.Result.Scores {
			s := engine.Seat(seat)
			mark := ""
			if contains(v.Result.Winners, s) {
				mark = " ★"
			}
			b.WriteString(" " + st.Seat(s, w.words.Seat(s)) + " " + strconv.Itoa(score) + mark)
		}
		b.WriteString("\n")
	}
	return fitLines(b.String(), textWidth)
}

// cpSeats writes the players' numbers as a table, then, under it, each
// player's revealed dice and cards, which would make the table too wide.
func (w writer) cpSeats(b *strings.Builder, v *cp.View) {
	st := w.st
	t, more := &table{}, &table{}
	head := []string{" "}
	for _, id := range []string{"player", "nation", "vp", "pounds", "gears", "energy", "news", "dice", "buzz", "westminster", "income", "loans"} {
		head = append(head, st.Dim(w.t("cp.view.col."+id)))
	}
	t.add(head...)
	for _, p := range v.Seats {
		mark := " "
		if p.Seat == v.Turn {
			mark = "▶"
		}
		if p.Passed {
			mark = "–"
		}
		name := w.name(p.Seat, p.Seat == v.Viewer)
		dice := strconv.Itoa(p.DiceLeft) + "/" + strconv.Itoa(p.Dice)
		if p.Submitted && len(p.DiceValues) == 0 {
			dice += " ✓"
		}
		loans := strconv.Itoa(p.Loans)
		if p.Repaid > 0 {
			loans = w.t("cp.view.repaid", "Loans", p.Loans, "Count", p.Repaid)
		}
		cards := joinNonEmpty(" ",
			w.countOf(len(p.Patents), "cp.view.count.patents"), w.countOf(len(p.Prototypes), "cp.view.count.prototypes"),
			w.countOf(len(p.Characters), "cp.view.count.characters"), w.countOf(len(p.Shares), "cp.view.count.shares"))
		if p.Watch {
			cards = joinNonEmpty(" ", cards, "⌚")
		}
		t.add(mark, st.Seat(p.Seat, name), w.item(p.NationKey, p.Nation), strconv.Itoa(p.VP), strconv.Itoa(p.Pounds), strconv.Itoa(p.Gears),
			strconv.Itoa(p.Energy), strconv.Itoa(p.Newspapers), dice, strconv.Itoa(p.Buzz), strconv.Itoa(p.Westminster),
			strconv.Itoa(p.Income), loans)
		var detail []string
		if len(p.DiceValues) > 0 {
			detail = append(detail, st.Dim(w.t("cp.view.dice")+" ")+w.diceText(p.Unplaced, p.Placed))
		}
		if cards != "" {
			detail = append(detail, st.Dim(w.t("cp.view.cards")+" ")+cards)
		}
		if len(detail) > 0 {
			more.add(" ", st.Seat(p.Seat, name), strings.Join(detail, " · "))
		}
	}
	t.narrow(2, textWidth) // the nation's name gives way first
	t.writeWithin(b, textWidth)
	more.writeWithin(b, textWidth)
}

// diceText is a seat's revealed dice: those still to place, then the
// placed ones dimmed, "to place 5 1 · placed 6 6".
func (w writer) diceText(unplaced, placed []int) string {
	var parts []string
	if len(unplaced) > 0 {
		parts = append(parts, w.t("cp.view.to_place", "Dice", ints(unplaced)))
	}
	if len(placed) > 0 {
		parts = append(parts, w.st.Dim(w.t("cp.view.placed", "Dice", ints(placed))))
	}
	return strings.Join(parts, " · ")
}

// countOf is n cards written by message id ("2 pat."), or "" for none.
func (w writer) countOf(n int, id string) string {
	if n == 0 {
		return ""
	}
	return w.t(id, "Count", n)
}

func (w writer) cpLocations(b *strings.Builder, v *cp.View) {
	st := w.st
	t := &table{}
	for _, loc := range v.Locations {
		var dice []string
		for _, d := range loc.Dice {
			switch {
			case d.Owner < 0:
				dice = append(dice, st.Dim(freeSpace(d)))
			case d.Value > 0:
				dice = append(dice, st.Seat(d.Owner, ShortName(w.words, len(v.Seats), d.Owner)+":"+strconv.Itoa(d.Value)))
			default:
				dice = append(dice, st.Seat(d.Owner, ShortName(w.words, len(v.Seats), d.Owner)))
			}
		}
		var offer []string
		for _, c := range loc.Display {
			if c.Kind == "" {
				offer = append(offer, st.Dim("—"))
				continue
			}
			offer = append(offer, w.cardShort(c))
		}
		if loc.StackTop != nil {
			offer = append(offer, st.Dim(w.t("cp.view.stack_top", "Card", w.cardShort(*loc.StackTop))))
		}
		for _, p := range loc.Possibilities {
			if p.Available && !p.Used {
				offer = append(offer, p.Key+": "+w.item(p.TextKey, p.Text))
			}
		}
		if loc.TicketsLeft > 0 {
			offer = append(offer, w.t("cp.view.tickets", "Count", loc.TicketsLeft))
		}
		mark := " "
		if loc.Resolving {
			mark = "▶"
		}
		t.add(mark, strconv.Itoa(loc.Number), st.Bold(w.item(loc.NameKey, loc.Name)), strings.Join(dice, " "), strings.Join(offer, ", "))
	}
	if len(t.rows) > 0 {
		t.writeWithin(b, textWidth)
		b.WriteString(st.Dim("  "+w.t("cp.view.spaces_legend")) + "\n")
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

func (w writer) cardShort(c cp.CardView) string {
	s := w.item(c.NameKey, c.Name)
	if c.Kind == "share" && c.ID != "" {
		s = w.t("cp.view.share")
	}
	if s == "" {
		s = c.ID
	}
	if cost := w.costText(c.Cost); cost != "" {
		s += " [" + cost + "]"
	}
	if effect := w.say(c.EffectSay, c.Effect); (c.Kind == "share" || c.Kind == "research") && effect != "" {
		s += " (" + effect + ")" // what a share or tile gives is all there is to it
	}
	return s
}

func (w writer) costText(c cp.Cost) string {
	return joinNonEmpty(" ", w.amount(c.Pounds, "cp.view.cost.pounds"), w.amount(c.Gears, "cp.view.cost.gears"), w.amount(c.Energy, "cp.view.cost.energy"))
}

func (w writer) amount(n int, id string) string {
	if n == 0 {
		return ""
	}
	return w.t(id, "N", n)
}

func (w writer) cpTracks(b *strings.Builder, v *cp.View) {
	st := w.st
	var market []string
	for _, sp := range v.BlackMarket.Spaces {
		if sp.Owner >= 0 {
			market = append(market, w.t("cp.view.tier", "Tier", sp.Tier, "Who", st.Seat(sp.Owner, ShortName(w.words, len(v.Seats), sp.Owner)),
				"Effect", w.say(sp.EffectSay, sp.Effect)))
		}
	}
	line := st.Dim(w.t("cp.view.market")) + " " + w.t("cp.view.banner", "Count", v.BlackMarket.Gears, "Tier", v.BlackMarket.BannerTier)
	if len(market) > 0 {
		tiers := strings.Join(market, ", ")
		if visibleLen(line)+2+visibleLen(tiers) > textWidth {
			line += ";\n  " + strings.Join(breakText(tiers, textWidth-2), "\n  ")
		} else {
			line += "; " + tiers
		}
	}
	b.WriteString(line + "\n")
	if text := w.say(v.PocketWatch.TextSay, v.PocketWatch.Text); text != "" || v.PocketWatch.Holder >= 0 {
		holder := w.t("cp.view.supply")
		if v.PocketWatch.Holder >= 0 {
			holder = w.words.Seat(v.PocketWatch.Holder)
		}
		if text != "" {
			holder += " (" + text + ")"
		}
		b.WriteString(st.Dim(w.t("cp.view.watch")+" ") + holder + "\n")
	}
	d := v.Decks
	b.WriteString(st.Dim(w.t("cp.view.decks")) + " " + w.t("cp.view.decks_count", "Patents", d.Patents, "Characters", d.Characters,
		"Research", d.Research, "Loans", d.Loans) + "\n")
}

func (w writer) cpPrivate(b *strings.Builder, p *cp.PrivateView) {
	st := w.st
	b.WriteString(st.Bold(w.t("cp.view.mat")) + st.Dim(" "+w.t("cp.view.mat_private")) + "\n")
	dice := w.t("cp.view.dice_none")
	switch {
	case len(p.Dice) > 0 && p.Submitted:
		dice = w.t("cp.view.dice_submitted", "Dice", ints(p.Dice))
	case len(p.Dice) > 0 && len(p.Unplaced) > 0:
		dice = ints(p.Dice) + " · " + w.t("cp.view.to_place", "Dice", ints(p.Unplaced))
	case len(p.Dice) > 0:
		dice = ints(p.Dice)
	}
	b.WriteString("  " + w.t("cp.view.own_dice", "Dice", dice, "Salary", p.SalaryDue) + "\n")
	for i, o := range p.Objective {
		mark := "○"
		switch {
		case o.Reached:
			mark = st.Good("●")
		case o.Met:
			mark = st.Good("◐")
		}
		b.WriteString("  " + w.t("cp.view.objective_line", "N", i+1, "Mark", mark, "Text", w.say(o.TextSay, o.Text), "VP", o.VP) + "\n")
	}
	w.cardList(b, "cp.view.list.patents", p.Patents)
	w.cardList(b, "cp.view.list.prototypes", p.Prototypes)
	w.cardList(b, "cp.view.list.characters", p.Characters)
	var slots []string
	for _, s := range p.Research {
		switch {
		case s.Tile != nil:
			slots = append(slots, w.cardShort(*s.Tile))
		case s.Kind == "loan" && s.Repaid:
			slots = append(slots, w.t("cp.view.loan_repaid"))
		case s.Kind == "loan":
			slots = append(slots, w.t("cp.view.loan", "VP", s.LoanVP))
		default:
			slots = append(slots, st.Dim(w.t("view.empty")))
		}
	}
	if len(slots) > 0 {
		b.WriteString("  " + w.t("cp.view.list.research", "List", strings.Join(slots, ", ")) + "\n")
	}
	if len(p.ExtraLoans) > 0 {
		b.WriteString("  " + w.t("cp.view.extra_loans", "List", ints(p.ExtraLoans)) + "\n")
	}
}

func (w writer) cardList(b *strings.Builder, id string, cards []cp.CardView) {
	if len(cards) == 0 {
		return
	}
	var names []string
	for _, c := range cards {
		names = append(names, joinNonEmpty(": ", w.cardShort(c), w.say(c.EffectSay, c.Effect)))
	}
	b.WriteString("  " + w.t(id, "List", strings.Join(names, "; ")) + "\n")
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
