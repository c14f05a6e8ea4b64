package crystalpalace

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

//go:embed content/*.toml
var embedded embed.FS

// ContentFiles lists the file names a content folder holds, in the order
// LoadContent reads them.
func ContentFiles() []string {
	return []string{
		"patents.toml", "characters.toml", "research.toml", "shares.toml",
		"publishers.toml", "mats.toml", "flyers.toml", "loans.toml",
		"locations.toml", "market.toml", "tracks.toml",
	}
}

// ErrContent marks content files that are missing or malformed.
var ErrContent = errors.New("bad content")

// ContentError names the file, entry and field of a content mistake.
type ContentError struct {
	File, Entry, Field, Problem string
}

// Error reads "file: entry: field: problem".
func (e *ContentError) Error() string {
	s := e.File + ": "
	if e.Entry != "" {
		s += e.Entry + ": "
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Problem
}

// Unwrap lets errors.Is find ErrContent.
func (e *ContentError) Unwrap() error { return ErrContent }

// Cost is what a prototype or character costs.
type Cost struct {
	Pounds int `toml:"pounds" json:"pounds,omitempty"`
	Gears  int `toml:"gears" json:"gears,omitempty"`
	Energy int `toml:"energy" json:"energy,omitempty"`
}

// Effect is one entry of the effect vocabulary: gain N of Gain, or N per
// Div of metric Per when Per is set. Negative N pays or loses.
type Effect struct {
	Gain string `toml:"gain" json:"gain"`
	N    int    `toml:"n" json:"n,omitempty"`
	Per  string `toml:"per" json:"per,omitempty"`
	Div  int    `toml:"div" json:"div,omitempty"`
	// Free, for an assistant action, makes its first Black Market placement free.
	Free bool `toml:"free" json:"free,omitempty"`

	gain   gain
	metric metric
}

// Patent is a patent card; its back is the prototype.
type Patent struct {
	ID        string `toml:"id"`
	Name      string `toml:"name"`
	Prototype string `toml:"prototype"`
	// Names and PrototypeNames are the patent's and prototype's names in
	// other languages, by code ("de", "fr"); a language not given reads
	// the English name.
	Names          map[string]string `toml:"names"`
	PrototypeNames map[string]string `toml:"prototype_names"`
	Cost           Cost              `toml:"cost"`
	VP             []int             `toml:"vp"` // by year: 1849, 1850, 1851
	Link           string            `toml:"link"`
	Effect         []Effect          `toml:"effect"`
	Source         string            `toml:"source"`
	Reconstructed  bool              `toml:"reconstructed"`
	link           int
}

// Ability is a character's recurring effect in phase 4, 5 or 6.
type Ability struct {
	Phase  phase    `toml:"phase"`
	Effect []Effect `toml:"effect"`
}

// Character is a character card.
type Character struct {
	ID            string            `toml:"id"`
	Name          string            `toml:"name"`
	Names         map[string]string `toml:"names"` // in other languages, as Patent.Names
	Cost          Cost              `toml:"cost"`
	VP            []int             `toml:"vp"`
	Link          string            `toml:"link"`
	Instant       []Effect          `toml:"instant"`
	Ability       Ability           `toml:"ability"`
	Salary        []int             `toml:"salary"` // by salary colour of the Westminster position
	Source        string            `toml:"source"`
	Reconstructed bool              `toml:"reconstructed"`
	link          int
}

// Research is a research tile: green (British Museum) or violet (beside the
// Patent Office with a blue box, beside the Reform Club with an orange box).
type Research struct {
	ID            string            `toml:"id"`
	Name          string            `toml:"name"`
	Names         map[string]string `toml:"names"` // in other languages, as Patent.Names
	Back          string            `toml:"back"`  // green or violet
	Box           string            `toml:"box"`   // violet only: blue or orange
	Instant       []Effect          `toml:"instant"`
	Phase6        []Effect          `toml:"phase6"`
	Source        string            `toml:"source"`
	Reconstructed bool              `toml:"reconstructed"`
}

// Share is a share tile of one round.
type Share struct {
	ID            string `toml:"id"`
	Round         int    `toml:"round"`
	VP            int    `toml:"vp"`
	Income        int    `toml:"income"`
	Source        string `toml:"source"`
	Reconstructed bool   `toml:"reconstructed"`
}

// PublisherLevel is one level of a publisher condition.
type PublisherLevel struct {
	Min  int `toml:"min" json:"min"`
	Buzz int `toml:"buzz" json:"buzz"`
}

// PublisherRound is the condition of one round: the sum of Metrics is
// compared with the levels; the highest level reached gives its Buzz.
type PublisherRound struct {
	Metrics []string         `toml:"metrics" json:"metrics"`
	Levels  []PublisherLevel `toml:"levels" json:"levels"`
	metrics []metric
}

// Publisher is one side of a publisher tile.
type Publisher struct {
	ID            string           `toml:"id"`
	Side          string           `toml:"side"`
	Rounds        []PublisherRound `toml:"round"`
	Source        string           `toml:"source"`
	Reconstructed bool             `toml:"reconstructed"`
}

// ObjectiveLevel is one level of a nation's objective track.
type ObjectiveLevel struct {
	Metric string `toml:"metric" json:"metric"`
	Min    int    `toml:"min" json:"min"`
	VP     int    `toml:"vp" json:"vp"`
	metric metric
}

// Mat is one side of a player mat: a nation and its objective.
type Mat struct {
	ID     string `toml:"id"`
	Side   string `toml:"side"`
	Nation string `toml:"nation"`
	// NationNames is Nation in other languages, as Patent.Names.
	NationNames    map[string]string `toml:"nation_names"`
	Landmark       string            `toml:"landmark"`
	ResearchSpaces int               `toml:"research_spaces"`
	Objective      []ObjectiveLevel  `toml:"objective"`
	Source         string            `toml:"source"`
	Reconstructed  bool              `toml:"reconstructed"`
}

// Flyer is a flyer tile of the Buzz track.
type Flyer struct {
	ID            string   `toml:"id"`
	Color         string   `toml:"color"` // blue, green or violet
	Effect        []Effect `toml:"effect"`
	Source        string   `toml:"source"`
	Reconstructed bool     `toml:"reconstructed"`
}

// LoanKind is a kind of loan tile and how many there are.
type LoanKind struct {
	VP     int    `toml:"vp"`
	Count  int    `toml:"count"`
	Source string `toml:"source"`
}

// DiceSpace is a dice placement space of a location.
type DiceSpace struct {
	Min       int  `toml:"min" json:"min"`
	Fee       int  `toml:"fee" json:"fee,omitempty"`
	Assistant bool `toml:"assistant" json:"assistant,omitempty"`
}

// ActionSpace is an action space: a bonus (or cost, when negative) taken
// before the action.
type ActionSpace struct {
	Pounds     int `toml:"pounds" json:"pounds,omitempty"`
	Newspapers int `toml:"newspapers" json:"newspapers,omitempty"`
	Buzz       int `toml:"buzz" json:"buzz,omitempty"`
}

// Possibility is one action possibility of the Port or Waterloo Station.
// Possibilities sharing a Group are used up together.
type Possibility struct {
	Key        string   `toml:"key" json:"key"`
	Group      string   `toml:"group" json:"group"`
	MinPlayers int      `toml:"min_players" json:"min_players,omitempty"`
	Effect     []Effect `toml:"effect" json:"effect"`
	Text       string   `toml:"text" json:"text"`
	// Texts is Text in other languages, as Patent.Names.
	Texts  map[string]string `toml:"texts" json:"texts,omitempty"`
	ticket bool
	item   string // Text's item key (see ItemName)
}

// BoardSide is a location board side used for some player counts.
type BoardSide struct {
	Players       []int         `toml:"players"`
	Dice          []DiceSpace   `toml:"dice"`
	Actions       []ActionSpace `toml:"actions"`
	Display       int           `toml:"display"`
	Possibilities []Possibility `toml:"possibility"`
	TicketVP      []int         `toml:"ticket_vp"`     // Port: VP by year
	TicketSpaces  int           `toml:"ticket_spaces"` // Port: dice spaces below the ticket
	Source        string        `toml:"source"`
	Reconstructed bool          `toml:"reconstructed"`
}

// Location is one of the eight location boards.
type Location struct {
	Key    string `toml:"key"`
	Number int    `toml:"number"`
	Name   string `toml:"name"`
	// Names is the name in other languages, as Patent.Names; At says "at
	// the Patent Office" in each language, English included ("en").
	Names map[string]string `toml:"names"`
	At    map[string]string `toml:"at"`
	Sides []BoardSide       `toml:"side"`
	kind  locKind
}

// MarketSpace is a Black Market space: the cost to place or move an
// assistant onto it and its phase 6 benefit.
type MarketSpace struct {
	Cost   int      `toml:"cost" json:"cost"`
	Effect []Effect `toml:"effect" json:"effect"`
}

// Market is a Black Market side.
type Market struct {
	Players       []int         `toml:"players"`
	Gears         int           `toml:"gears"`       // gear spaces on the yellow banner
	BannerTier    int           `toml:"banner_tier"` // moving down from this tier up gives a gear
	Spaces        []MarketSpace `toml:"space"`       // from tier 1 (bottom) up
	Source        string        `toml:"source"`
	Reconstructed bool          `toml:"reconstructed"`
}

// Poster is a poster space of the Buzz track. Choice, on poster 4, offers
// the two bonuses as alternatives each round.
type Poster struct {
	Space  int      `toml:"space" json:"space"`
	Effect []Effect `toml:"effect" json:"effect"`
	Choice []Effect `toml:"choice" json:"choice,omitempty"`
	Source string   `toml:"source" json:"-"`
}

// BuzzTrack is the Buzz track.
type BuzzTrack struct {
	Length       int      `toml:"length"`
	BlueFlyers   []int    `toml:"blue_flyers"`
	GreenFlyers  []int    `toml:"green_flyers"`
	VioletFlyers []int    `toml:"violet_flyers"`
	Posters      []Poster `toml:"poster"`
	Tickets      int      `toml:"tickets"`
	RankVP       []int    `toml:"rank_vp"`
	Source       string   `toml:"source"`
}

// IncomeSpace is a space of the income track.
type IncomeSpace struct {
	Income int  `toml:"income" json:"income"`
	Red    bool `toml:"red" json:"red,omitempty"`
}

// WestminsterSpace is a space of the Westminster track.
type WestminsterSpace struct {
	Name   string            `toml:"name" json:"name"`
	Names  map[string]string `toml:"names" json:"-"` // in other languages, as Patent.Names
	Bonus  []Effect          `toml:"bonus" json:"bonus,omitempty"`
	Salary int               `toml:"salary" json:"salary"` // salary colour: index into Character.Salary
}

// Economy holds the fixed prices and starting supplies.
type Economy struct {
	StartPounds        int    `toml:"start_pounds"`
	StartGears         int    `toml:"start_gears"`
	StartEnergy        int    `toml:"start_energy"`
	StartVP            int    `toml:"start_vp"`
	StartDice          int    `toml:"start_dice"`
	MaxDice            int    `toml:"max_dice"`
	Assistants         int    `toml:"assistants"`
	EnergyPounds       int    `toml:"energy_pounds"`
	GearPounds         int    `toml:"gear_pounds"`
	GearNewspapers     int    `toml:"gear_newspapers"`
	SellGear           int    `toml:"sell_gear"`
	SellEnergy         int    `toml:"sell_energy"`
	DieNewspapers      int    `toml:"die_newspapers"`
	IncomeNewspapers   int    `toml:"income_newspapers"`
	PoundNewspapers    int    `toml:"pound_newspapers"`
	MaxNewspapers      int    `toml:"max_newspapers"`
	LoanPounds         int    `toml:"loan_pounds"`
	RepayPounds        int    `toml:"repay_pounds"`
	RepaidVP           int    `toml:"repaid_vp"`
	Compensation       int    `toml:"compensation"`
	NotePounds         int    `toml:"note_pounds"`
	EmptySpaceVP       int    `toml:"empty_space_vp"`
	ExpenseSteps       int    `toml:"expense_steps"`
	PrototypesPerRound int    `toml:"prototypes_per_round"`
	LinkVP             int    `toml:"link_vp"`
	RedSpaceVP         int    `toml:"red_space_vp"`
	MarketVP           []int  `toml:"market_vp"`
	Source             string `toml:"source"`
}

// PocketWatch is the Pocket Watch: its holder chooses a side when taking it.
type PocketWatch struct {
	TakeVP       int    `toml:"take_vp"`
	Phase6Pounds int    `toml:"phase6_pounds"`
	Source       string `toml:"source"`
}

// Tracks holds the administration board and other fixed parts.
type Tracks struct {
	Buzz         BuzzTrack           `toml:"buzz"`
	Income       []IncomeSpace       `toml:"income"`
	IncomeStart  int                 `toml:"income_start"`
	Westminster  []WestminsterSpace  `toml:"westminster"`
	WestminsterV []Effect            `toml:"westminster_v"` // choice when already on the last space
	Years        []string            `toml:"years"`         // round names, 5
	YearNames    map[string][]string `toml:"year_names"`    // Years in other languages, by code
	RoundYear    []int               `toml:"round_year"`    // index into VP arrays by round
	Economy      Economy             `toml:"economy"`
	Watch        PocketWatch         `toml:"pocket_watch"`
}

// Content is a complete set of Crystal Palace game content.
type Content struct {
	Patents    []Patent
	Characters []Character
	Research   []Research
	Shares     []Share
	Publishers []Publisher
	Mats       []Mat
	Flyers     []Flyer
	Loans      []LoanKind
	Locations  []Location
	Markets    []Market
	Tracks     Tracks

	entryLines map[string][]int // file → line of each top-level [[table]] header
	patentByID map[string]int
	// names[key][lang] are the items' names (see ItemName); "en" is the
	// content's own name
	names    map[string]map[string]string
	keys     itemKeys // the item keys, made once
	charByID map[string]int
	loanVP   []int // one entry per loan tile
}

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

// LoadContent reads and validates the content files (ContentFiles) from fsys.
// A mistake is reported as a *ContentError naming the file, the entry (its
// id, or its number in the file), the field and the line.
func LoadContent(fsys fs.FS) (*Content, error) {
	c := &Content{}
	decoders := map[string]func(file, data string) error{
		"patents.toml":    entries(&c.Patents, "patent"),
		"characters.toml": entries(&c.Characters, "character"),
		"research.toml":   entries(&c.Research, "tile"),
		"shares.toml":     entries(&c.Shares, "share"),
		"publishers.toml": entries(&c.Publishers, "publisher"),
		"mats.toml":       entries(&c.Mats, "mat"),
		"flyers.toml":     entries(&c.Flyers, "flyer"),
		"loans.toml":      entries(&c.Loans, "loan"),
		"locations.toml":  entries(&c.Locations, "location"),
		"market.toml":     entries(&c.Markets, "market"),
		"tracks.toml":     whole(&c.Tracks),
	}
	for _, name := range ContentFiles() {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, &ContentError{File: name, Problem: "cannot read: " + err.Error()}
		}
		if err := decoders[name](name, string(data)); err != nil {
			return nil, err
		}
		if c.entryLines == nil {
			c.entryLines = map[string][]int{}
		}
		c.entryLines[name] = entryHeaderLines(string(data))
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// entryHeaderLines lists the lines (from 1) of data's top-level array
// table headers, "[[patent]]" but not "[[location.side]]", in order.
func entryHeaderLines(data string) []int {
	var out []int
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if h, ok := strings.CutPrefix(line, "[["); ok {
			if name, _, ok := strings.Cut(h, "]]"); ok && !strings.Contains(name, ".") {
				out = append(out, n+1)
			}
		}
	}
	return out
}

// entries decodes a file of [[table]] entries into *out one entry at a
// time, so that a value of the wrong type is reported with its entry and
// its own line (the TOML decoder, decoding the whole file at once, names
// the last entry's line instead).
func entries[T any](out *[]T, table string) func(file, data string) error {
	return func(file, data string) error {
		var raw map[string][]toml.Primitive
		md, err := toml.Decode(data, &raw)
		if err != nil {
			return &ContentError{File: file, Problem: err.Error()}
		}
		for key := range raw {
			if key != table {
				return &ContentError{File: file, Field: key, Problem: "unknown table (want [[" + table + "]])"}
			}
		}
		*out = make([]T, len(raw[table]))
		for i, prim := range raw[table] {
			if err := md.PrimitiveDecode(prim, &(*out)[i]); err != nil {
				var fields map[string]any
				_ = md.PrimitiveDecode(prim, &fields)
				return entryError(file, data, table, i, fields, err)
			}
		}
		return unknownFields(file, md)
	}
}

// unknownFields reports the first key (in sorted order) that the decoding
// left unused: a field the content does not know, often a typo.
func unknownFields(file string, md toml.MetaData) error {
	und := md.Undecoded()
	if len(und) == 0 {
		return nil
	}
	keys := make([]string, len(und))
	for i, k := range und {
		keys[i] = k.String()
	}
	sort.Strings(keys)
	return &ContentError{File: file, Field: keys[0], Problem: "unknown field"}
}

// whole decodes a file of plain tables into *out.
func whole[T any](out *T) func(file, data string) error {
	return func(file, data string) error {
		md, err := toml.Decode(data, out)
		if err != nil {
			return wholeError(file, data, err)
		}
		return unknownFields(file, md)
	}
}

// wholeError reports a decoding error of a file of plain tables with the
// line of the value at fault: the decoder names the last line of a key
// that lists of tables ([[buzz.poster]]) repeat.
func wholeError(file, data string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		if _, rest, ok := strings.Cut(err.Error(), "(last key \""); ok {
			if key, problem, ok := strings.Cut(rest, "\")"); ok {
				problem = strings.TrimPrefix(strings.TrimSpace(problem), ": ")
				entry := ""
				if line := fieldLine(strings.Split(data, "\n"), key, problem); line > 0 {
					entry = "line " + strconv.Itoa(line)
				}
				return &ContentError{File: file, Entry: entry, Field: key, Problem: problem}
			}
		}
	}
	return &ContentError{File: file, Problem: err.Error()}
}

