package crystalpalace

import "github.com/meeplegames/meeple/engine"

// View is what one seat may see of a game: the public board and, for a
// seated player, their private part. It is plain data, safe to serialise
// as JSON, and the board images are drawn from exactly these values.
//
// What a reader sees is there as data for the wording layer: a field
// <Name>Say is field <Name>'s words as an engine.Text, and a field
// <Name>Key is the content item key that names <Name> in every language
// (wording.Words.Item). The English strings beside them are what the
// images still draw until they write the data.
// View(engine.Spectator) and other seats never see dice values before the
// phase 1 reveal.
type View struct {
	Game      string      `json:"game"`
	Viewer    engine.Seat `json:"viewer"`
	Players   int         `json:"players"`
	Round     int         `json:"round"`      // 1..5
	RoundName string      `json:"round_name"` // "Spring 1849"
	RoundKey  string      `json:"round_key"`  // RoundName's item key
	Year      int         `json:"year"`       // 1849, 1850 or 1851
	Phase     int         `json:"phase"`      // 1..7
	Label     string      `json:"label"`      // State.Phase() in English
	LabelSay  engine.Text `json:"label_say"`  // State.Phase()
	Over      bool        `json:"over"`
	// First is this round's first player (Spectator before the phase 1 reveal
	// of round 1); Order is the turn order starting with First.
	First engine.Seat   `json:"first"`
	Order []engine.Seat `json:"order"`
	// Turn is the seat whose turn it is in phases 2, 3 and 5, or Spectator.
	Turn engine.Seat `json:"turn"`
	// Resolving is the location key being resolved in phase 3, or "".
	Resolving string `json:"resolving,omitempty"`
	// Waiting lists the seats the game waits for, with what for.
	Waiting []WaitingView `json:"waiting"`

	Publisher   PublisherView   `json:"publisher"`
	Locations   []LocationView  `json:"locations"` // locations 1..8 in order
	BlackMarket MarketView      `json:"black_market"`
	Buzz        BuzzView        `json:"buzz"`
	Income      IncomeView      `json:"income"`
	Westminster WestminsterView `json:"westminster"`
	Scores      []int           `json:"scores"` // victory points by seat (the scoring track)
	PocketWatch WatchView       `json:"pocket_watch"`
	Decks       DecksView       `json:"decks"`
	Seats       []PlayerView    `json:"seats"`
	// Private is the viewer's own part; nil for spectators.
	Private *PrivateView `json:"private,omitempty"`
	// Result is set once the game is over.
	Result *ResultView `json:"result,omitempty"`
}

// WaitingView is one open decision, without its secret content.
type WaitingView struct {
	Seat engine.Seat `json:"seat"`
	Kind string      `json:"kind"`
	// Text is what the decision is about, the prompt's text: package
	// wording writes it in the reader's language.
	Text engine.Text `json:"text"`
}

// PublisherView is the publisher tile on the London Times.
type PublisherView struct {
	ID     string               `json:"id"`
	Side   string               `json:"side"`
	Rounds []PublisherRoundView `json:"rounds"` // one per round
}

// PublisherRoundView is one round's condition on the publisher tile.
type PublisherRoundView struct {
	Text    string           `json:"text"` // "characters + prototypes"
	TextSay engine.Text      `json:"text_say"`
	Levels  []PublisherLevel `json:"levels"`
	Current bool             `json:"current"`
}

// LocationView is one location board.
type LocationView struct {
	Key     string          `json:"key"` // as in actions: "westminster"
	Number  int             `json:"number"`
	Name    string          `json:"name"`
	NameKey string          `json:"name_key"`
	Dice    []DiceSpaceView `json:"dice"`
	// Actions are the brown action spaces, left to right.
	Actions []ActionSpaceView `json:"actions"`
	// Display holds the cards or tiles on offer (Patent Office, British
	// Museum, Bank of England, Reform Club), slot by slot; an empty slot has
	// Kind "".
	Display []CardView `json:"display,omitempty"`
	// StackTop is the top card of the face-up stack beside the Patent Office
	// or the Reform Club: public, but not on offer until phase 7 refills
	// the display. Nil elsewhere and once the stack is empty.
	StackTop *CardView `json:"stack_top,omitempty"`
	// Possibilities of the Port of London and Waterloo Station.
	Possibilities []PossibilityView `json:"possibilities,omitempty"`
	// Port of London: VP by year for a ticket, the dice spaces below the
	// ticket space and the tickets still on the ticket space.
	TicketVP    []int         `json:"ticket_vp,omitempty"`
	TicketDice  []DieView     `json:"ticket_dice,omitempty"`
	TicketsLeft int           `json:"tickets_left,omitempty"`
	Resolving   bool          `json:"resolving,omitempty"`
	NextDie     *DieView      `json:"next_die,omitempty"` // phase 3: the die whose owner acts next here
	Compensated []engine.Seat `json:"compensated,omitempty"`
}

// DieView is a die on the board. Owner is Spectator for an empty space.
type DieView struct {
	Owner engine.Seat `json:"owner"`
	Value int         `json:"value"`
}

