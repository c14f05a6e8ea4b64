package crystalpalace

import (
	"encoding/json"
	"strconv"

	"github.com/meeplegames/meeple/engine"
)

// State is one game of Crystal Palace. It serialises to JSON with every
// secret, the shuffled decks and the RNG, so seed plus actions replay it
// exactly. It implements engine.State; it is not safe for concurrent use.
type State struct {
	PlayerCount  int        `json:"n"`
	RNG          engine.RNG `json:"rng"`
	Round        int        `json:"round"` // 1..5
	CurrentPhase phase      `json:"phase"`
	Done         bool       `json:"over,omitempty"`
	Revealed     bool       `json:"revealed,omitempty"` // phase 1 dice are revealed
	First        int        `json:"first"`              // -1 before the first reveal
	Order        []int      `json:"order"`              // turn order from First
	Turn         int        `json:"turn"`               // index into Order (phases 2 and 5); step of phase 6
	Moved        bool       `json:"moved,omitempty"`    // phase 2: the current seat has placed
	Queued       bool       `json:"queued,omitempty"`   // phase 4: salaries and abilities are queued
	Location     int        `json:"loc"`                // phaseActions: the location being resolved
	Seats        []Player   `json:"p"`                  // by seat; PlayerCount of them
	Boards       []Board    `json:"boards"`

	PatentDeck   []int    `json:"pdeck"`
	PatentDisp   []int    `json:"pdisp"`
	CharDeck     []int    `json:"cdeck"`
	CharDisp     []int    `json:"cdisp"`
	GreenDeck    []int    `json:"gdeck"`
	MuseumDisp   []int    `json:"mdisp"`
	VioletBlue   []int    `json:"vblue"`
	VioletOrange []int    `json:"vorange"`
	ShareDecks   [][]int  `json:"sdecks"`
	BankDisp     []int    `json:"bdisp"`
	Loans        []int    `json:"loans"` // loan pile, VP values, top last
	Publisher    int      `json:"publisher"`
	Market       []int    `json:"market"` // owner per tier from the bottom, -1 free
	MarketGears  int      `json:"mgears"`
	FlyerAt      []Flyers `json:"flyers"`
	Tickets      []int    `json:"tickets,omitempty"`   // seats in order of reaching the end of the Buzz track
	Watch        int      `json:"watch"`               // holder or -1
	WatchPounds  bool     `json:"wpounds,omitempty"`   // the side giving pounds in phase 6
	TicketDice   []Die    `json:"tdice,omitempty"`     // dice under tickets at the Port
	Discarded    []int    `json:"discarded,omitempty"` // research tiles replaced on a mat (for statistics)

	r    *Rules
	c    *Content
	ev   []engine.Event
	seen []tally // the tallies last reported to the log (see report); nil in copies
	// cause names what the changes being made come from ("salaries"), for
	// a debt that waits for its payer (Task.Why); "" within an action.
	cause string
	// fold is 1 + the index in ev of the line saying what foldSeat just
	// did, while it is the last event: the changes that action makes are
	// told in that line ("P2 places a 1 on space 4 at Westminster — -2 £
	// (fee)") rather than in one of their own. 0: none.
	fold, foldSeat int
	// own is the cause of the changes the action at hand makes itself
	// ("fee", "action space"), which join its line too.
	own string
	// args is where the arguments of the log's texts are made, many texts
	// to one allocation (see room); nil in copies.
	args []engine.Arg
	// out is where Apply's events are written, many actions' to one
	// allocation, like args: ev is its free end while an action is
	// applied; nil in copies.
	out []engine.Event
}

// Flyers is a flyer lying on a Buzz track space.
type Flyers struct {
	Space int `json:"s"`
	Flyer int `json:"f"`
}

// Die is a die on a space. Owner is its seat, -1 when the space is free.
type Die struct {
	Owner int  `json:"o"`
	Value int  `json:"v,omitempty"`
	Done  bool `json:"x,omitempty"` // resolved in phase 3
}

// Board is the changing part of a location board.
type Board struct {
	Dice []Die `json:"d"`           // one per dice placement space
	Acts []Die `json:"a"`           // one per action space
	Poss []int `json:"p,omitempty"` // Port and Waterloo: user per possibility, -1 unused
}

// Slot is a research space of a player mat.
type Slot struct {
	Kind   int  `json:"k,omitempty"` // slotEmpty, slotResearch, slotLoan, slotNote
	ID     int  `json:"id,omitempty"`
	Repaid bool `json:"r,omitempty"`
}

