package present

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// trackSymbol is the one-character symbol of a space kind on the text track.
func trackSymbol(sp eightydays.SpaceView) string {
	switch sp.Kind {
	case eightydays.KindLondon:
		return "H"
	case eightydays.KindLayover:
		return "L"
	case eightydays.KindPassepartout:
		return "p"
	case eightydays.KindPound:
		return "£"
	case eightydays.KindPolice:
		return "!"
	case eightydays.KindBet:
		// superscripts, so that Bets never read as the seats' digits
		// under the track
		if len(sp.Bets) == 1 && sp.Bets[0] >= 1 && sp.Bets[0] <= 9 {
			return superscripts[sp.Bets[0]]
		}
		return "x"
	}
	return "?"
}

// SpaceName describes a space in a few words, in the language of words:
// "38 Calcutta (Layover)", "24 Police", "3 Bet 4/5/6".
func SpaceName(words *wording.Words, sp eightydays.SpaceView) string {
	return strconv.Itoa(sp.Number) + " " + spaceWords(words, sp)
}

// spaceWords names a space without its number: "Bet 4/5/6".
func spaceWords(words *wording.Words, sp eightydays.SpaceView) string {
	if !sp.NameSay.IsZero() {
		return words.Say(sp.NameSay)
	}
	switch sp.Kind { // a view made by hand: its English words
	case eightydays.KindLayover:
		return sp.City + " (Layover)"
	case eightydays.KindBet:
		bets := make([]string, len(sp.Bets))
		for i, b := range sp.Bets {
			bets[i] = strconv.Itoa(b)
		}
		return "Bet " + strings.Join(bets, "/")
	}
	return sp.Kind
}

