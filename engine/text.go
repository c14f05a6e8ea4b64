package engine

import (
	"strconv"
	"strings"
)

// Text is words as data: the id of a message in the wording catalogues and
// its arguments, typed (numbers, seats, content items by key, notation,
// nested texts). The engines say what happened and what is asked with
// Texts; package wording writes them in a reader's language. A game never
// formats a sentence itself, so the same event reads in English, German
// or French.
//
// The zero Text says nothing. A Text is a value: once made it is not
// changed, so Args may be shared.
type Text struct {
	ID   string
	Args []Arg
}

// IsZero reports whether t says nothing.
func (t Text) IsZero() bool { return t.ID == "" }

// Arg reads the argument called name, and whether t has one.
func (t Text) Arg(name string) (Arg, bool) {
	for _, a := range t.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// ArgKind says how an argument is written.
type ArgKind uint8

// Kinds of arguments.
const (
	// ArgNum is the number N. An argument named "Count" also chooses the
	// message's plural form.
	ArgNum ArgKind = iota
	// ArgSigned is the number N written with its sign ("+3", "-2"); named
	// "Count" it chooses the plural form by N's size.
	ArgSigned
	// ArgSeat is seat N, written as the reader knows the player ("P2", a name).
	ArgSeat
	// ArgItem is the content item with key S ("patent:crane"), written by
	// its name in the reader's language (see Namer).
	ArgItem
	// ArgCode is S as it stands in every language: action notation, dice
	// values, a reconstructed English detail with no message of its own.
	ArgCode
	// ArgText is the nested text Sub, written in the same language.
	ArgText
	// ArgSeats is the seats whose bits are set in N (seat k is bit k),
	// written as "P1 and P3".
	ArgSeats
	// ArgMsg is the message S, given N as "N": a fixed word or phrase
	// ("income", "objective level 3").
	ArgMsg
	// ArgAmount is the message S given |N| as "Count" (choosing its plural
	// form) and N's sign as "Sign": "+3 £", "-1 gear".
	ArgAmount
	// ArgChange is the message S given N as "From" and M as "To":
	// "income 3 → 4".
	ArgChange
	// ArgInline is the nested text with id S whose arguments are the
	// text's own Args[N:M], which the text itself does not read: a line
	// can so grow from another without allocating that one again.
	ArgInline
)

// Arg is one argument of a Text: the placeholder Name it fills and a value
// of its Kind. Arguments with no Name are parts of one list, written
// together as placeholder "Parts" (joined by the language's list
// separator: "a, b, c"), "PartsAnd" ("a, b and c") and "PartsOr" ("a, b
// or c"): a Text can so carry
// a list in a single allocation. A part written by a message (ArgMsg)
// reads the text's named arguments besides its own N.
type Arg struct {
	Name string
	S    string
	Sub  *Text // ArgText
	N    int32
	M    int16 // ArgChange's end, ArgInline's end: small numbers
	Kind ArgKind
}

// Say makes the Text id with args.
func Say(id string, args ...Arg) Text { return Text{ID: id, Args: args} }

// Num is the number n as argument name.
func Num(name string, n int) Arg { return Arg{Name: name, Kind: ArgNum, N: int32(n)} }

// Signed is the number n written with its sign.
func Signed(name string, n int) Arg { return Arg{Name: name, Kind: ArgSigned, N: int32(n)} }

// Who is seat as argument name.
func Who(name string, seat Seat) Arg { return Arg{Name: name, Kind: ArgSeat, N: int32(seat)} }

// Item is the content item key, written by its name.
func Item(name, key string) Arg { return Arg{Name: name, Kind: ArgItem, S: key} }

// Code is s written as it stands in every language.
func Code(name, s string) Arg { return Arg{Name: name, Kind: ArgCode, S: s} }

// Nested is the text t as argument name.
func Nested(name string, t Text) Arg { return Arg{Name: name, Kind: ArgText, Sub: &t} }

// Ref is the text *t as argument name, shared, not copied: t must not
// change afterwards (a text built once, such as a game's table of
// space names).
func Ref(name string, t *Text) Arg { return Arg{Name: name, Kind: ArgText, Sub: t} }

// Typed is actions as argument name: a list of notation, each written as
// what to type (message engine.typed.item, which may quote it as code)
// and joined as a list (engine.typed.list).
func Typed(name string, actions []string) Arg {
	items := make([]Arg, len(actions))
	for i, a := range actions {
		items[i] = Part(Nested("", Say("engine.typed.item", Code("Action", a))))
	}
	return Nested(name, Text{ID: "engine.typed.list", Args: items})
}

// Seats is the seats written as "P1 and P3"; seats from 0 to 30.
func Seats(name string, seats ...Seat) Arg {
	var bits int32
	for _, s := range seats {
		bits |= 1 << s
	}
	return Arg{Name: name, Kind: ArgSeats, N: bits}
}

// Msg is the message id as argument name, given n as "N".
func Msg(name, id string, n int) Arg { return Arg{Name: name, Kind: ArgMsg, S: id, N: int32(n)} }

// Amount is a part (see Arg) written by message id with n's size and sign.
func Amount(id string, n int) Arg { return Arg{Kind: ArgAmount, S: id, N: int32(n)} }

// Change is a part (see Arg) written by message id from one number to another.
func Change(id string, from, to int) Arg {
	return Arg{Kind: ArgChange, S: id, N: int32(from), M: int16(to)}
}

// Part is a as a part of the list "Parts" (see Arg).
func Part(a Arg) Arg {
	a.Name = ""
	return a
}

// Plain is a Text that writes s as it stands in every language: for words
// that have no message yet. The wording layer shows it unchanged.
func Plain(s string) Text {
	if s == "" {
		return Text{}
	}
	return Text{ID: PlainID, Args: []Arg{Code("Text", s)}}
}

// Key is t written as one language-free string: its id and its
// arguments as data, nested texts included. Equal texts have equal keys,
// so a key tells whether something said changed (a game's phase) without
// writing it in any language.
func (t Text) Key() string {
	var b strings.Builder
	t.key(&b)
	return b.String()
}

func (t Text) key(b *strings.Builder) {
	b.WriteString(t.ID)
	for _, a := range t.Args {
		b.WriteByte('|')
		b.WriteString(a.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(int(a.Kind)))
		b.WriteByte(':')
		b.WriteString(a.S)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(a.N)))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(a.M)))
		if a.Sub != nil {
			b.WriteByte('(')
			a.Sub.key(b)
			b.WriteByte(')')
		}
	}
}

// PlainID is the id of Plain texts.
const PlainID = "plain"

// Namer names a game's content items (patents, characters, locations, …)
// by key in a language ("en", "de", "fr"), from the game's content files;
// it returns "" for a key it does not know. A game's Rules implement it.
type Namer interface {
	ItemName(key, lang string) string
}

// ItemLister is a Namer that lists the keys it names, so that every name
// in every language can be read (the word-list checks of translations).
type ItemLister interface {
	ItemKeys() []string
}
