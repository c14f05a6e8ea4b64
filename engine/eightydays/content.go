package eightydays

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

//go:embed content/*.toml
var embedded embed.FS

// The content files a content folder must hold.
const (
	TrackFile = "track.toml"
	CardsFile = "passepartout.toml"
)

// Numbers the rulebook fixes for the content.
const (
	LondonEnd  = 80 // the last space: London again
	DeckSize   = 25 // Passepartout cards in the box
	spaceCount = LondonEnd + 1
)

// Space kinds.
const (
	KindLondon       = "london"
	KindLayover      = "layover"
	KindPassepartout = "passepartout"
	KindBet          = "bet"
	KindPound        = "pound"
	KindPolice       = "police"
)

// Card kinds.
const (
	CardEvent     = "event"
	CardCharacter = "character"
)

// Space is one space of the track, as read from the track file.
type Space struct {
	Number int    `toml:"number"`
	Kind   string `toml:"kind"`
	City   string `toml:"city"`
	// Names is the city's name in other languages, by code ("de", "fr");
	// a language not given reads the city's own name.
	Names         map[string]string `toml:"names"`
	Bets          []int             `toml:"bets"`
	Red           bool              `toml:"red"`
	Source        string            `toml:"source"`
	Reconstructed bool              `toml:"reconstructed"`
}

// Card is one kind of Passepartout card, as read from the cards file.
type Card struct {
	ID            string            `toml:"id"`
	Name          string            `toml:"name"`
	Names         map[string]string `toml:"names"` // in other languages, as Space.Names
	Kind          string            `toml:"kind"`
	Copies        int               `toml:"copies"`
	Pounds        int               `toml:"pounds"`
	Rumors        int               `toml:"rumors"`
	Discount      int               `toml:"discount"`
	Reshuffle     bool              `toml:"reshuffle"`
	Source        string            `toml:"source"`
	Reconstructed bool              `toml:"reconstructed"`
}

// Effect says what the card does, in a few words.
func (c Card) Effect() string {
	var parts []string
	switch {
	case c.Pounds > 0:
		parts = append(parts, fmt.Sprintf("take %d £", c.Pounds))
	case c.Pounds < 0:
		parts = append(parts, fmt.Sprintf("pay %d £", -c.Pounds))
	}
	switch {
	case c.Rumors > 0:
		parts = append(parts, fmt.Sprintf("take %d Rumor", c.Rumors))
	case c.Rumors < 0:
		parts = append(parts, fmt.Sprintf("discard %d Rumor", -c.Rumors))
	}
	if c.Discount > 0 {
		parts = append(parts, fmt.Sprintf("this turn's move costs %d £ less", c.Discount))
	}
	return strings.Join(parts, ", ")
}

// Content is the game's data: the track and the Passepartout cards. It is
// read-only once loaded and safe for concurrent use.
type Content struct {
	Track []Space // indexed by space number, 0 to 80
	Cards []Card  // one entry per kind of card
	// Deck lists the 25 cards by index into Cards, copies repeated, in file order.
	Deck []int
}

// ContentError is a content file's mistake: the file, the line, the entry
// and the field.
type ContentError struct {
	File  string
	Line  int    // counted from 1; 0 when not known
	Entry string // e.g. "space 38" or "card aouda"; "" for the file as a whole
	Field string
	Msg   string
}

