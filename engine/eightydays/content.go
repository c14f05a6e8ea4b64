package eightydays

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/BurntSushi/toml"
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
	Number        int    `toml:"number"`
	Kind          string `toml:"kind"`
	City          string `toml:"city"`
	Bets          []int  `toml:"bets"`
	Red           bool   `toml:"red"`
	Source        string `toml:"source"`
	Reconstructed bool   `toml:"reconstructed"`
}

// Card is one kind of Passepartout card, as read from the cards file.
type Card struct {
	ID            string `toml:"id"`
	Name          string `toml:"name"`
	Kind          string `toml:"kind"`
	Copies        int    `toml:"copies"`
	Pounds        int    `toml:"pounds"`
	Rumors        int    `toml:"rumors"`
	Discount      int    `toml:"discount"`
	Reshuffle     bool   `toml:"reshuffle"`
	Source        string `toml:"source"`
	Reconstructed bool   `toml:"reconstructed"`
}

// Effect says what the card does, in a few words.
func (c Card) Effect() string {
	var parts []string
	switch {
	case c.Pounds > 0:
		parts = append(parts, fmt.Sprintf("take %d£", c.Pounds))
	case c.Pounds < 0:
		parts = append(parts, fmt.Sprintf("pay %d£", -c.Pounds))
	}
	switch {
	case c.Rumors > 0:
		parts = append(parts, fmt.Sprintf("take %d Rumor", c.Rumors))
	case c.Rumors < 0:
		parts = append(parts, fmt.Sprintf("discard %d Rumor", -c.Rumors))
	}
	if c.Discount > 0 {
		parts = append(parts, fmt.Sprintf("this turn's move costs %d£ less", c.Discount))
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

// ContentError is a content file's mistake: the file, the entry and the field.
type ContentError struct {
	File  string
	Entry string // e.g. "space 38" or "card aouda"; "" for the file as a whole
	Field string
	Msg   string
}

// Error implements error: "file: entry: field: what is wrong".
func (e *ContentError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
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

// DefaultContent returns the embedded content.
func DefaultContent() (*Content, error) {
	sub, err := fs.Sub(embedded, "content")
	if err != nil {
		return nil, err
	}
	return LoadContent(sub)
}

// LoadContent reads and validates the track and card files from fsys (for
// example os.DirFS of an admin's content folder). Errors name the file, the
// entry and the field at fault.
func LoadContent(fsys fs.FS) (*Content, error) {
	var track struct {
		Space []Space `toml:"space"`
	}
	if err := decodeFile(fsys, TrackFile, &track); err != nil {
		return nil, err
	}
	var cards struct {
		Card []Card `toml:"card"`
	}
	if err := decodeFile(fsys, CardsFile, &cards); err != nil {
		return nil, err
	}
	c := &Content{Cards: cards.Card}
	var err error
	if c.Track, err = validateTrack(track.Space); err != nil {
		return nil, err
	}
	if c.Deck, err = validateCards(c.Cards); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeFile(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return &ContentError{File: name, Msg: err.Error()}
	}
	md, err := toml.Decode(string(data), v)
	if err != nil {
		return &ContentError{File: name, Msg: err.Error()}
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		key := undecoded[0]
		entry := strings.Join(key[:len(key)-1], ".")
		return &ContentError{File: name, Entry: entry, Field: key[len(key)-1], Msg: "unknown field"}
	}
	return nil
}

func validateTrack(spaces []Space) ([]Space, error) {
	track := make([]Space, spaceCount)
	seen := make([]bool, spaceCount)
	for i, sp := range spaces {
		entry := fmt.Sprintf("entry %d", i+1)
		if sp.Number < 0 || sp.Number > LondonEnd {
			return nil, &ContentError{TrackFile, entry, "number", fmt.Sprintf("%d is not a space of the track (0 to %d)", sp.Number, LondonEnd)}
		}
		entry = fmt.Sprintf("space %d", sp.Number)
		if seen[sp.Number] {
			return nil, &ContentError{TrackFile, entry, "number", "listed twice"}
		}
		seen[sp.Number] = true
		if err := validateSpace(sp, entry); err != nil {
			return nil, err
		}
		track[sp.Number] = sp
	}
	for n, ok := range seen {
		if !ok {
			return nil, &ContentError{TrackFile, fmt.Sprintf("space %d", n), "", "missing"}
		}
	}
	if track[0].Kind != KindLondon || track[LondonEnd].Kind != KindLondon {
		return nil, &ContentError{TrackFile, "space 0", "kind", "spaces 0 and 80 must both be London"}
	}
	layovers, red := 0, 0
	for _, sp := range track[1:LondonEnd] {
		if sp.Kind == KindLondon {
			return nil, &ContentError{TrackFile, fmt.Sprintf("space %d", sp.Number), "kind", "only spaces 0 and 80 are London"}
		}
		if sp.Kind == KindLayover {
			layovers++
		}
		if sp.Red {
			red++
		}
	}
	if layovers == 0 {
		return nil, &ContentError{TrackFile, "", "kind", "the track needs at least one Layover (the first is Paris)"}
	}
	if red > 1 {
		return nil, &ContentError{TrackFile, "", "red", "only the last Layover before London is red"}
	}
	return track, nil
}

func validateSpace(sp Space, entry string) error {
	switch sp.Kind {
	case KindLondon, KindPassepartout, KindPound, KindPolice:
	case KindLayover:
		if sp.City == "" {
			return &ContentError{TrackFile, entry, "city", "a Layover needs its city"}
		}
	case KindBet:
		if len(sp.Bets) == 0 {
			return &ContentError{TrackFile, entry, "bets", "a Bet space needs the race positions it pays"}
		}
		for _, b := range sp.Bets {
			if b < 1 || b > 6 {
				return &ContentError{TrackFile, entry, "bets", fmt.Sprintf("%d is not a race position (1 to 6)", b)}
			}
		}
	default:
		return &ContentError{TrackFile, entry, "kind", fmt.Sprintf("%q is not a space kind (london, layover, passepartout, bet, pound, police)", sp.Kind)}
	}
	if sp.Kind != KindBet && len(sp.Bets) > 0 {
		return &ContentError{TrackFile, entry, "bets", "only Bet spaces pay race positions"}
	}
	if sp.Red && sp.Kind != KindLayover {
		return &ContentError{TrackFile, entry, "red", "only a Layover is red"}
	}
	return validateProvenance(TrackFile, entry, sp.Source, sp.Reconstructed)
}

func validateProvenance(file, entry, source string, reconstructed bool) error {
	if source == "" && !reconstructed {
		return &ContentError{file, entry, "source", "cite the rulebook, or mark the entry reconstructed = true"}
	}
	return nil
}

func validateCards(cards []Card) ([]int, error) {
	var deck []int
	ids := map[string]bool{}
	for i, c := range cards {
		entry := fmt.Sprintf("card %s", c.ID)
		if c.ID == "" || strings.ContainsAny(c.ID, " \t\n") || c.ID != strings.ToLower(c.ID) {
			return nil, &ContentError{CardsFile, fmt.Sprintf("entry %d", i+1), "id", fmt.Sprintf("%q: want one lower-case word", c.ID)}
		}
		if ids[c.ID] {
			return nil, &ContentError{CardsFile, entry, "id", "listed twice"}
		}
		ids[c.ID] = true
		if err := validateCard(c, entry); err != nil {
			return nil, err
		}
		for k := 0; k < c.Copies; k++ {
			deck = append(deck, i)
		}
	}
	if len(deck) != DeckSize {
		return nil, &ContentError{CardsFile, "", "copies", fmt.Sprintf("the cards add up to %d; the game has %d", len(deck), DeckSize)}
	}
	return deck, nil
}

func validateCard(c Card, entry string) error {
	switch {
	case c.Name == "":
		return &ContentError{CardsFile, entry, "name", "missing"}
	case c.Kind != CardEvent && c.Kind != CardCharacter:
		return &ContentError{CardsFile, entry, "kind", fmt.Sprintf("%q: want event or character", c.Kind)}
	case c.Copies < 1:
		return &ContentError{CardsFile, entry, "copies", "want at least 1"}
	case c.Rumors < -1 || c.Rumors > 1:
		return &ContentError{CardsFile, entry, "rumors", "a card takes or discards at most one Rumor"}
	case c.Pounds < -100 || c.Pounds > 100:
		return &ContentError{CardsFile, entry, "pounds", "want -100 to 100"}
	case c.Discount < 0 || c.Discount > 100:
		return &ContentError{CardsFile, entry, "discount", "want 0 to 100"}
	case c.Discount > 0 && c.Kind != CardCharacter:
		return &ContentError{CardsFile, entry, "discount", "only a character played before moving can lower a move's cost"}
	case c.Pounds == 0 && c.Rumors == 0 && c.Discount == 0:
		return &ContentError{CardsFile, entry, "", "the card does nothing: give it pounds, rumors or discount"}
	}
	return validateProvenance(CardsFile, entry, c.Source, c.Reconstructed)
}
