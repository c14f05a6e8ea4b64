package eightydays

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/meeplegames/meeple/engine"
)

// Pending space effects, kept on a pawn until its owner's next turn.
const (
	PendingBet    = "bet"    // paid before moving, if the race position matches
	PendingPound  = "pound"  // may stay and take or give 10£, turn after turn
	PendingPolice = "police" // hat turned over: the next turn discards a Rumor
	PendingLeave  = "leave"  // the turn after the Police: must leave the space
)

// Prompt kinds.
const (
	PromptTurn   = "turn"   // move, back, stay, pass, restart, play
	PromptKeep   = "keep"   // which of two drawn Passepartout cards to apply
	PromptPolice = "police" // discard a Rumor at the Police
)

// State is one game of Around the World in 80 Days. Its exported fields are
// its whole state, serialised by Encode; apart from the shuffled deck (Deck)
// everything in it is public.
type State struct {
	rules *Rules

	Variant string      `json:"variant"`
	Seats   []Traveller `json:"seats"`
	Turn    int         `json:"turn"`  // the seat whose turn it is
	First   int         `json:"first"` // the seat that begins each round
	Round   int         `json:"round"`
	// Deck is the face-down Passepartout deck by card index, drawn from the
	// end; Discard is the face-up pile, the most recent last.
	Deck    []int `json:"deck"`
	Discard []int `json:"discard"`
	// Drawn holds two drawn cards while their drawer chooses one.
	Drawn []int `json:"drawn,omitempty"`
	// Reshuffle is set when a card with the reshuffle symbol was drawn this
	// turn: deck and discard are shuffled together when the turn ends.
	Reshuffle bool `json:"reshuffle,omitempty"`
	// Discount is what characters played this turn take off its move.
	Discount int            `json:"discount,omitempty"`
	Winner   int            `json:"winner"` // -1 until someone is home
	Turns    int            `json:"turns"`  // turns played, by everyone
	Counters map[string]int `json:"counters"`
	RNG      engine.RNG     `json:"rng"`

	// scratch and scratchEvents are where Prompts and Apply gather legal
	// actions and events before copying them out; they are never handed
	// out, and a clone starts its own.
	scratch       []string
	scratchEvents []engine.Event
}

// Traveller is one player's belongings.
type Traveller struct {
	Pounds     int    `json:"pounds"`
	Rumors     int    `json:"rumors"`
	Characters []int  `json:"characters"` // kept character cards, by card index
	Pawns      []Pawn `json:"pawns"`
}

// Pawn is one hat pawn.
type Pawn struct {
	Space   int    `json:"space"`
	Pending string `json:"pending,omitempty"`
}

// Players implements engine.State.
func (s *State) Players() int { return len(s.Seats) }

// Over implements engine.State.
func (s *State) Over() bool { return s.Winner >= 0 }

// CurrentRound is the round of turns being played, from 1: a round ends
// when every traveller has had a turn.
func (s *State) CurrentRound() int { return s.Round }

// NextSeat is the traveller whose turn comes after the current one's.
func (s *State) NextSeat() (engine.Seat, bool) {
	if s.Over() {
		return 0, false
	}
	return engine.Seat((s.Turn + 1) % len(s.Seats)), true
}

// Phase implements engine.State: the round, which changes when everyone has
// had a turn.
func (s *State) Phase() engine.Text {
	if s.Over() {
		return engine.Say("ed.view.over")
	}
	return s.rules.events.roundText(s.Round)
}

// FreeActions implements engine.State. Characters are played on one's own
// turn and are listed with the turn's prompt, so there is nothing else.
func (s *State) FreeActions(engine.Seat) []string { return nil }

// promptKind is the decision the player on turn faces.
func (s *State) promptKind() string {
	if len(s.Drawn) > 0 {
		return PromptKeep
	}
	for _, p := range s.Seats[s.Turn].Pawns {
		if p.Pending == PendingPolice {
			return PromptPolice
		}
	}
	return PromptTurn
}

// Prompts implements engine.State: one prompt, for the player on turn.
func (s *State) Prompts() []engine.Prompt {
	if s.Over() {
		return nil
	}
	kind := s.promptKind()
	// the actions are gathered in the state's scratch list, then kept in a
	// block of their size
	s.scratch = s.legal(kind, s.scratch[:0])
	prompts, actions := newPrompt(len(s.scratch))
	copy(actions, s.scratch)
	p := &prompts[0]
	*p = engine.Prompt{Seat: engine.Seat(s.Turn), Kind: kind, Actions: actions}
	switch {
	case kind == PromptKeep:
		p.Text = &s.rules.labels.keep
	case kind == PromptPolice:
		p.Text = &s.rules.labels.police
	case s.Variant == VariantTwoPawns:
		p.Text = &s.rules.labels.turnPawns
	default:
		p.Text = &s.rules.labels.turn
	}
	return prompts
}

