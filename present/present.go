// Package present writes a game's view as compact, aligned text: the words a
// terminal player reads before each decision, and what a chat bot can post
// as a text summary. It colours the text with ANSI codes when asked (a
// terminal) and writes it plain otherwise (a pipe, NO_COLOR, a chat message).
//
// It imports only engine packages and wording, reads nothing but the views
// it is given, does no I/O, and is safe for concurrent use.
package present

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// ErrUnknownView means the view is of no game this package knows.
var ErrUnknownView = errors.New("present: unknown view")

// Style says how to decorate text. The zero value writes plain text.
type Style struct {
	// Color turns on ANSI colours and bold.
	Color bool
	// Words writes what the games say as data (the decisions a game waits
	// for) in the reader's language; nil names a decision by its kind.
	Words *wording.Words
}

// say writes t with st.Words, or returns fallback without them.
func (st Style) say(t engine.Text, fallback string) string {
	if st.Words == nil {
		return fallback
	}
	return st.Words.Say(t)
}

// ANSI codes used by Style.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
)

// seatColors are the ANSI colours of seats 1 to 6, the nearest to the seat
// colours of the images: blue, orange (yellow), green, pink (magenta), sky
// (cyan), red.
const seatColors = "34;33;32;35;36;31"

func (st Style) paint(code, s string) string {
	if !st.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

// Bold emphasises s.
func (st Style) Bold(s string) string { return st.paint(ansiBold, s) }

// Dim de-emphasises s.
func (st Style) Dim(s string) string { return st.paint(ansiDim, s) }

// Bad marks s as an error or a loss.
func (st Style) Bad(s string) string { return st.paint(ansiRed, s) }

// Good marks s as a success or a gain.
func (st Style) Good(s string) string { return st.paint(ansiGreen, s) }

// Seat writes s in seat's colour.
func (st Style) Seat(seat engine.Seat, s string) string {
	colors := strings.Split(seatColors, ";")
	if seat < 0 || int(seat) >= len(colors) {
		return s
	}
	return st.paint("\x1b["+colors[seat]+"m", s)
}

// Name is seat's display name: names[seat] when given, else "P1", "P2", ….
func Name(names []string, seat engine.Seat) string {
	if seat >= 0 && int(seat) < len(names) && names[seat] != "" {
		return names[seat]
	}
	if seat < 0 {
		return "spectator"
	}
	return fmt.Sprintf("P%d", seat+1)
}

// ShortName is seat's name cut to its first word ("P3" for "P3
// heuristic", "Ada" for "Ada Lovelace") for tight spaces, or the whole name
// when another seat's name begins with the same word.
func ShortName(names []string, seat engine.Seat) string {
	name := Name(names, seat)
	first, _, cut := strings.Cut(name, " ")
	if !cut {
		return name
	}
	for i := range names {
		if other, _, _ := strings.Cut(Name(names, engine.Seat(i)), " "); engine.Seat(i) != seat && other == first {
			return name
		}
	}
	return first
}

// View writes a game's view as text: *eightydays.View or
// *crystalpalace.View (or the values). names[i] is seat i's display name.
// It shows exactly what the view holds, so a seat's private part appears
// only in that seat's own view.
func View(view any, names []string, st Style) (string, error) {
	switch v := view.(type) {
	case *eightydays.View:
		return eightyDays(v, names, st), nil
	case eightydays.View:
		return eightyDays(&v, names, st), nil
	case *cp.View:
		return crystalPalace(v, names, st), nil
	case cp.View:
		return crystalPalace(&v, names, st), nil
	}
	return "", fmt.Errorf("%w: %T", ErrUnknownView, view)
}

// table lays out rows in aligned columns. Cells may hold ANSI codes: widths
// are measured on the visible text.
type table struct {
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// visibleLen is the number of terminal columns s takes outside ANSI
// escape sequences: a Chinese character or an emoji takes two, a
// combining accent none.
func visibleLen(s string) int { return uniseg.StringWidth(StripANSI(s)) }

// StripANSI removes ANSI colour codes from s.
func StripANSI(s string) string {
	var b strings.Builder
	esc := false
	for _, r := range s {
		switch {
		case esc:
			esc = r != 'm'
		case r == '\x1b':
			esc = true
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