const (
	slotEmpty = iota
	slotResearch
	slotLoan
	slotNote
)

// Player is one seat's belongings.
type Player struct {
	Mat        int    `json:"mat"`
	Pounds     int    `json:"pounds"`
	Gears      int    `json:"gears"`
	Energy     int    `json:"energy"`
	News       int    `json:"news"`
	VP         int    `json:"vp"`
	VPBy       []int  `json:"vpby"`
	Dice       int    `json:"dice"`           // dice played this round
	New        int    `json:"new,omitempty"`  // dice arriving next round
	Tick       int    `json:"tick,omitempty"` // dice under Port tickets
	Vals       []int  `json:"vals,omitempty"` // submitted (phase 1) or unplaced (phase 2) values
	Shown      []int  `json:"shown,omitempty"`
	Sub        bool   `json:"sub,omitempty"`
	Passed     bool   `json:"passed,omitempty"`
	Income     int    `json:"income"` // space index on the income track
	Buzz       int    `json:"buzz"`
	Tokens     []int  `json:"tokens,omitempty"` // poster spaces holding this seat's Buzz tokens
	West       int    `json:"west"`
	Obj        int    `json:"obj"`
	Slots      []Slot `json:"slots"`
	Extra      []Slot `json:"extra,omitempty"` // loans beside the mat
	Patents    []int  `json:"patents,omitempty"`
	Protos     []int  `json:"protos,omitempty"`
	Chars      []int  `json:"chars,omitempty"`
	Shares     []int  `json:"shares,omitempty"`
	Asst       int    `json:"asst"` // assistants in the supply
	Built      int    `json:"built,omitempty"`
	Ability5   bool   `json:"ab5,omitempty"`
	PosterStep bool   `json:"pstep,omitempty"`
	// NoDown: the player answered "skip always" and is no longer asked to
	// move an assistant down after a placement, until "ask down".
	NoDown bool `json:"nodown,omitempty"`
	// AutoPass: the player answered "pass always" and passes without being
	// asked whenever passing is all the phase 2 or 5 prompt would offer,
	// until "ask pass".
	AutoPass bool `json:"autopass,omitempty"`
	// Picks are the poster bonuses the player chose "always": they are
	// taken every time without asking, until "ask bonus"; and those chosen
	// once, with the token, for the posters step still to come.
	Picks []Pick `json:"picks,omitempty"`
	// AutoAt holds a bit (1 << location) for each location where the
	// player answered "… always" to a phase 3 prompt with one possible
	// action: a die of theirs there whose only possible action is one takes
	// it without asking, until "ask act".
	AutoAt uint16 `json:"autoat,omitempty"`
	Queue  []Task `json:"q,omitempty"`
}

// Pick is a bonus chosen for good on the poster at index Poster of the
// Buzz track (see Player.Picks).
type Pick struct {
	Poster int    `json:"p"`
	Key    string `json:"k"`
	// Once: chosen with a token placed in phase 6 before the posters
	// paid; the posters step takes it and forgets it.
	Once bool `json:"once,omitempty"`
}

// Task is a pending piece of work for one seat: an effect to apply or a
// decision to ask. The short JSON keys are the stored form.
type Task struct {
	Kind taskKind `json:"k"`
	// Gain, Amount, Per, Div and Free are an effect's: gain Amount (per
	// Div of metric Per, when Per is set). Amount is also the pounds of
	// dPay, the bonus of dInstant and the die's value of tAct; Free makes
	// dAssistant's first placement free.
	Gain   gain   `json:"g,omitempty"`
	Amount int    `json:"n,omitempty"`
	Per    metric `json:"m,omitempty"`
	Div    int    `json:"d,omitempty"`
	Free   bool   `json:"f,omitempty"`
	// Subject is what the task is about, as its kind says: a tile, loan,
	// poster, prototype or character, or tAct's argument; for an effect,
	// its cause (causeFlyer, …).
	Subject int    `json:"x,omitempty"`
	Src     int    `json:"s,omitempty"`   // VP source for breakdowns
	Why     string `json:"why,omitempty"` // dPay: what the debt is for, as the log says it ("salaries")
}

// taskKind is what a Task does. The numbers are stored: a new kind takes a
// new number.
type taskKind uint8