// Error implements error: "file:line: entry: field: what is wrong".
func (e *ContentError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Entry != "" {
		b.WriteString(": " + e.Entry)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// EmbeddedContent returns the embedded content files, under "content/",
// for example as a starting point for an admin's own files.
func EmbeddedContent() fs.FS { return embedded }

// DefaultContent returns the embedded content, parsed at the first call.
// Every caller shares it, so none may change it.
func DefaultContent() (*Content, error) { return defaultContent() }

var defaultContent = sync.OnceValues(func() (*Content, error) {
	sub, err := fs.Sub(embedded, "content")
	if err != nil {
		return nil, err
	}
	return LoadContent(sub)
})

// LoadContent reads and validates the track and card files from fsys (for
// example os.DirFS of an admin's content folder). Every number is checked
// against what the game can use; errors name the file, the line, the entry
// and the field at fault.
func LoadContent(fsys fs.FS) (*Content, error) {
	var spaces []Space
	track, err := readEntries(fsys, TrackFile, "space", "number", &spaces)
	if err != nil {
		return nil, err
	}
	c := &Content{}
	if c.Track, err = validateTrack(track, spaces); err != nil {
		return nil, err
	}
	cards, err := readEntries(fsys, CardsFile, "card", "id", &c.Cards)
	if err != nil {
		return nil, err
	}
	if c.Deck, err = validateCards(cards, c.Cards); err != nil {
		return nil, err
	}
	return c, nil
}

// Bounds of the content's words, so that names fit messages and images.
const (
	maxIDLen   = 24
	maxNameLen = 60
	maxCityLen = 24
)

func validateTrack(f *contentFile, spaces []Space) ([]Space, error) {
	track := make([]Space, spaceCount)
	seen := make([]bool, spaceCount)
	for i, sp := range spaces {
		entry := fmt.Sprintf("entry %d", i+1)
		if sp.Number < 0 || sp.Number > LondonEnd {
			return nil, f.fail(i, entry, "number", fmt.Sprintf("%d is not a space of the track (0 to %d)", sp.Number, LondonEnd))
		}
		entry = fmt.Sprintf("space %d", sp.Number)
		if seen[sp.Number] {
			return nil, f.fail(i, entry, "number", "listed twice")
		}
		seen[sp.Number] = true
		if field, msg := spaceMistake(sp); msg != "" {
			return nil, f.fail(i, entry, field, msg)
		}
		track[sp.Number] = sp
	}
	for n, ok := range seen {
		if !ok {
			return nil, &ContentError{File: TrackFile, Entry: fmt.Sprintf("space %d", n), Msg: "missing"}
		}
	}
	if track[0].Kind != KindLondon || track[LondonEnd].Kind != KindLondon {
		return nil, &ContentError{File: TrackFile, Entry: "space 0", Field: "kind", Msg: "spaces 0 and 80 must both be London"}
	}
	layovers, red := 0, 0
	for _, sp := range track[1:LondonEnd] {
		if sp.Kind == KindLondon {
			return nil, &ContentError{File: TrackFile, Entry: fmt.Sprintf("space %d", sp.Number), Field: "kind", Msg: "only spaces 0 and 80 are London"}
		}
		if sp.Kind == KindLayover {
			layovers++
		}
		if sp.Red {
			red++
		}
	}
	if layovers == 0 {
		return nil, &ContentError{File: TrackFile, Field: "kind", Msg: "the track needs at least one Layover (the first is Paris)"}
	}
	if red > 1 {
		return nil, &ContentError{File: TrackFile, Field: "red", Msg: "only the last Layover before London is red"}
	}
	return track, nil
}

// spaceMistake is the field of sp at fault and what is wrong with it, or
// "" and "" when the space is right.
func spaceMistake(sp Space) (field, msg string) {
	switch sp.Kind {
	case KindLondon, KindPassepartout, KindPound, KindPolice:
	case KindLayover:
		if sp.City == "" {
			return "city", "a Layover needs its city"
		}
	case KindBet:
		if len(sp.Bets) == 0 {
			return "bets", "a Bet space needs the race positions it pays"
		}
		var paid [maxRank + 1]bool
		for _, b := range sp.Bets {
			if b < 1 || b > maxRank {
				return "bets", fmt.Sprintf("%d is not a race position (1 to %d)", b, maxRank)
			}
			if paid[b] {
				return "bets", fmt.Sprintf("%d is listed twice", b)
			}
			paid[b] = true
		}
	default:
		return "kind", fmt.Sprintf("%q is not a space kind (london, layover, passepartout, bet, pound, police)", clipWords(sp.Kind))
	}
	switch {
	case sp.Kind != KindBet && len(sp.Bets) > 0:
		return "bets", "only Bet spaces pay race positions"
	case sp.Red && sp.Kind != KindLayover:
		return "red", "only a Layover is red"
	case len([]rune(sp.City)) > maxCityLen:
		return "city", fmt.Sprintf("%d characters: at most %d", len([]rune(sp.City)), maxCityLen)
	case len(sp.Names) > 0 && sp.City == "":
		return "names", "only a city has names"
	}
	if field, msg := namesMistake(sp.Names, maxCityLen); field != "" {
		return field, msg
	}
	return provenanceMistake(sp.Source, sp.Reconstructed)
}

func provenanceMistake(source string, reconstructed bool) (field, msg string) {
	if source == "" && !reconstructed {
		return "source", "cite the rulebook, or mark the entry reconstructed = true"
	}
	return "", ""
}

// clipWords shortens a wrong value quoted back in a message.
func clipWords(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "…"
	}
	return s
}

func validateCards(f *contentFile, cards []Card) ([]int, error) {
	var deck []int
	ids := map[string]bool{}
	for i, c := range cards {
		entry := fmt.Sprintf("card %s", c.ID)
		if c.ID == "" || len(c.ID) > maxIDLen || strings.ContainsAny(c.ID, " \t\n") || c.ID != strings.ToLower(c.ID) {
			return nil, f.fail(i, fmt.Sprintf("entry %d", i+1), "id", fmt.Sprintf("%q: want one lower-case word of at most %d letters", clipWords(c.ID), maxIDLen))
		}
		if ids[c.ID] {
			return nil, f.fail(i, entry, "id", "listed twice")
		}
		ids[c.ID] = true
		if field, msg := cardMistake(c); msg != "" {
			return nil, f.fail(i, entry, field, msg)
		}
		if len(deck)+c.Copies > DeckSize {
			return nil, f.fail(i, entry, "copies", fmt.Sprintf("the cards up to this one add up to %d; the game has %d", len(deck)+c.Copies, DeckSize))
		}
		for k := 0; k < c.Copies; k++ {
			deck = append(deck, i)
		}
	}
	if len(deck) != DeckSize {
		return nil, &ContentError{File: CardsFile, Field: "copies", Msg: fmt.Sprintf("the cards add up to %d; the game has %d", len(deck), DeckSize)}
	}
	return deck, nil
}

// namesMistake checks names in other languages: German and French only,
// none empty, none longer than max characters.
func namesMistake(names map[string]string, max int) (field, msg string) {
	for lang, name := range names {
		switch {
		case lang != "de" && lang != "fr":
			return "names." + clipWords(lang), "unknown language (want de or fr)"
		case name == "":
			return "names." + lang, "missing"
		case len([]rune(name)) > max:
			return "names." + lang, fmt.Sprintf("%d characters: at most %d", len([]rune(name)), max)
		}
	}
	return "", ""
}

// Bounds of a card's numbers: a card moves at most a long journey's worth
// of pounds, and a discount beyond the dearest move is meaningless.
const (
	maxCardPounds   = 100
	maxCardDiscount = 100
)

// cardMistake is the field of c at fault and what is wrong with it, or ""
// and "" when the card is right.
func cardMistake(c Card) (field, msg string) {
	if field, msg := namesMistake(c.Names, maxNameLen); field != "" {
		return field, msg
	}
	switch {
	case c.Name == "":
		return "name", "missing"
	case len([]rune(c.Name)) > maxNameLen:
		return "name", fmt.Sprintf("%d characters: at most %d", len([]rune(c.Name)), maxNameLen)
	case c.Kind != CardEvent && c.Kind != CardCharacter:
		return "kind", fmt.Sprintf("%q: want event or character", clipWords(c.Kind))
	case c.Copies < 1 || c.Copies > DeckSize:
		return "copies", fmt.Sprintf("%d: want 1 to %d (the deck has %d cards)", c.Copies, DeckSize, DeckSize)
	case c.Rumors < -1 || c.Rumors > 1:
		return "rumors", fmt.Sprintf("%d: a card takes or discards at most one Rumor (-1 to 1)", c.Rumors)
	case c.Pounds < -maxCardPounds || c.Pounds > maxCardPounds:
		return "pounds", fmt.Sprintf("%d: want %d to %d", c.Pounds, -maxCardPounds, maxCardPounds)
	case c.Discount < 0 || c.Discount > maxCardDiscount:
		return "discount", fmt.Sprintf("%d: want 0 to %d", c.Discount, maxCardDiscount)
	case c.Discount > 0 && c.Kind != CardCharacter:
		return "discount", "only a character played before moving can lower a move's cost"
	case c.Pounds == 0 && c.Rumors == 0 && c.Discount == 0:
		return "", "the card does nothing: give it pounds, rumors or discount"
	}
	return provenanceMistake(c.Source, c.Reconstructed)
}