// DiceSpaceView is a dice placement space and the die on it, if any.
type DiceSpaceView struct {
	Min       int         `json:"min"`
	Fee       int         `json:"fee,omitempty"`
	Assistant bool        `json:"assistant,omitempty"`
	Owner     engine.Seat `json:"owner"` // Spectator when free
	Value     int         `json:"value,omitempty"`
	// Moved is true once the die has moved on to an action space or was
	// resolved in phase 3.
	Moved bool `json:"moved,omitempty"`
}

// ActionSpaceView is an action space: its bonus or cost and who used it.
type ActionSpaceView struct {
	Pounds     int         `json:"pounds,omitempty"`
	Newspapers int         `json:"newspapers,omitempty"`
	Buzz       int         `json:"buzz,omitempty"`
	Owner      engine.Seat `json:"owner"` // Spectator when unused
	Value      int         `json:"value,omitempty"`
	Text       string      `json:"text"` // "+1 £", "-2 £", "+1 newspaper"
	TextSay    engine.Text `json:"text_say"`
}

// PossibilityView is a Port or Waterloo action possibility.
type PossibilityView struct {
	Key       string      `json:"key"` // as in "use gears"
	Text      string      `json:"text"`
	TextKey   string      `json:"text_key"`  // Text's item key: the content gives it in each language
	Available bool        `json:"available"` // offered at this player count
	Used      bool        `json:"used"`
	By        engine.Seat `json:"by"` // Spectator when unused
}

// CardView is a card or tile: a patent, prototype, character, research
// tile or share.
type CardView struct {
	Kind     string `json:"kind"` // patent, prototype, character, research, share; "" for an empty slot
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	NameKey  string `json:"name_key,omitempty"`
	Cost     Cost   `json:"cost,omitempty"`
	VP       int    `json:"vp,omitempty"` // in the current year
	VPByYear []int  `json:"vp_by_year,omitempty"`
	Link     string `json:"link,omitempty"` // name of the linked card
	LinkKey  string `json:"link_key,omitempty"`
	Effect   string `json:"effect,omitempty"` // short effect text
	Instant  string `json:"instant,omitempty"`
	Ability  string `json:"ability,omitempty"` // "phase 4: …"
	Salary   []int  `json:"salary,omitempty"`  // by salary colour
	Income   int    `json:"income,omitempty"`  // shares
	Color    string `json:"color,omitempty"`   // research back, flyer colour
	Box      string `json:"box,omitempty"`
	// EffectSay, InstantSay and AbilitySay are Effect, Instant and
	// Ability as data.
	EffectSay  engine.Text `json:"effect_say,omitempty"`
	InstantSay engine.Text `json:"instant_say,omitempty"`
	AbilitySay engine.Text `json:"ability_say,omitempty"`
}

// MarketView is the Black Market.
type MarketView struct {
	Spaces     []MarketSpaceView `json:"spaces"` // tier 1 (bottom) first
	BannerTier int               `json:"banner_tier"`
	Gears      int               `json:"gears"`       // gears left on the yellow banner
	GearSpaces int               `json:"gear_spaces"` // gear spaces on the banner
}

// MarketSpaceView is one Black Market space.
type MarketSpaceView struct {
	Tier      int         `json:"tier"`
	Cost      int         `json:"cost"`
	Effect    string      `json:"effect"`
	EffectSay engine.Text `json:"effect_say"`
	Owner     engine.Seat `json:"owner"` // Spectator when free
}

// BuzzView is the Buzz track.
type BuzzView struct {
	Length     int           `json:"length"`
	Flyers     []FlyerView   `json:"flyers"`
	Posters    []PosterView  `json:"posters"`
	Positions  []int         `json:"positions"`   // by seat
	Tickets    []engine.Seat `json:"tickets"`     // entry tickets I, II, III in order of arrival
	TokensLeft []int         `json:"tokens_left"` // unplaced Buzz tokens by seat
	RankVP     []int         `json:"rank_vp"`
}

// FlyerView is a flyer on its Buzz track space.
type FlyerView struct {
	Space     int         `json:"space"`
	ID        string      `json:"id"`
	Color     string      `json:"color"`
	Effect    string      `json:"effect"`
	EffectSay engine.Text `json:"effect_say"`
}

// PosterView is a poster space and the Buzz tokens on it.
type PosterView struct {
	Space     int           `json:"space"`
	Effect    string        `json:"effect"`
	EffectSay engine.Text   `json:"effect_say"`
	Tokens    []engine.Seat `json:"tokens"`
}

// IncomeView is the income track.
type IncomeView struct {
	Spaces    []IncomeSpace `json:"spaces"`    // bottom first
	Positions []int         `json:"positions"` // space index by seat
}

// WestminsterView is the Westminster track.
type WestminsterView struct {
	Spaces    []WestminsterSpaceView `json:"spaces"`    // the starting star first, then I..V
	Positions []int                  `json:"positions"` // space index by seat
	Choice    string                 `json:"choice"`    // the bonus choice when already on V
	ChoiceSay engine.Text            `json:"choice_say"`
}