const (
	tEffect     taskKind = 1
	tIncome     taskKind = 2  // phase 6 step 1
	tExpense    taskKind = 3  // phase 6 step 2
	tPosters    taskKind = 4  // phase 6 step 4
	dAssistant  taskKind = 5  // decision: assistant action
	dDown       taskKind = 6  // decision: optional move down with gear
	dForcedDown taskKind = 7  // decision: card event move down, no gear
	dGreen      taskKind = 8  // decision: use one green bonus
	dReplace    taskKind = 9  // decision: research tile Subject replaces a tile
	dLoanSlot   taskKind = 10 // decision: loan of Subject VP replaces a tile
	dPoster     taskKind = 11 // decision: place a Buzz token on poster space Subject
	dBonus      taskKind = 12 // decision: poster Subject's choice (-1: Westminster V)
	dTarget     taskKind = 13 // decision: the player prototype Subject's effect is played on
	dWatch      taskKind = 14 // decision: the Pocket Watch side
	dPay        taskKind = 15 // decision: pay Amount pounds the seat does not have (raise money first, or loans)
	dInstant    taskKind = 16 // decision: take instant bonus Amount of character Subject, or not
	tAct        taskKind = 17 // phase 3: the location's action with argument Subject and die value Amount, after the space's bonus or cost
)

// decision reports whether tasks of kind k wait for the seat's answer.
func (k taskKind) decision() bool {
	switch k {
	case dAssistant, dDown, dForcedDown, dGreen, dReplace, dLoanSlot, dPoster, dBonus, dTarget, dWatch, dPay, dInstant:
		return true
	}
	return false
}

// VP sources for Result.Breakdown, indexes into Player.VPBy.
const (
	vpStart = iota
	vpPrototypes
	vpCharacters
	vpShares
	vpTickets
	vpPosters
	vpEffects
	vpIncomePenalty
	vpObjective
	vpBuzzRank
	vpBlackMarket
	vpLoans
	vpResearchSpaces
	vpWatch
	vpCount
)

func sourceName(i int) string {
	return [vpCount]string{"start", "prototypes", "characters", "shares", "port-tickets", "buzz-posters",
		"card-effects", "income-penalty", "objective", "buzz-rank", "black-market", "loans",
		"research-spaces", "pocket-watch"}[i]
}

// Players implements engine.State.
func (s *State) Players() int { return s.PlayerCount }

// Over implements engine.State.
func (s *State) Over() bool { return s.Done }

// Encode implements engine.State.
func (s *State) Encode() ([]byte, error) { return json.Marshal(s) }

// Clone implements engine.State.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	t := *s
	t.ev, t.seen, t.args, t.out = nil, nil, nil, nil
	// The copies are cut from a few blocks, one per element type, sized
	// to hold them all: a clone costs a handful of allocations.
	nInts, nDice, nSlots, nTasks, nPicks := len(s.Order)+len(s.PatentDeck)+len(s.PatentDisp)+len(s.CharDeck)+len(s.CharDisp)+
		len(s.GreenDeck)+len(s.MuseumDisp)+len(s.VioletBlue)+len(s.VioletOrange)+len(s.BankDisp)+len(s.Loans)+len(s.Market)+
		len(s.Tickets)+len(s.Discarded), len(s.TicketDice), 0, 0, 0
	for _, d := range s.ShareDecks {
		nInts += len(d)
	}
	for _, b := range s.Boards {
		nInts += len(b.Poss)
		nDice += len(b.Dice) + len(b.Acts)
	}
	for i := range s.Seats {
		p := &s.Seats[i]
		nInts += len(p.VPBy) + len(p.Vals) + len(p.Shown) + len(p.Tokens) + len(p.Patents) + len(p.Protos) + len(p.Chars) + len(p.Shares)
		nSlots += len(p.Slots) + len(p.Extra)
		nTasks += len(p.Queue)
		nPicks += len(p.Picks)
	}
	ints, dice := make([]int, 0, nInts), make([]Die, 0, nDice)
	slots, tasks, picks := make([]Slot, 0, nSlots), make([]Task, 0, nTasks), make([]Pick, 0, nPicks)

	t.Order = carve(&ints, s.Order)
	t.Seats = make([]Player, len(s.Seats))
	for i := range s.Seats {
		p, q := &s.Seats[i], &t.Seats[i]
		*q = *p
		q.VPBy = carve(&ints, p.VPBy)
		q.Vals, q.Shown, q.Tokens = carve(&ints, p.Vals), carve(&ints, p.Shown), carve(&ints, p.Tokens)
		q.Slots, q.Extra = carve(&slots, p.Slots), carve(&slots, p.Extra)
		q.Patents, q.Protos, q.Chars, q.Shares = carve(&ints, p.Patents), carve(&ints, p.Protos), carve(&ints, p.Chars), carve(&ints, p.Shares)
		q.Queue = carve(&tasks, p.Queue)
		q.Picks = carve(&picks, p.Picks)
	}
	t.Boards = make([]Board, len(s.Boards))
	for i, b := range s.Boards {
		t.Boards[i] = Board{Dice: carve(&dice, b.Dice), Acts: carve(&dice, b.Acts), Poss: carve(&ints, b.Poss)}
	}
	t.PatentDeck, t.PatentDisp = carve(&ints, s.PatentDeck), carve(&ints, s.PatentDisp)
	t.CharDeck, t.CharDisp = carve(&ints, s.CharDeck), carve(&ints, s.CharDisp)
	t.GreenDeck, t.MuseumDisp = carve(&ints, s.GreenDeck), carve(&ints, s.MuseumDisp)
	t.VioletBlue, t.VioletOrange = carve(&ints, s.VioletBlue), carve(&ints, s.VioletOrange)
	t.ShareDecks = make([][]int, len(s.ShareDecks))
	for i, d := range s.ShareDecks {
		t.ShareDecks[i] = carve(&ints, d)
	}
	t.BankDisp, t.Loans, t.Market = carve(&ints, s.BankDisp), carve(&ints, s.Loans), carve(&ints, s.Market)
	t.FlyerAt = append([]Flyers(nil), s.FlyerAt...)
	t.Tickets = carve(&ints, s.Tickets)
	t.TicketDice = carve(&dice, s.TicketDice)
	t.Discarded = carve(&ints, s.Discarded)
	return &t
}