// newPrompt returns a prompt and n actions to fill in, sharing one
// allocation when n is small, as it mostly is (three actions or fewer in
// two prompts out of three).
func newPrompt(n int) ([]engine.Prompt, []string) {
	switch {
	case n <= 2:
		b := new(struct {
			prompt  [1]engine.Prompt
			actions [2]string
		})
		return b.prompt[:], b.actions[:n:n]
	case n <= 4:
		b := new(struct {
			prompt  [1]engine.Prompt
			actions [4]string
		})
		return b.prompt[:], b.actions[:n:n]
	case n <= 8:
		b := new(struct {
			prompt  [1]engine.Prompt
			actions [8]string
		})
		return b.prompt[:], b.actions[:n:n]
	case n <= 16:
		b := new(struct {
			prompt  [1]engine.Prompt
			actions [16]string
		})
		return b.prompt[:], b.actions[:n:n]
	}
	return make([]engine.Prompt, 1), make([]string, n)
}

// LegalActions lists the actions seat may take now, in canonical text.
func (s *State) LegalActions(seat engine.Seat) []string {
	if s.Over() || int(seat) != s.Turn {
		return nil
	}
	return s.legal(s.promptKind(), nil)
}

// legal enumerates candidate actions and keeps those the one predicate,
// refusal, allows, appending them to out. The candidates are bounded (a
// move is never longer than the traveller can pay for), never the legality
// itself.
func (s *State) legal(kind string, out []string) []string {
	t := &s.rules.texts
	seat := s.Turn
	try := func(a Action, text string) {
		if s.refusal(seat, &a).ok() {
			out = append(out, text)
		}
	}
	switch kind {
	case PromptKeep:
		for k := 1; k <= len(s.Drawn); k++ {
			try(Action{Verb: VerbKeep, Card: k}, t.keep[k])
		}
		return out
	case PromptPolice:
		for pw, last := s.pawnIDs(); pw <= last; pw++ {
			try(Action{Verb: VerbDiscard, Pawn: pw}, t.discard[pw])
		}
		return out
	}
	for pw, last := s.pawnIDs(); pw <= last; pw++ {
		// the gate is the same for every verb naming this pawn
		if s.gate(seat, &Action{Verb: VerbMove, Pawn: pw}).ok() {
			out = s.pawnMoves(seat, pw, out, false)
		}
	}
	moved := len(out) > 0
	if !moved { // restart and pass are only for travellers who cannot move
		for pw, last := s.pawnIDs(); pw <= last; pw++ {
			try(Action{Verb: VerbRestart, Pawn: pw}, t.restart[pw])
		}
		try(Action{Verb: VerbPass}, "pass")
	}
	seen := 0
	for _, c := range s.Seats[seat].Characters {
		if seen&(1<<c) == 0 {
			seen |= 1 << c
			try(Action{Verb: VerbPlay, ID: s.rules.content.Cards[c].ID}, t.play[c])
		}
	}
	return out
}

// pawnIDs are the first and last pawn numbers actions use: 0 alone, or 1
// and 2 ("a" and "b").
func (s *State) pawnIDs() (first, last int) {
	if s.Variant == VariantTwoPawns {
		return 1, 2
	}
	return 0, 0
}

// pawn returns the pawn an action's pawn number names (0, 1 or 2).
func (s *State) pawn(seat, id int) *Pawn {
	if id == 0 {
		return &s.Seats[seat].Pawns[0]
	}
	return &s.Seats[seat].Pawns[id-1]
}

// occupied reports whether a pawn stands on space n. London holds any
// number of pawns.
func (s *State) occupied(n int) bool {
	if n == 0 || n == LondonEnd {
		return false
	}
	for i := range s.Seats {
		for _, p := range s.Seats[i].Pawns {
			if p.Space == n {
				return true
			}
		}
	}
	return false
}

// Rank is a pawn's place in the race: 1 plus the number of pawns strictly
// ahead of it (pawns side by side in London share a place).
func (s *State) Rank(space int) int {
	rank := 1
	for i := range s.Seats {
		for _, p := range s.Seats[i].Pawns {
			if p.Space > space {
				rank++
			}
		}
	}
	return rank
}