// entryError reports a decoding error of entry i (from 0) of table: its id,
// the field the decoder was at, and that field's line in the entry.
func entryError(file, data, table string, i int, fields map[string]any, err error) error {
	field, problem := "", err.Error()
	var pe toml.ParseError
	if errors.As(err, &pe) {
		field, problem = pe.LastKey, pe.Message
	} else if k := strings.Index(problem, "(last key \""); k >= 0 {
		rest := problem[k+len("(last key \""):]
		if end := strings.Index(rest, "\")"); end >= 0 {
			field = rest[:end]
			problem = strings.TrimSpace(rest[end+2:])
			problem = strings.TrimPrefix(problem, ": ")
		}
	}
	field = strings.TrimPrefix(field, table+".")
	id, _ := fields["id"].(string)
	if id == "" {
		if key, ok := fields["key"].(string); ok {
			id = key
		}
	}
	entry := entryName(table, id, i)
	if line := entryLine(data, table, i, field, problem); line > 0 {
		entry += " (line " + strconv.Itoa(line) + ")"
	}
	return &ContentError{File: file, Entry: entry, Field: field, Problem: problem}
}

// entryLine finds the line of field inside entry i of [[table]] in data,
// or the entry's header line; 0 when not found. A field inside a nested
// list of tables ("side.display") may appear on several lines of the
// entry: the first whose value has the TOML type the error names wins.
func entryLine(data, table string, i int, field, problem string) int {
	lines := strings.Split(data, "\n")
	header, n := -1, -1
	for k, l := range lines {
		if strings.TrimSpace(l) == "[["+table+"]]" {
			n++
			if n == i {
				header = k
				break
			}
		}
	}
	if header < 0 {
		return 0
	}
	end := header + 1
	for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "[["+table+"]]") {
		end++
	}
	if line := fieldLine(lines[header+1:end], field, problem); line > 0 {
		return header + 1 + line
	}
	return header + 1
}