// carve copies a into the block *b, which has room for it, with no room
// to grow: appending to the copy moves it out of the block, so the copies
// cut from one block stay apart. Like cloneInts, an empty a copies to nil.
func carve[T any](b *[]T, a []T) []T {
	if len(a) == 0 {
		return nil
	}
	start := len(*b)
	*b = append(*b, a...)
	return (*b)[start:len(*b):len(*b)]
}

func cloneInts(a []int) []int {
	if a == nil {
		return nil
	}
	return append([]int(nil), a...)
}

// year is the index into VP-by-year arrays for the current round.
func (s *State) year() int { return s.c.Tracks.RoundYear[s.Round-1] }

func (s *State) side(l locKind) *BoardSide { return s.r.sides[s.PlayerCount][l] }

func (s *State) market() *Market { return s.r.markets[s.PlayerCount] }

// seatName is "P1" for seat 0.
func seatName(seat int) string {
	if seat >= 0 && seat < 9 {
		return "P1P2P3P4P5P6P7P8P9"[2*seat : 2*seat+2]
	}
	return "P" + strconv.Itoa(seat+1)
}

// num is the Vals of an action with the one number k; actions built by the
// engine share these slices, so nothing may write to an Action's Vals.
func (s *State) num(k int) []int {
	if k >= 0 && k < len(s.r.nums) {
		return s.r.nums[k]
	}
	return []int{k}
}

// room returns an empty slice with room for n arguments of a text, cut
// from a block shared with the texts made before it: the log's texts cost
// one allocation for many. Room once handed out is never written again
// (its capacity ends where the next room begins), so the texts stay
// values that may be shared.
func (s *State) room(n int) []engine.Arg {
	if cap(s.args)-len(s.args) < n {
		s.args = make([]engine.Arg, 0, max(n, nextBlock(cap(s.args), argBlock)))
	}
	start := len(s.args)
	s.args = s.args[:start+n]
	return s.args[start : start : start+n]
}

// argBlock is the most arguments room allocates at a time: a few
// actions' worth of log lines.
const argBlock = 64

// nextBlock is the size of the block after one of size last, up to most:
// a state decoded for one action (as the bot does) starts with small
// blocks, a state that plays on reaches full ones after a few actions.
func nextBlock(last, most int) int {
	return min(max(2*last, most/8), most)
}

// grow returns args, made by room as the last arguments handed out, with
// room for n more: in place when the block has it, else copied.
func (s *State) grow(args []engine.Arg, n int) []engine.Arg {
	if k := len(args); k > 0 && len(s.args) > 0 && &args[k-1] == &s.args[len(s.args)-1] && cap(s.args)-len(s.args) >= n {
		start := len(s.args) - k
		s.args = s.args[:len(s.args)+n]
		return s.args[start : start+k : start+k+n]
	}
	return append(s.room(len(args)+n), args...)
}