// spareRumors is the Rumor cards not yet promised to a Police visit.
func (s *State) spareRumors(seat int) int {
	n := s.Seats[seat].Rumors
	for _, p := range s.Seats[seat].Pawns {
		if p.Pending == PendingPolice {
			n--
		}
	}
	return n
}

// refusal is the one legality predicate: the zero why when seat may take
// the action now, else the rule that refuses it (see why.err). It is the
// gate every action passes (whose turn, which decision, which pawn) and
// then the verb's own rule.
func (s *State) refusal(seat int, a *Action) why {
	if w := s.gate(seat, a); !w.ok() {
		return w
	}
	switch a.Verb {
	case VerbKeep:
		if a.Card < 1 || a.Card > len(s.Drawn) {
			return why{code: whyKeepRange, a: len(s.Drawn)}
		}
		return why{}
	case VerbPlay:
		return s.playRefusal(seat, a.ID)
	case VerbPass:
		return s.passRefusal(seat)
	case VerbDiscard:
		if s.pawn(seat, a.Pawn).Pending != PendingPolice {
			return why{code: whyNotAtPolice, pawn: int8(a.Pawn)}
		}
		return why{}
	case VerbMove:
		return s.moveRefusal(seat, a.Pawn, a.To)
	case VerbBack:
		return s.backRefusal(seat, a.Pawn)
	case VerbStay:
		return s.stayRefusal(seat, a.Pawn, a.Take)
	case VerbRestart:
		return s.restartRefusal(seat, a.Pawn)
	}
	return why{code: 255}
}

// gate checks what every action must pass: the game goes on, it is seat's
// turn, the verb answers the decision at hand and names a pawn that may act.
func (s *State) gate(seat int, a *Action) why {
	if s.Over() {
		return why{code: whyGameOver}
	}
	if seat < 0 || seat >= len(s.Seats) {
		return why{code: whyNotSeated, a: seat}
	}
	if seat != s.Turn {
		return why{code: whyNotYourTurn, a: s.Turn}
	}
	kind := s.promptKind()
	switch {
	case kind == PromptKeep && a.Verb != VerbKeep:
		return why{code: whyKeepFirst}
	case kind != PromptKeep && a.Verb == VerbKeep:
		return why{code: whyNothingDrawn}
	case kind == PromptPolice && a.Verb != VerbDiscard:
		return why{code: whyPoliceTurn}
	}
	if a.Verb.pawned() {
		return s.pawnRefusal(seat, a)
	}
	return why{}
}

func (s *State) passRefusal(seat int) why {
	if w := s.stuckRefusal(seat, whyCanMove); !w.ok() {
		return w
	}
	if s.canRestart(seat) {
		return why{code: whyRestartInstead}
	}
	return why{}
}

// pawnRefusal checks that the action names a pawn of this game that may act.
func (s *State) pawnRefusal(seat int, a *Action) why {
	if s.Variant == VariantTwoPawns {
		if a.Pawn == 0 {
			return refusedAction(whyTwoPawns, a)
		}
	} else if a.Pawn != 0 {
		return refusedAction(whyOnePawn, a)
	}
	if s.pawn(seat, a.Pawn).Space == LondonEnd {
		return why{code: whyPawnHome, pawn: int8(a.Pawn)}
	}
	if a.Verb == VerbDiscard || s.Variant != VariantTwoPawns {
		return why{}
	}
	if s.pawn(seat, a.Pawn).Pending == PendingLeave {
		return why{} // a pawn bound to leave may always try
	}
	for id, p := range s.Seats[seat].Pawns {
		// a pawn that must leave the Police but cannot (with the help of
		// the characters held) does not hold up the other pawn
		if p.Pending == PendingLeave && id+1 != a.Pawn && s.pawnCanMove(seat, id+1) {
			return why{code: whyMustLeave, pawn: int8(id + 1)}
		}
	}
	return why{}
}

func (s *State) moveRefusal(seat, pw, to int) why {
	m := s.moveFrom(seat, pw)
	return m.refusal(to)
}

// mover holds what the rule of moving forward needs about one pawn, so
// that trying every destination does not gather it again.
type mover struct {
	s            *State
	seat, pw     int
	from, pounds int
	discount     int
	canPolice    bool
	taken        [2]uint64 // bit n: a pawn stands on space n
}

func (s *State) moveFrom(seat, pw int) mover {
	m := mover{s: s, seat: seat, pw: pw, from: s.pawn(seat, pw).Space, pounds: s.Seats[seat].Pounds,
		discount: s.Discount, canPolice: s.spareRumors(seat) >= 1}
	for i := range s.Seats {
		for _, p := range s.Seats[i].Pawns {
			if p.Space > 0 && p.Space < LondonEnd { // London holds any number of pawns
				m.taken[p.Space/64] |= 1 << (p.Space % 64)
			}
		}
	}
	return m
}

