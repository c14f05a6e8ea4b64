package present

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
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

// SpaceName describes a space in a few words: "38 Calcutta (Layover)",
// "24 Police", "3 Bet 4/5/6".
func SpaceName(sp eightydays.SpaceView) string {
	n := strconv.Itoa(sp.Number)
	switch sp.Kind {
	case eightydays.KindLondon:
		return n + " London"
	case eightydays.KindLayover:
		return n + " " + sp.City + " (Layover)"
	case eightydays.KindBet:
		bets := make([]string, len(sp.Bets))
		for i, b := range sp.Bets {
			bets[i] = strconv.Itoa(b)
		}
		return n + " Bet " + strings.Join(bets, "/")
	case eightydays.KindPound:
		return n + " Pound"
	case eightydays.KindPolice:
		return n + " Police"
	case eightydays.KindPassepartout:
		return n + " Passepartout"
	}
	return n
}

var superscripts = [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

// pendingWords says what a pawn's space does on its owner's next turn, or
// this turn when it is theirs.
func pendingWords(v *eightydays.View, seat engine.Seat, pw eightydays.PawnView) string {
	when := "next turn"
	if seat == v.Turn && !v.Over {
		when = "this turn"
	}
	switch pw.Pending {
	case eightydays.PendingBet:
		bet := "Bet"
		if pw.Space >= 0 && pw.Space < len(v.Track) {
			bet = strings.TrimPrefix(SpaceName(v.Track[pw.Space]), strconv.Itoa(pw.Space)+" ")
		}
		switch {
		case pw.BetDead:
			return fmt.Sprintf("%s: pays nothing with %d players", bet, len(v.Players))
		case pw.BetPays > 0:
			return fmt.Sprintf("%s: %d£ next turn if still %s", bet, pw.BetPays, engine.Ordinal(pw.Rank))
		}
		return fmt.Sprintf("%s: now %s, no pay", bet, engine.Ordinal(pw.Rank))
	case eightydays.PendingPound:
		return "may stay: take or give 10£"
	case eightydays.PendingPolice:
		return "hat over: discards a Rumor " + when
	case eightydays.PendingLeave:
		return "must leave the Police " + when
	}
	return ""
}

func eightyDays(v *eightydays.View, names []string, st Style) string {
	var b strings.Builder
	status := fmt.Sprintf("round %d · %s to play", v.Round, Name(names, v.Turn))
	if v.Over {
		status = "game over"
	}
	b.WriteString(st.Bold("Around the World in 80 Days") + " · " + status + "\n")
	writeTrack(&b, v, st)

	t := &table{}
	// characters and what the space does share the last column, which
	// wraps under itself on a narrow screen
	t.add(st.Dim(" "), st.Dim("player"), st.Dim("space"), st.Dim("£"), st.Dim("rumors"), st.Dim("characters · next turn"))
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
			label := SpaceName(v.Track[pw.Space])
			if pw.Name != "" {
				label = pw.Name + ": " + label
			}
			spaces = append(spaces, label)
			if w := pendingWords(v, p.Seat, pw); w != "" {
				pending = append(pending, strings.TrimPrefix(pw.Name+" ", " ")+w)
			}
		}
		var chars []string
		for _, c := range p.Characters {
			chars = append(chars, c.Name)
		}
		rumors := strings.Repeat("●", p.Rumors)
		if p.Rumors == 0 {
			rumors = st.Good("none")
		}
		name := Name(names, p.Seat)
		if p.Seat == v.Seat {
			name += " (you)"
		}
		t.add(mark, st.Seat(p.Seat, name), strings.Join(spaces, ", "), strconv.Itoa(p.Pounds), rumors,
			joinNonEmpty(" · ", strings.Join(chars, ", "), strings.Join(pending, "; ")))
	}
	t.writeWithin(&b, textWidth)

	if len(v.Drawn) > 0 {
		b.WriteString("Drawn, keep one:\n")
		for i, c := range v.Drawn {
			fmt.Fprintf(&b, "  %d. %s\n", i+1, cardLine(c))
		}
	}
	if me := seatOf(v); me != nil && len(me.Characters) > 0 {
		b.WriteString("Your characters:\n")
		for _, c := range me.Characters {
			fmt.Fprintf(&b, "  play %s: %s\n", c.ID, cardLine(c))
		}
	}
	top := "empty"
	if n := len(v.Discard); n > 0 {
		top = v.Discard[n-1].Name
	}
	fmt.Fprintf(&b, "%s %d in the deck · discard pile %d (top: %s)\n", st.Dim("Passepartout:"), v.DeckSize, len(v.Discard), top)
	return fitLines(b.String(), textWidth)
}

func cardLine(c eightydays.CardView) string {
	line := c.Name + " (" + c.Kind + ": " + c.Effect + ")"
	if c.Reshuffle {
		line += " " + eightydays.ReshuffleMark
	}
	return line
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
func writeTrack(b *strings.Builder, v *eightydays.View, st Style) {
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
	b.WriteString(st.Dim("  H London  L Layover  p Passepartout  £ Pound  ! Police  ¹ ² ³ x Bet (x: 4/5/6)  1…6 pawns of P1…P6") + "\n")
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
