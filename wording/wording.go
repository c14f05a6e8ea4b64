// Package wording writes what the games say in a reader's language: the
// engines produce events, prompts and refusals as data (engine.Text, a
// message id with typed arguments), and Words turns them into sentences
// through the locale catalogues, naming content items (patents,
// characters, locations, …) from the game's content in that language.
//
// It is the one place where game words are made: present, terminal, bot
// and imaging all write engine texts through it. It imports only engine
// and locale, does no I/O, and a Words is safe for concurrent use (it is
// not changed after New).
package wording

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
)

// Words writes engine texts in one language.
type Words struct {
	p     *locale.Printer
	names engine.Namer
	seats []string
}

// New returns Words writing with p, naming content items with names (nil:
// items read as their keys) and seats as seats[seat] when given, else
// "P1", "P2", ….
func New(p *locale.Printer, names engine.Namer, seats []string) *Words {
	return &Words{p: p, names: names, seats: seats}
}

// ForRules returns Words for a game of rules: its content names items when
// it implements engine.Namer.
func ForRules(p *locale.Printer, rules engine.Rules, seats []string) *Words {
	names, _ := rules.(engine.Namer)
	return New(p, names, seats)
}

// Lang is the language code the words are written in.
func (w *Words) Lang() string { return w.p.Lang() }

// Printer is the catalogue printer the words are written with.
func (w *Words) Printer() *locale.Printer { return w.p }

// Seat names seat as the reader knows the player.
func (w *Words) Seat(seat engine.Seat) string {
	if seat >= 0 && int(seat) < len(w.seats) && w.seats[seat] != "" {
		return w.seats[seat]
	}
	if seat < 0 {
		return w.p.T("word.spectator")
	}
	return "P" + strconv.Itoa(int(seat)+1)
}

// Item names the content item key in the reader's language, or the key
// itself when nothing names it.
func (w *Words) Item(key string) string {
	if w.names != nil {
		if n := w.names.ItemName(key, w.p.Lang()); n != "" {
			return n
		}
	}
	return key
}

// Say writes t; the zero Text is "".
func (w *Words) Say(t engine.Text) string {
	switch t.ID {
	case "":
		return ""
	case engine.PlainID:
		if len(t.Args) > 0 {
			return t.Args[0].S
		}
		return ""
	}
	data := make([]any, 0, 2*len(t.Args)+2)
	var parts []string
	inner := 0 // t.Args[:inner] belong to an inline text
	for _, a := range t.Args {
		if a.Kind == engine.ArgInline {
			inner = max(inner, int(a.M))
		}
	}
	for i, a := range t.Args {
		switch {
		case i < inner || a.Name == "":
			continue
		case a.Kind == engine.ArgInline:
			data = append(data, a.Name, w.Say(engine.Text{ID: a.S, Args: t.Args[a.N:a.M]}))
			continue
		}
		switch {
		case a.Name == "Count" && (a.Kind == engine.ArgNum || a.Kind == engine.ArgSigned):
			data = append(data, "Count", abs(int(a.N)), "Sign", sign(int(a.N)))
		case a.Kind == engine.ArgNum:
			data = append(data, a.Name, int(a.N)) // a number, for templates that compare it
		default:
			data = append(data, a.Name, w.arg(a))
		}
	}
	// the parts, their messages reading the text's named arguments too
	for i, a := range t.Args {
		if i >= inner && a.Name == "" {
			parts = append(parts, w.part(a, data))
		}
	}
	if parts != nil {
		data = append(data, "Parts", strings.Join(parts, w.p.T("list.sep")), "PartsAnd", w.join("list.and", parts), "PartsOr", w.join("list.or", parts))
	}
	return w.p.T(t.ID, data...)
}

// part writes a part of a text whose named arguments are data: a
// message part (ArgMsg) reads them beside its own N.
func (w *Words) part(a engine.Arg, data []any) string {
	if a.Kind != engine.ArgMsg {
		return w.arg(a)
	}
	return w.p.T(a.S, append(append(make([]any, 0, len(data)+2), data...), "N", int(a.N))...)
}