// refusal is the rule of moving forward to space to.
func (m *mover) refusal(to int) why {
	switch {
	case to <= m.from:
		return why{code: whyForwardOnly, pawn: int8(m.pw), a: m.from}
	case to > LondonEnd:
		return why{code: whyTrackEnds}
	}
	kind := m.s.rules.kinds[to]
	if kind == spaceLayover {
		return why{code: whyLayover, a: to}
	}
	if m.taken[to/64]&(1<<(to%64)) != 0 {
		return why{code: whyTaken, a: to}
	}
	price := max(0, cost(to-m.from)-m.discount)
	if price > m.pounds {
		return why{code: whyTooDear, a: to - m.from, b: price, c: m.pounds}
	}
	if kind == spacePolice && !m.canPolice {
		return why{code: whyPoliceNeedsRumor, a: to}
	}
	if to == LondonEnd {
		return m.s.londonRefusal(m.seat, m.pw, m.pounds-price)
	}
	return why{}
}

// londonRefusal checks the conditions of coming home with left pounds in hand.
func (s *State) londonRefusal(seat, pw, left int) why {
	me := &s.Seats[seat]
	if me.Rumors > 0 {
		return why{code: whyLondonRumors, a: me.Rumors}
	}
	limit := LondonMaxPounds
	if s.Variant == VariantTwoPawns {
		if other := s.Seats[seat].Pawns[2-pw]; other.Space != LondonEnd {
			return why{} // the first pawn home may carry any amount
		}
		limit = VariantSecondMax
	}
	if left > limit {
		return why{code: whyLondonPounds, a: left, b: limit}
	}
	return why{}
}

func (s *State) backRefusal(seat, pw int) why {
	from := s.pawn(seat, pw).Space
	to := s.rules.behind[from]
	if to < 0 {
		return why{code: whyNoLayoverBehind, a: from}
	}
	if s.occupied(to) {
		return why{code: whyLayoverTaken, a: to}
	}
	return why{}
}

func (s *State) stayRefusal(seat, pw int, take bool) why {
	p := s.pawn(seat, pw)
	if p.Pending != PendingPound {
		return why{code: whyNotPound, pawn: int8(pw), a: p.Space, b: int(s.rules.kinds[p.Space])}
	}
	if !take && s.Seats[seat].Pounds < PoundStep {
		return why{code: whyCannotGive, a: s.Seats[seat].Pounds}
	}
	return why{}
}

func (s *State) restartRefusal(seat, pw int) why {
	if w := s.stuckRefusal(seat, whyRestartCanMove); !w.ok() {
		return w
	}
	if from := s.pawn(seat, pw).Space; from > s.rules.paris {
		return why{code: whyPassedParis, pawn: int8(pw), a: s.rules.paris}
	}
	return why{}
}

func (s *State) playRefusal(seat int, id string) why {
	for _, c := range s.Seats[seat].Characters {
		if s.rules.content.Cards[c].ID == id {
			return why{}
		}
	}
	return why{code: whyNoCharacter, text: id}
}

// stuckRefusal refuses pass and restart (code says which) unless seat is
// stuck: no pawn that may act has a move, a move back or a stay, even after
// playing characters that bring pounds or make the move cheaper.
func (s *State) stuckRefusal(seat int, code whyCode) why {
	for pw, last := s.pawnIDs(); pw <= last; pw++ {
		if !s.pawnRefusal(seat, &Action{Verb: VerbMove, Pawn: pw}).ok() {
			continue
		}
		if s.pawnHasMove(seat, pw) {
			if s.mustStay(seat, pw) {
				return why{code: whyMustStay, pawn: int8(pw)}
			}
			return why{code: code}
		}
		if id := s.payingCharacter(seat, pw); id != "" {
			return why{code: whyCharacterPays, text: id}
		}
	}
	return why{}
}

// mustStay reports whether pawn pw of seat, on a Pound space, has no move
// forward or back: staying (taking or giving 10£) is all it may do.
func (s *State) mustStay(seat, pw int) bool {
	if s.pawn(seat, pw).Pending != PendingPound {
		return false
	}
	var found [1]string
	first := s.pawnMoves(seat, pw, found[:0], true)
	t := &s.rules.texts.stay[pw]
	return len(first) == 1 && (first[0] == t[0] || first[0] == t[1])
}

