// Package present writes a game's view as compact, aligned text: the words a
// terminal player reads before each decision, and what a chat bot can post
// as a text summary. It colours the text with ANSI codes when asked (a
// terminal) and writes it plain otherwise (a pipe, NO_COLOR, a chat message).
//
// It writes in the reader's language: every label through the catalogue
// messages view.<lang>.toml (ids view.*, cp.view.*, ed.view.*), and the
// views' texts and content names, which the views hold as data, through
// package wording.
//
// It imports only engine packages and wording, reads nothing but the
// views it is given, does no I/O, and is safe for concurrent use.
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

// ShortName is seat's name as words name it, cut to its first word ("P3"
// for "P3 heuristic", "Ada" for "Ada Lovelace") for tight spaces, or the
// whole name when another of the players seats' names begins with the
// same word.
func ShortName(words *wording.Words, players int, seat engine.Seat) string {
	name := words.Seat(seat)
	first, _, cut := strings.Cut(name, " ")
	if !cut {
		return name
	}
	for i := range players {
		if other, _, _ := strings.Cut(words.Seat(engine.Seat(i)), " "); engine.Seat(i) != seat && other == first {
			return name
		}
	}
	return first
}

// View writes a game's view as text, in the language of words (which
// also names the seats): *eightydays.View or *crystalpalace.View (or the
// values). It shows exactly what the view holds, so a seat's private
// part appears only in that seat's own view.
func View(view any, words *wording.Words, st Style) (string, error) {
	w := writer{words: words, st: st}
	switch v := view.(type) {
	case *eightydays.View:
		return w.eightyDays(v), nil
	case eightydays.View:
		return w.eightyDays(&v), nil
	case *cp.View:
		return w.crystalPalace(v), nil
	case cp.View:
		return w.crystalPalace(&v), nil
	}
	return "", fmt.Errorf("%w: %T", ErrUnknownView, view)
}

// writer writes one view in one language and style.
type writer struct {
	words *wording.Words
	st    Style
}

// t writes catalogue message id with args (name, value pairs).
func (w writer) t(id string, args ...any) string { return w.words.Printer().T(id, args...) }

// say writes the view's text t, or english when the view gives no text
// (a view made by hand).
func (w writer) say(t engine.Text, english string) string {
	if t.IsZero() {
		return english
	}
	return w.words.Say(t)
}

// item names content item key in the reader's language, or english when
// the view gives no key.
func (w writer) item(key, english string) string {
	if key == "" {
		return english
	}
	return w.words.Item(key)
}

// name is seat's name; with you, marked as the reader's own.
func (w writer) name(seat engine.Seat, you bool) string {
	if you {
		return w.t("view.you", "Name", w.words.Seat(seat))
	}
	return w.words.Seat(seat)
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
func visibleLen(s string) int {
	s = StripANSI(s)
	n := 0
	for _, r := range s {
		if !oneColumn(r) {
			return uniseg.StringWidth(s)
		}
		n++
	}
	return n
}

// oneColumn reports whether r takes one column whatever follows it:
// Latin-1's letters and signs, dashes, quotes and the ellipsis, the narrow
// no-break space French puts before its signs, and the arrow. Anything
// else is measured by grapheme cluster.
func oneColumn(r rune) bool {
	switch {
	case r >= ' ' && r < 0x7f, r >= 0xa0 && r <= 0xff && r != 0xad:
		return true
	case r >= 0x2010 && r <= 0x2027, r == 0x202f, r == '→':
		return true
	}
	return false
}

// StripANSI removes ANSI colour codes from s.
func StripANSI(s string) string {
	at := strings.IndexByte(s, '\x1b')
	if at < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for at >= 0 {
		b.WriteString(s[:at])
		end := strings.IndexByte(s[at:], 'm')
		if end < 0 {
			return b.String() // a code cut short hides the rest
		}
		s = s[at+end+1:]
		at = strings.IndexByte(s, '\x1b')
	}
	b.WriteString(s)
	return b.String()
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