// events ends the action's events, written in out's block from its
// length on, and returns them; that part of the block is never written
// again (as room does for arguments).
func (s *State) events() []engine.Event {
	ev := s.ev
	s.ev = nil
	if len(ev) == 0 {
		return nil
	}
	s.out = s.out[:len(s.out)+len(ev)]
	return ev[:len(ev):len(ev)]
}

// moreEvents moves the action's events to a new block with room for
// more. Copies made to look ahead (no ledger) let append grow theirs.
func (s *State) moreEvents() {
	if s.seen == nil {
		return
	}
	s.out = make([]engine.Event, 0, len(s.ev)+nextBlock(cap(s.out), eventBlock))
	s.ev = append(s.out, s.ev...)
}

// eventBlock is the most events a block of out holds besides the
// action's own (see nextBlock).
const eventBlock = 64

// say is engine.Say with the arguments in room's blocks.
func (s *State) say(id string, args ...engine.Arg) engine.Text {
	return engine.Text{ID: id, Args: append(s.room(len(args)), args...)}
}

func (s *State) emit(kind string, seat int, text engine.Text, reveals bool) {
	if len(s.ev) == cap(s.ev) {
		s.moreEvents()
	}
	s.ev = append(s.ev, engine.Event{Kind: kind, Seat: engine.Seat(seat), Text: text, Reveals: reveals})
	s.fold = 0
}

// emitDoing emits the line saying what seat does, which the changes the
// action makes then join (see State.fold).
func (s *State) emitDoing(seat int, text engine.Text) {
	s.emit(engine.EventAction, seat, text, false)
	s.fold, s.foldSeat = len(s.ev), seat
}

// Phase implements engine.State: "Spring 1849: phase 2, place dice".
func (s *State) Phase() engine.Text { return s.phaseText() }

// CurrentRound is the round being played, from 1 (1849) to 5; it stays
// at 5 once the game is over.
func (s *State) CurrentRound() int { return s.Round }

// NextSeat is the seat that decides after the one deciding now, when the
// game goes round the table: while dice are placed (the next in turn order
// with dice left who has not passed) and while prototypes are built. It
// is false elsewhere (everyone at once, or an order the dice decide).
func (s *State) NextSeat() (engine.Seat, bool) {
	if s.Done || s.waiting() {
		return 0, false
	}
	switch s.CurrentPhase {
	case phasePlace:
		for k := 1; k < s.PlayerCount; k++ {
			seat := s.Order[(s.Turn+k)%s.PlayerCount]
			if p := &s.Seats[seat]; !p.Passed && len(p.Vals) > 0 {
				return engine.Seat(seat), true
			}
		}
	case phaseBuild:
		if s.Turn+1 < s.PlayerCount {
			return engine.Seat(s.Order[s.Turn+1]), true
		}
	}
	return 0, false
}

// englishPhase is Phase in English, for the view's Label that the images
// still read.
func (s *State) englishPhase() string {
	if s.Done {
		return "game over"
	}
	return s.c.Tracks.Years[s.Round-1] + ": phase " + strconv.Itoa(int(s.CurrentPhase)) + ", " + phaseName(s.CurrentPhase)
}

// phaseText is Phase as data: "Spring 1849: phase 2, place dice".
func (s *State) phaseText() engine.Text {
	if s.Done {
		return s.say("cp.phase.over")
	}
	return s.say("cp.phase.label", engine.Item("Year", s.c.keys.year[s.Round-1]), engine.Num("Phase", int(s.CurrentPhase)), engine.Msg("Name", phaseID(s.CurrentPhase), 0))
}

// phaseID is the message of phase ph's name.
func phaseID(ph phase) string {
	switch ph {
	case phaseDice:
		return "cp.phase.1"
	case phasePlace:
		return "cp.phase.2"
	case phaseActions:
		return "cp.phase.3"
	case phaseSalaries:
		return "cp.phase.4"
	case phaseBuild:
		return "cp.phase.5"
	case phaseIncome:
		return "cp.phase.6"
	}
	return "cp.phase.7"
}

// phaseName is phase ph's name in English, for englishPhase.
func phaseName(ph phase) string {
	switch ph {
	case phaseDice:
		return "choose dice values"
	case phasePlace:
		return "place dice"
	case phaseActions:
		return "take actions"
	case phaseSalaries:
		return "salaries"
	case phaseBuild:
		return "build prototypes"
	case phaseIncome:
		return "income and buzz"
	}
	return "next round"
}