// pawnCanMove reports whether pawn pw of seat has a move, a move back or a
// stay now, or would have one after playing some of seat's characters.
func (s *State) pawnCanMove(seat, pw int) bool {
	return s.pawnHasMove(seat, pw) || s.payingCharacter(seat, pw) != ""
}

// pawnHasMove reports whether pawn pw of seat has a move, a move back or a
// stay now.
func (s *State) pawnHasMove(seat, pw int) bool {
	var found [1]string
	return len(s.pawnMoves(seat, pw, found[:0], true)) > 0
}

// maxPayingSets bounds the sets of characters payingCharacter tries; a
// hand that large is beyond any real game.
const maxPayingSets = 1 << 10

// payingCharacter returns the id of a character of seat that, played alone
// or with others of its hand that bring money, would let pawn pw move
// forward; "" when none would. The rulebook's "not enough £ to move" counts
// such characters as money. Only characters that bring pounds or a
// discount and cost nothing count; a traveller may need to play only some
// of them (a last move into London must leave 10£ or less).
func (s *State) payingCharacter(seat, pw int) string {
	type offer struct{ card, held int }
	var offers []offer
	sets := 1
	for _, c := range s.Seats[seat].Characters {
		card := &s.rules.content.Cards[c]
		if card.Pounds < 0 || card.Discount < 0 || card.Pounds+card.Discount == 0 {
			continue
		}
		found := false
		for i := range offers {
			if offers[i].card == c {
				offers[i].held++
				found = true
			}
		}
		if !found {
			offers = append(offers, offer{card: c, held: 1})
		}
	}
	if len(offers) == 0 {
		return ""
	}
	for _, o := range offers {
		sets = min(sets*(o.held+1), maxPayingSets+1)
	}
	base := s.moveFrom(seat, pw)
	// each set is a number in mixed radix: digit i plays 0 to held of offer i
	for set := 1; set < min(sets, maxPayingSets); set++ {
		m, first, rest := base, "", set
		for _, o := range offers {
			n := rest % (o.held + 1)
			rest /= o.held + 1
			card := &s.rules.content.Cards[o.card]
			if n > 0 && first == "" {
				first = card.ID
			}
			m.pounds += n * card.Pounds
			m.discount += n * card.Discount
		}
		for to := m.from + 1; to < spaceCount && cost(to-m.from) <= m.pounds+m.discount; to++ {
			if m.refusal(to).ok() {
				return first
			}
		}
	}
	return ""
}

// pawnMoves appends to out the text of each legal move, move back and stay
// of pawn pw, once its gate is passed; with first, it stops at the first
// one. Moves are tried only as far as the traveller can pay: that bounds
// the enumeration, while legality stays with the refusal functions.
func (s *State) pawnMoves(seat, pw int, out []string, first bool) []string {
	t := &s.rules.texts
	n := len(out)
	m := s.moveFrom(seat, pw)
	budget := m.pounds + m.discount
	for to := m.from + 1; to < spaceCount && cost(to-m.from) <= budget; to++ {
		if m.refusal(to).ok() {
			if out = append(out, t.move[pw][to]); first {
				return out
			}
		}
	}
	if s.backRefusal(seat, pw).ok() {
		out = append(out, t.back[pw])
	}
	if s.stayRefusal(seat, pw, true).ok() {
		out = append(out, t.stay[pw][1])
	}
	if s.stayRefusal(seat, pw, false).ok() {
		out = append(out, t.stay[pw][0])
	}
	if first && len(out) > n+1 {
		out = out[:n+1]
	}
	return out
}

// canRestart reports whether a pawn of seat that may act has not passed Paris.
func (s *State) canRestart(seat int) bool {
	for pw, last := s.pawnIDs(); pw <= last; pw++ {
		if s.pawnRefusal(seat, &Action{Verb: VerbRestart, Pawn: pw}).ok() && s.pawn(seat, pw).Space <= s.rules.paris {
			return true
		}
	}
	return false
}

// parse reads an action's text, from the cache of canonical forms when it
// can; its usage hints name pawns only in the two-pawns variant.
func (s *State) parse(text string) (Action, error) {
	if i, ok := s.rules.canon[text]; ok {
		return s.rules.actions[i], nil
	}
	return parseAction(text, s.Variant == VariantTwoPawns)
}

// Apply implements engine.State.
func (s *State) Apply(seat engine.Seat, text string) ([]engine.Event, error) {
	a, err := s.parse(text)
	if err != nil {
		return nil, err
	}
	if err := s.refusal(int(seat), &a).err(); err != nil {
		return nil, s.teach(seat, err)
	}
	// the events are gathered in the state's scratch list, then returned
	// in a slice of their size
	s.scratchEvents = s.perform(int(seat), a, s.scratchEvents[:0])
	return append(make([]engine.Event, 0, len(s.scratchEvents)), s.scratchEvents...), nil
}