// WestminsterSpaceView is one Westminster space.
type WestminsterSpaceView struct {
	Name     string      `json:"name"`
	NameKey  string      `json:"name_key"`
	Bonus    string      `json:"bonus"`
	BonusSay engine.Text `json:"bonus_say"`
	Salary   int         `json:"salary"` // salary colour index
}

// WatchView is the Pocket Watch.
type WatchView struct {
	Holder  engine.Seat `json:"holder"` // Spectator when in the supply
	Side    string      `json:"side,omitempty"`
	Text    string      `json:"text"`
	TextSay engine.Text `json:"text_say"`
}

// DecksView counts the face-down or stacked supplies.
type DecksView struct {
	Patents       int   `json:"patents"`
	Characters    int   `json:"characters"`
	Research      int   `json:"research"`
	VioletBlue    int   `json:"violet_blue"`
	VioletOrange  int   `json:"violet_orange"`
	SharesByRound []int `json:"shares_by_round"`
	Loans         int   `json:"loans"`
}

// PlayerView is the public summary of one seat.
type PlayerView struct {
	Seat       engine.Seat `json:"seat"`
	Nation     string      `json:"nation"`
	NationKey  string      `json:"nation_key"`
	Landmark   string      `json:"landmark"`
	Mat        string      `json:"mat"` // mat id and side, "3b"
	Pounds     int         `json:"pounds"`
	Gears      int         `json:"gears"`
	Energy     int         `json:"energy"`
	Newspapers int         `json:"newspapers"`
	VP         int         `json:"vp"`
	// Dice is how many dice the seat plays this round; NewDice arrive next
	// round; TicketDice stay on the Port; DiceLeft are not yet placed.
	Dice       int `json:"dice"`
	NewDice    int `json:"new_dice"`
	TicketDice int `json:"ticket_dice"`
	DiceLeft   int `json:"dice_left"`
	// DiceValues are public only after the reveal; nil before it.
	DiceValues []int `json:"dice_values,omitempty"`
	// Unplaced are the DiceValues not placed on the board (yet), from the
	// reveal on; Placed the others, which stand on dice spaces.
	Unplaced    []int      `json:"unplaced,omitempty"`
	Placed      []int      `json:"placed,omitempty"`
	Submitted   bool       `json:"submitted"`
	Passed      bool       `json:"passed"`
	Loans       int        `json:"loans"`
	Repaid      int        `json:"repaid"`
	Income      int        `json:"income"` // current income value
	Buzz        int        `json:"buzz"`
	Westminster int        `json:"westminster"`
	Objective   int        `json:"objective"`  // objective level reached
	Assistants  int        `json:"assistants"` // in the supply
	Market      int        `json:"market"`     // assistants on the Black Market
	Built       int        `json:"built"`      // prototypes built this round
	Watch       bool       `json:"watch"`
	Patents     []CardView `json:"patents"`
	Prototypes  []CardView `json:"prototypes"`
	Characters  []CardView `json:"characters"`
	Shares      []CardView `json:"shares"`
	Research    []SlotView `json:"research"`
}

// SlotView is one research space of a player mat.
type SlotView struct {
	Kind   string    `json:"kind"` // empty, research, loan, note
	Tile   *CardView `json:"tile,omitempty"`
	LoanVP int       `json:"loan_vp,omitempty"` // printed loss, negative
	Repaid bool      `json:"repaid,omitempty"`
}

// PrivateView is what only the seat itself sees (besides the public part).
type PrivateView struct {
	Seat       engine.Seat     `json:"seat"`
	Nation     string          `json:"nation"`
	NationKey  string          `json:"nation_key"`
	Objective  []ObjectiveView `json:"objective"`
	Level      int             `json:"level"`
	Research   []SlotView      `json:"research"`
	ExtraLoans []int           `json:"extra_loans,omitempty"` // beside the mat when every space holds a loan
	Patents    []CardView      `json:"patents"`
	Characters []CardView      `json:"characters"`
	Prototypes []CardView      `json:"prototypes"`
	// Dice are this round's own values: chosen in phase 1, shown from the
	// reveal until phase 7. Unplaced are those not on the board, Placed
	// those on it.
	Dice        []int    `json:"dice"`
	Unplaced    []int    `json:"unplaced,omitempty"`
	Placed      []int    `json:"placed,omitempty"`
	Submitted   bool     `json:"submitted"`
	SalaryDue   int      `json:"salary_due"` // at the current Westminster position
	FreeActions []string `json:"free_actions"`
}

// ObjectiveView is one level of the seat's objective.
type ObjectiveView struct {
	Text    string      `json:"text"`
	TextSay engine.Text `json:"text_say"`
	VP      int         `json:"vp"`
	Reached bool        `json:"reached"`
	Met     bool        `json:"met"` // the condition holds now
}

// ResultView is the final outcome.
type ResultView struct {
	Scores    []int            `json:"scores"`
	Winners   []engine.Seat    `json:"winners"`
	Breakdown []map[string]int `json:"breakdown"`
}