var superscripts = [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

// ordinal is race position rank in the reader's language: "2nd".
func (w writer) ordinal(rank int) string {
	if rank >= 1 && rank <= 6 {
		return w.t("ed.ordinal." + strconv.Itoa(rank))
	}
	return engine.Ordinal(rank)
}

// pendingWords says what a pawn's space does on its owner's next turn, or
// this turn when it is theirs.
func (w writer) pendingWords(v *eightydays.View, seat engine.Seat, pw eightydays.PawnView) string {
	when := w.t("ed.view.next_turn")
	if seat == v.Turn && !v.Over {
		when = w.t("ed.view.this_turn")
	}
	switch pw.Pending {
	case eightydays.PendingBet:
		bet := w.t("ed.view.bet")
		if pw.Space >= 0 && pw.Space < len(v.Track) {
			bet = spaceWords(w.words, v.Track[pw.Space])
		}
		switch {
		case pw.BetDead:
			return w.t("ed.view.bet_dead", "Bet", bet, "Count", len(v.Players))
		case pw.BetPays > 0:
			return w.t("ed.view.bet_pays", "Bet", bet, "Pounds", pw.BetPays, "Rank", w.ordinal(pw.Rank))
		}
		return w.t("ed.view.bet_nothing", "Bet", bet, "Rank", w.ordinal(pw.Rank))
	case eightydays.PendingPound:
		return w.t("ed.view.pound")
	case eightydays.PendingPolice:
		return w.t("ed.view.police", "When", when)
	case eightydays.PendingLeave:
		return w.t("ed.view.leave", "When", when)
	}
	return ""
}

func (w writer) eightyDays(v *eightydays.View) string {
	st := w.st
	var b strings.Builder
	status := w.t("ed.view.status", "N", v.Round, "Who", w.words.Seat(v.Turn))
	if v.Over {
		status = w.t("ed.view.over")
	}
	b.WriteString(st.Bold(w.t("ed.view.title")) + " · " + status + "\n")
	w.writeTrack(&b, v)

	t := &table{}
	// characters and what the space does share the last column, which
	// wraps under itself on a narrow screen
	head := []string{st.Dim(" ")}
	for _, id := range []string{"player", "space", "pounds", "rumors", "characters"} {
		head = append(head, st.Dim(w.t("ed.view.col."+id)))
	}
	t.add(head...)
	for _, p := range v.Players {
		mark := " "
		if p.Seat == v.Turn && !v.Over {
			mark = "▶"
		}
		if v.Over && contains(v.Winners, p.Seat) {
			mark = "★"
		}
		var spaces, pending []string
		for _, pw := range p.Pawns {
			label := SpaceName(w.words, v.Track[pw.Space])
			if pw.Name != "" {
				label = pw.Name + ": " + label
			}
			spaces = append(spaces, label)
			if text := w.pendingWords(v, p.Seat, pw); text != "" {
				pending = append(pending, strings.TrimPrefix(pw.Name+" ", " ")+text)
			}
		}
		var chars []string
		for _, c := range p.Characters {
			chars = append(chars, w.item(c.NameKey, c.Name))
		}
		rumors := strings.Repeat("●", p.Rumors)
		if p.Rumors == 0 {
			rumors = st.Good(w.t("view.none"))
		}
		t.add(mark, st.Seat(p.Seat, w.name(p.Seat, p.Seat == v.Seat)), strings.Join(spaces, ", "), strconv.Itoa(p.Pounds), rumors,
			joinNonEmpty(" · ", strings.Join(chars, ", "), strings.Join(pending, "; ")))
	}
	t.writeWithin(&b, textWidth)

	if len(v.Drawn) > 0 {
		b.WriteString(w.t("ed.view.drawn") + "\n")
		for i, c := range v.Drawn {
			b.WriteString("  " + strconv.Itoa(i+1) + ". " + w.cardLine(c) + "\n")
		}
	}
	if me := seatOf(v); me != nil && len(me.Characters) > 0 {
		b.WriteString(w.t("ed.view.yours") + "\n")
		for _, c := range me.Characters {
			b.WriteString("  play " + c.ID + ": " + w.cardLine(c) + "\n")
		}
	}
	top := w.t("view.empty")
	if n := len(v.Discard); n > 0 {
		top = w.item(v.Discard[n-1].NameKey, v.Discard[n-1].Name)
	}
	b.WriteString(st.Dim(w.t("ed.view.deck")) + " " + w.t("ed.view.piles", "Deck", v.DeckSize, "Discard", len(v.Discard), "Top", top) + "\n")
	return fitLines(b.String(), textWidth)
}

// cardLine is a card, its kind and what it does: "Aouda (character ↻:
// take 10£)".
func (w writer) cardLine(c eightydays.CardView) string {
	if c.KindSay.IsZero() {
		line := c.Name + " (" + c.Kind + ": " + c.Effect + ")"
		if c.Reshuffle {
			line += " " + eightydays.ReshuffleMark
		}
		return line
	}
	return w.t("ed.view.card", "Name", w.item(c.NameKey, c.Name), "Kind", w.words.Say(c.KindSay), "Effect", w.say(c.EffectSay, c.Effect))
}

func seatOf(v *eightydays.View) *eightydays.PlayerView {
	for i := range v.Players {
		if v.Players[i].Seat == v.Seat {
			return &v.Players[i]
		}
	}
	return nil
}

// writeTrack draws the track in two rows of 40 spaces, a symbol per space
// and the seats' numbers under the spaces their pawns stand on.
func (w writer) writeTrack(b *strings.Builder, v *eightydays.View) {
	st := w.st
	const row = 41
	for start := 0; start < len(v.Track); start += row - 1 {
		end := min(start+row, len(v.Track))
		if start > 0 && end-start <= 1 {
			break
		}
		var ruler, spaces, pawns strings.Builder
		for n := start; n < end; n++ {
			if (n-start)%10 == 0 {
				label := strconv.Itoa(n)
				ruler.WriteString(label)
				ruler.WriteString(strings.Repeat(" ", max(0, 10-len(label))))
			}
			sym := trackSymbol(v.Track[n])
			if v.Track[n].Kind == eightydays.KindLayover || v.Track[n].Kind == eightydays.KindLondon {
				sym = st.Bold(sym)
			}
			spaces.WriteString(sym)
			pawns.WriteString(pawnMark(v, n, st))
		}
		b.WriteString("  " + st.Dim(strings.TrimRight(ruler.String(), " ")) + "\n")
		b.WriteString("  " + spaces.String() + "\n")
		if strings.TrimSpace(StripANSI(pawns.String())) != "" {
			b.WriteString("  " + strings.TrimRight(pawns.String(), " ") + "\n")
		}
	}
	b.WriteString(st.Dim("  "+w.t("ed.view.legend")) + "\n")
}

// pawnMark is the seat number of the pawn on space n, "+" for several
// (London), " " for none.
func pawnMark(v *eightydays.View, n int, st Style) string {
	var seats []engine.Seat
	for _, p := range v.Players {
		for _, pw := range p.Pawns {
			if pw.Space == n {
				seats = append(seats, p.Seat)
			}
		}
	}
	switch len(seats) {
	case 0:
		return " "
	case 1:
		return st.Seat(seats[0], strconv.Itoa(int(seats[0])+1))
	}
	return "+"
}

func contains(seats []engine.Seat, s engine.Seat) bool {
	for _, x := range seats {
		if x == s {
			return true
		}
	}
	return false
}