// teach adds to the refusal of an answer to a pending question (which
// Passepartout card to keep, what to discard at the Police) the answers
// that are valid; an ordinary turn's refusal already says what is wrong
// and /play lists the moves.
func (s *State) teach(seat engine.Seat, err error) error {
	var rule *engine.RuleError
	if s.Over() || int(seat) != s.Turn || !errors.As(err, &rule) || !errors.Is(err, engine.ErrIllegalAction) {
		return err
	}
	kind := s.promptKind()
	if kind == PromptTurn {
		return err
	}
	return engine.RefuseAnswer(rule.Kind, rule.Say, s.legal(kind, nil))
}

// perform carries out a legal action, appending its events to ev.
func (s *State) perform(seat int, a Action, ev []engine.Event) []engine.Event {
	me := &s.Seats[seat]
	say := func(reveals bool, text engine.Text) {
		ev = append(ev, engine.Event{Kind: engine.EventAction, Seat: engine.Seat(seat), Text: text, Reveals: reveals})
	}
	switch a.Verb {
	case VerbPlay:
		s.play(seat, a.ID, say)
		return ev // playing a character does not end the turn
	case VerbKeep:
		kept, other := s.Drawn[a.Card-1], s.Drawn[2-a.Card]
		s.Drawn = s.Drawn[:0]
		s.Discard = append(s.Discard, other)
		s.applyCard(seat, kept, say)
		say(false, s.rules.events.discards[seat][other])
	case VerbDiscard:
		p := s.pawn(seat, a.Pawn)
		rank := s.Rank(p.Space)
		gain := rank * PositionPayPerRank
		if me.Rumors > 0 {
			me.Rumors--
		}
		me.Pounds += gain
		p.Pending = PendingLeave
		s.Counters["police"]++
		say(false, s.policeText(seat, rank, gain))
	case VerbPass:
		s.Counters["passes"]++
		say(false, engine.Say("ed.log.pass", who(seat)))
	case VerbRestart:
		p := s.pawn(seat, a.Pawn)
		from := p.Space
		p.Space, p.Pending = 0, ""
		me.Pounds = max(me.Pounds, RestartPounds)
		s.Counters["restarts"]++
		say(false, s.restartText(seat, a.Pawn, from))
	case VerbStay:
		if a.Take {
			me.Pounds += PoundStep
		} else {
			me.Pounds -= PoundStep
		}
		say(false, s.stayText(seat, a.Pawn, a.Take))
	case VerbBack:
		p := s.pawn(seat, a.Pawn)
		from, to := p.Space, s.rules.behind[p.Space]
		gain := (from - to) * BackPayPerSpace
		me.Pounds += gain
		p.Space, p.Pending = to, ""
		s.Counters["backs"]++
		say(false, s.backText(seat, a.Pawn, from, to, gain))
	case VerbMove:
		p := s.pawn(seat, a.Pawn)
		from, price := p.Space, s.price(p.Space, a.To)
		me.Pounds -= price
		p.Space, p.Pending = a.To, ""
		say(false, s.moveText(seat, a.Pawn, from, a.To, price))
		if s.arrive(seat, a.Pawn, say) {
			return ev // two cards to choose between: the turn goes on
		}
	}
	return s.endTurn(ev)
}

func itoa(n int) string { return strconv.Itoa(n) }

// arrive applies the effect of the space pawn pw of seat just moved to. It
// reports whether the turn waits for a choice between two drawn cards.
func (s *State) arrive(seat, pw int, say func(bool, engine.Text)) bool {
	p := s.pawn(seat, pw)
	switch s.rules.kinds[p.Space] {
	case spaceLondon:
		home := true
		for _, q := range s.Seats[seat].Pawns {
			home = home && q.Space == LondonEnd
		}
		if home {
			s.Winner = seat
		}
	case spaceBet:
		p.Pending = PendingBet
	case spacePound:
		p.Pending = PendingPound
	case spacePolice:
		p.Pending = PendingPolice
		say(false, s.hatText(seat, pw))
	case spacePassepartout:
		n := 2
		if s.Rank(p.Space) == 1 {
			n = 1
		}
		var room [2]int
		drawn := s.draw(n, room[:0], say)
		for _, c := range drawn {
			say(true, s.rules.events.draws[seat][c])
		}
		switch len(drawn) {
		case 1:
			s.applyCard(seat, drawn[0], say)
		case 2:
			s.Drawn = append(s.Drawn[:0], drawn...)
			return true
		}
	}
	return false
}