// arg writes one argument.
func (w *Words) arg(a engine.Arg) string {
	switch a.Kind {
	case engine.ArgNum:
		return strconv.Itoa(int(a.N))
	case engine.ArgSigned:
		return sign(int(a.N)) + strconv.Itoa(abs(int(a.N)))
	case engine.ArgSeat:
		return w.Seat(engine.Seat(a.N))
	case engine.ArgItem:
		return w.Item(a.S)
	case engine.ArgCode:
		return a.S
	case engine.ArgText:
		if a.Sub == nil {
			return ""
		}
		return w.Say(*a.Sub)
	case engine.ArgSeats:
		var names []string
		for s := range 31 {
			if a.N&(1<<s) != 0 {
				names = append(names, w.Seat(engine.Seat(s)))
			}
		}
		return w.join("list.and", names)
	case engine.ArgMsg:
		return w.p.T(a.S, "N", int(a.N))
	case engine.ArgAmount:
		return w.p.T(a.S, "Count", abs(int(a.N)), "Sign", sign(int(a.N)))
	case engine.ArgChange:
		return w.p.T(a.S, "From", int(a.N), "To", int(a.M))
	}
	return ""
}

// join joins items as "a, b and c" (id "list.and") or "a, b or c"
// ("list.or").
func (w *Words) join(id string, items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return w.p.T(id, "List", strings.Join(items[:len(items)-1], w.p.T("list.sep")), "Last", items[len(items)-1])
}

// Label writes what prompt p asks, its Text ("" for a prompt without one,
// which the engine contract forbids).
func (w *Words) Label(p engine.Prompt) string {
	if p.Text == nil {
		return ""
	}
	return w.Say(*p.Text)
}

// Event writes what event e says.
func (w *Words) Event(e engine.Event) string { return w.Say(e.Text) }

// Refusal writes why err refused an action: a rule's reason in the
// reader's language when the engine gave it as data, else the error's own
// words.
func (w *Words) Refusal(err error) string {
	var rule *engine.RuleError
	if errors.As(err, &rule) {
		if !rule.Say.IsZero() {
			return w.Say(rule.Say)
		}
		return rule.Reason
	}
	return err.Error()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// sign is "+" or "-" before a number's size ("" for 0).
func sign(n int) string {
	switch {
	case n > 0:
		return "+"
	case n < 0:
		return "-"
	}
	return ""
}

// Tokens splits s into the words EnglishOnly compares: runs of three
// letters or more, lower case.
func Tokens(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(s, -1) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

var (
	wordRE        = regexp.MustCompile(`\p{L}{3,}`)
	placeholderRE = regexp.MustCompile(`\{\{[^}]*\}\}`)
)

// EnglishOnly returns the words of cat's English messages that no other
// language's messages use (placeholders left out): a text for a German or
// French reader that holds one of them shows English. Words every
// language shares (Westminster, Passepartout, the typed notation) are not
// among them, nor the words of the content names other languages give
// (the French "Pays-Bas" holds "pays") when a game's content lists its
// items (engine.Namer and engine.ItemLister).
func EnglishOnly(cat *locale.Catalogue, games ...engine.Rules) map[string]bool {
	out := map[string]bool{}
	for _, text := range cat.Texts(locale.English) {
		for _, w := range Tokens(placeholderRE.ReplaceAllString(text, " ")) {
			out[w] = true
		}
	}
	for _, lang := range cat.Languages()[1:] {
		for _, text := range cat.Texts(lang) {
			for _, w := range Tokens(placeholderRE.ReplaceAllString(text, " ")) {
				delete(out, w)
			}
		}
		for _, rules := range games {
			names, named := rules.(engine.Namer)
			list, listed := rules.(engine.ItemLister)
			if !named || !listed {
				continue
			}
			for _, key := range list.ItemKeys() {
				for _, w := range Tokens(names.ItemName(key, lang)) {
					delete(out, w)
				}
			}
		}
	}
	return out
}

// WithSeats returns words that name seat i as seats[i] (see New).
func (w *Words) WithSeats(seats []string) *Words {
	return &Words{p: w.p, names: w.names, seats: seats}
}

// Seats is how many seats the words name by a name of their own.
func (w *Words) Seats() int { return len(w.seats) }