// fieldLine is the line (from 1) among lines that sets field (by its first
// part, or its last one for a field of a nested table) to a value of the
// TOML type problem names; 0 when there is none.
func fieldLine(lines []string, field, problem string) int {
	want := ""
	if _, rest, ok := strings.Cut(problem, "TOML value has type "); ok {
		want, _, _ = strings.Cut(rest, ";")
	}
	parts := strings.Split(field, ".")
	first, last := parts[0], parts[len(parts)-1]
	fallback := 0
	for k, l := range lines {
		name, value, ok := strings.Cut(l, "=")
		name = strings.TrimSpace(name)
		if !ok || (name != first && name != last) {
			continue
		}
		if fallback == 0 {
			fallback = k + 1
		}
		if want != "" && tomlType(value) == want {
			return k + 1
		}
	}
	return fallback
}

// tomlType names the TOML type of value as the decoder's errors do.
func tomlType(value string) string {
	var v map[string]any
	if _, err := toml.Decode("v = "+strings.TrimSpace(value), &v); err != nil {
		return ""
	}
	switch v["v"].(type) {
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		return "float"
	case bool:
		return "bool"
	case []any, []map[string]any:
		return "array"
	case map[string]any:
		return "table"
	}
	return ""
}

// entryName formats a content entry for error messages: kind "id".
func entryName(kind, id string, i int) string {
	if id == "" || len(id) > maxID {
		return fmt.Sprintf("%s #%d", kind, i+1)
	}
	return fmt.Sprintf("%s %q", kind, id)
}