// draw takes up to n cards from the deck, shuffling the discard pile into
// a new deck when the deck runs out (and saying so), and appends them to
// drawn.
func (s *State) draw(n int, drawn []int, say func(bool, engine.Text)) []int {
	for len(drawn) < n {
		if len(s.Deck) == 0 {
			if len(s.Discard) == 0 {
				say(false, engine.Say("ed.log.deck_empty"))
				break
			}
			s.reshuffle()
			say(true, engine.Say("ed.log.deck_ran_out"))
		}
		c := s.Deck[len(s.Deck)-1]
		s.Deck = s.Deck[:len(s.Deck)-1]
		drawn = append(drawn, c)
		s.Counters["cards:drawn"]++
		if s.rules.content.Cards[c].Reshuffle {
			s.Reshuffle = true
		}
	}
	return drawn
}

// reshuffle shuffles the discard pile into the deck.
func (s *State) reshuffle() {
	s.Deck = append(s.Deck, s.Discard...)
	s.Discard = s.Discard[:0]
	s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.Counters["reshuffles"]++
}

// applyCard applies a drawn card: an event at once, a character kept.
func (s *State) applyCard(seat, c int, say func(bool, engine.Text)) {
	card := &s.rules.content.Cards[c]
	s.Counters[s.rules.keys.card[c]]++
	if card.Kind == CardCharacter {
		s.Seats[seat].Characters = append(s.Seats[seat].Characters, c)
		say(false, s.rules.events.keeps[seat][c])
		return
	}
	paid, rumors := s.effect(seat, card)
	s.Discard = append(s.Discard, c)
	say(false, s.cardText(seat, paid, rumors, c, false))
}

// play plays a kept character.
func (s *State) play(seat int, id string, say func(bool, engine.Text)) {
	me := &s.Seats[seat]
	for i, c := range me.Characters {
		card := &s.rules.content.Cards[c]
		if card.ID != id {
			continue
		}
		me.Characters = append(me.Characters[:i:i], me.Characters[i+1:]...)
		paid, rumors := s.effect(seat, card)
		s.Discount += card.Discount
		s.Discard = append(s.Discard, c)
		s.Counters[s.rules.keys.played[c]]++
		say(false, s.cardText(seat, paid, rumors, c, true))
		return
	}
}

// effect applies a card's pounds and Rumors and returns the pounds and
// Rumors it actually moved: a traveller pays no more than they hold, takes
// a Rumor only while the box has one and discards one only when held.
func (s *State) effect(seat int, card *Card) (paid, rumors int) {
	me := &s.Seats[seat]
	before := me.Pounds
	me.Pounds = max(0, me.Pounds+card.Pounds)
	switch {
	case card.Rumors > 0 && s.rumorsInBox() > 0:
		me.Rumors++
		rumors = 1
	case card.Rumors < 0 && me.Rumors > 0:
		me.Rumors--
		rumors = -1
	}
	return me.Pounds - before, rumors
}

// rumorsInBox is the Rumor cards nobody holds.
func (s *State) rumorsInBox() int {
	n := RumorCards
	for i := range s.Seats {
		n -= s.Seats[i].Rumors
	}
	return n
}

// endTurn finishes the turn: the game's end, the reshuffle, the next
// traveller, a new round, and the Bet effects paid before that traveller moves.
func (s *State) endTurn(ev []engine.Event) []engine.Event {
	s.Turns++
	s.Discount = 0
	if s.Over() {
		return append(ev, engine.Event{Kind: engine.EventEnd, Seat: engine.Seat(s.Winner), Text: s.rules.events.wins[s.Winner]})
	}
	if s.Reshuffle {
		s.Reshuffle = false
		s.reshuffle()
		ev = append(ev, engine.Event{Kind: engine.EventAction, Seat: engine.Spectator, Text: engine.Say("ed.log.reshuffle"), Reveals: true})
	}
	s.Turn = (s.Turn + 1) % len(s.Seats)
	if s.Turn == s.First {
		s.Round++
		ev = append(ev, engine.Event{Kind: engine.EventPhase, Seat: engine.Spectator, Text: s.rules.events.roundText(s.Round)})
	}
	me := &s.Seats[s.Turn]
	for i := range me.Pawns {
		p := &me.Pawns[i]
		if p.Pending != PendingBet {
			continue
		}
		p.Pending = ""
		rank := s.Rank(p.Space)
		paid := s.betPays(p.Space, rank)
		if paid {
			me.Pounds += rank * PositionPayPerRank
			s.Counters["bets:won"]++
		}
		ev = append(ev, engine.Event{Kind: engine.EventAction, Seat: engine.Seat(s.Turn), Text: s.betText(s.Turn, p.Space, rank, paid)})
	}
	return ev
}

// betPays reports whether the Bet space n pays a pawn in race position rank.
// The 4, 5, 6 space pays nothing with 2 or 3 players; the two-pawns
// variant plays as a 4-player game, so there it pays.
func (s *State) betPays(n, rank int) bool {
	if rank >= 4 && s.fewPlayers() {
		return false
	}
	for _, b := range s.rules.content.Track[n].Bets {
		if b == rank {
			return true
		}
	}
	return false
}

// fewPlayers reports whether the game has 2 or 3 travellers, where the
// 4, 5, 6 Bet space pays nothing; the two-pawns variant counts as 4.
func (s *State) fewPlayers() bool {
	return len(s.Seats) < 4 && s.Variant != VariantTwoPawns
}

// betDead reports whether the Bet space n can pay no place in this game.
func (s *State) betDead(n int) bool {
	for _, b := range s.rules.content.Track[n].Bets {
		if b < 4 || !s.fewPlayers() {
			return false
		}
	}
	return true
}

// Result implements engine.State: Scores are the spaces reached (the sum
// of both pawns' spaces in the two-pawns variant); the winner is the first
// traveller home.
func (s *State) Result() engine.Result {
	r := engine.Result{Over: s.Over(), Scores: make([]int, len(s.Seats)), Counters: map[string]int{}}
	for i := range s.Seats {
		for _, p := range s.Seats[i].Pawns {
			r.Scores[i] += p.Space
		}
	}
	if s.Over() {
		r.Winners = []engine.Seat{engine.Seat(s.Winner)}
	}
	for k, v := range s.Counters {
		r.Counters[k] = v
	}
	r.Counters["turns"] = s.Turns
	return r
}

// Encode implements engine.State.
func (s *State) Encode() ([]byte, error) { return json.Marshal(s) }

// Clone implements engine.State.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.scratch, c.scratchEvents = nil, nil
	c.Seats = make([]Traveller, len(s.Seats))
	for i, t := range s.Seats {
		t.Characters = append([]int{}, t.Characters...)
		t.Pawns = append([]Pawn(nil), t.Pawns...)
		c.Seats[i] = t
	}
	c.Deck = append([]int{}, s.Deck...)
	c.Discard = append([]int{}, s.Discard...)
	c.Drawn = append([]int(nil), s.Drawn...)
	c.Counters = make(map[string]int, len(s.Counters))
	for k, v := range s.Counters {
		c.Counters[k] = v
	}
	return &c
}

// validate checks a decoded state's shape, so a damaged record is refused
// rather than crashing the rules.
func (s *State) validate() error {
	n := len(s.Seats)
	cards := len(s.rules.content.Cards)
	pawns := 1
	switch s.Variant {
	case VariantStandard:
	case VariantTwoPawns:
		pawns = 2
	default:
		return fmt.Errorf("unknown variant %q", s.Variant)
	}
	if n < 2 || n > 6 || s.Turn < 0 || s.Turn >= n || s.First < 0 || s.First >= n || s.Winner < -1 || s.Winner >= n {
		return errors.New("bad seats")
	}
	if len(s.Drawn) != 0 && len(s.Drawn) != 2 {
		return errors.New("bad drawn cards")
	}
	inRange := func(list []int) bool {
		for _, c := range list {
			if c < 0 || c >= cards {
				return false
			}
		}
		return true
	}
	if !inRange(s.Deck) || !inRange(s.Discard) || !inRange(s.Drawn) {
		return errors.New("bad card")
	}
	for i := range s.Seats {
		t := &s.Seats[i]
		if len(t.Pawns) != pawns || t.Pounds < 0 || t.Rumors < 0 || !inRange(t.Characters) {
			return fmt.Errorf("bad traveller %d", i+1)
		}
		if t.Characters == nil {
			t.Characters = []int{}
		}
		for _, p := range t.Pawns {
			if p.Space < 0 || p.Space > LondonEnd {
				return fmt.Errorf("bad pawn of traveller %d", i+1)
			}
		}
	}
	if s.Counters == nil {
		s.Counters = map[string]int{}
	}
	if s.Discard == nil {
		s.Discard = []int{}
	}
	if s.Deck == nil {
		s.Deck = []int{}
	}
	return nil
}
