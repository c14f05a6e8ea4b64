// Package eightydays holds the rules of Around the World in 80 Days (David
// Parlett; Purple Brain / IELLO, 2016) for 2 to 6 players, its content (the
// 80-space track and the 25 Passepartout cards, embedded TOML files that a
// server admin may replace) and its computer players.
//
// It implements the engine contract: a *State is one game, moved on by
// canonical actions ("move 14", "back", "stay take", "keep 2", "play aouda",
// "move a 14" with two pawns). Like every engine package it does no I/O and
// imports nothing but the engine and the standard library (and a TOML
// reader for the content). Rules values are safe for concurrent use; States
// are not.
package eightydays

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// Numbers the rulebook sets.
const (
	StartPounds        = 80  // each traveller's money at setup
	StartRumors        = 3   // Rumor cards each at setup
	RestartPounds      = 80  // drawn up to when going back to London, in the variant too
	VariantPounds      = 110 // two-pawns variant
	VariantRumors      = 5   // two-pawns variant
	RumorCards         = 18  // in the box
	LondonMaxPounds    = 10  // at most this in hand on arriving in London
	VariantSecondMax   = 20  // two-pawns variant: at most this when the second pawn arrives
	PoundStep          = 10  // taken or given on a Pound space
	BackPayPerSpace    = 10  // received per space moved back
	PositionPayPerRank = 10  // Bet and Police pay the race position times this
)

// Variants of the game, the values of the "variant" option.
const (
	VariantStandard = "standard"
	VariantTwoPawns = "two-pawns"
)

// Rules is Around the World in 80 Days with a given content. It is
// read-only after NewRules and safe for concurrent use.
type Rules struct {
	content *Content
	kinds   []spaceKind // kinds[n]: the kind of space n, for quick comparisons
	words   []string    // words[n]: space n for a player, "Bet 4/5/6" (see spaceWords)
	paris   int         // the first Layover
	behind  []int       // behind[n]: the nearest Layover before space n, or -1
	// texts and canon cache the canonical text of every action, so prompts
	// and Apply do not build or parse strings in the hot path.
	texts texts
	canon map[string]int // canonical text → index in actions
	// actions are the canonical actions.
	actions []Action
	// keys are the counter names per card index; effects the cards' effects in words.
	keys    struct{ card, played []string }
	effects []string
	events  eventTexts // the texts of frequent events
	// labels are the prompts' labels as data, shared by every prompt
	labels struct{ keep, police, turn, turnPawns engine.Text }
	// names[key][lang] name the content items (see ItemName); "en" is the
	// content's own name
	names map[string]map[string]string

	plan     sync.Once
	planning *planner // the heuristic's tables, built on first use
}

// texts holds the canonical text of the actions, by pawn (0 for the
// standard game, 1 and 2 for pawns a and b).
type texts struct {
	move    [3][spaceCount]string
	back    [3]string
	restart [3]string
	discard [3]string
	stay    [3][2]string // [give, take]
	keep    [3]string    // index 1 and 2
	play    []string     // by card index
}

// NewRules returns the game with the given content (see DefaultContent).
func NewRules(c *Content) *Rules {
	r := &Rules{content: c, behind: make([]int, spaceCount), canon: map[string]int{}, paris: -1}
	last := -1
	for _, sp := range c.Track {
		r.kinds = append(r.kinds, kindOf(sp.Kind))
	}
	for n := range c.Track {
		r.words = append(r.words, r.spaceWords(n))
	}
	for n, sp := range c.Track {
		r.behind[n] = last
		if sp.Kind == KindLayover {
			if r.paris < 0 {
				r.paris = n
			}
			last = n
		}
	}
	add := func(a Action) string {
		s := a.String()
		r.canon[s] = len(r.actions)
		r.actions = append(r.actions, a)
		return s
	}
	for p := 0; p < 3; p++ {
		for to := 1; to < spaceCount; to++ {
			r.texts.move[p][to] = add(Action{Verb: VerbMove, Pawn: p, To: to})
		}
		r.texts.back[p] = add(Action{Verb: VerbBack, Pawn: p})
		r.texts.restart[p] = add(Action{Verb: VerbRestart, Pawn: p})
		r.texts.discard[p] = add(Action{Verb: VerbDiscard, Pawn: p})
		r.texts.stay[p][0] = add(Action{Verb: VerbStay, Pawn: p})
		r.texts.stay[p][1] = add(Action{Verb: VerbStay, Pawn: p, Take: true})
	}
	r.texts.keep[1] = add(Action{Verb: VerbKeep, Card: 1})
	r.texts.keep[2] = add(Action{Verb: VerbKeep, Card: 2})
	add(Action{Verb: VerbPass})
	for _, card := range c.Cards {
		r.texts.play = append(r.texts.play, add(Action{Verb: VerbPlay, ID: card.ID}))
		r.keys.card = append(r.keys.card, keyCard+card.ID)
		r.keys.played = append(r.keys.played, "played:"+card.ID)
		r.effects = append(r.effects, card.Effect())
	}
	r.names = map[string]map[string]string{}
	for _, card := range c.Cards {
		r.names[keyCard+card.ID] = withEnglish(card.Name, card.Names)
	}
	for n, sp := range c.Track {
		if sp.City != "" {
			r.names[keyCity+itoa(n)] = withEnglish(sp.City, sp.Names)
		}
	}
	r.buildEventTexts()
	r.labels.keep, r.labels.police = engine.Say("ed.label.keep"), engine.Say("ed.label.police")
	r.labels.turn, r.labels.turnPawns = engine.Say("ed.label.turn"), engine.Say("ed.label.turn_pawns")
	return r
}

// withEnglish is names with english added as "en".
func withEnglish(english string, names map[string]string) map[string]string {
	out := map[string]string{"en": english}
	for lang, n := range names {
		out[lang] = n
	}
	return out
}

// Content returns the rules' content; callers must not modify it.
func (r *Rules) Content() *Content { return r.content }

// Name implements engine.Rules.
func (r *Rules) Name() string { return "eightydays" }

// Title implements engine.Rules.
func (r *Rules) Title() string { return "Around the World in 80 Days" }

// MinPlayers implements engine.Rules.
func (r *Rules) MinPlayers() int { return 2 }

// MaxPlayers implements engine.Rules.
func (r *Rules) MaxPlayers() int { return 6 }

// Options implements engine.Rules: the two-pawns variant for 2 players.
func (r *Rules) Options() []engine.Option {
	return []engine.Option{{
		Name:    "variant",
		Help:    "two-pawns: the 2-player variant (two pawns, 5 Rumors and 110 £ each)",
		Values:  []string{VariantStandard, VariantTwoPawns},
		Default: VariantStandard,
	}}
}

// New implements engine.Rules: everyone in London with their pounds and
// Rumors, the Passepartout deck shuffled, a first player drawn at random.
func (r *Rules) New(setup engine.Setup) (engine.State, error) {
	return r.NewState(setup)
}

// setupRefusal refuses a setup for the reason id.
func setupRefusal(id string, args ...engine.Arg) error {
	return engine.RefuseWith(engine.ErrBadSetup, engine.Say(id, args...))
}

// NewState is New returning the concrete type.
func (r *Rules) NewState(setup engine.Setup) (*State, error) {
	if setup.Players < r.MinPlayers() || setup.Players > r.MaxPlayers() {
		return nil, setupRefusal("ed.refuse.setup.players", engine.Num("Min", r.MinPlayers()), engine.Num("Max", r.MaxPlayers()), engine.Num("N", setup.Players))
	}
	variant := VariantStandard
	for k, v := range setup.Options {
		if k != "variant" {
			return nil, setupRefusal("ed.refuse.setup.option", engine.Code("Name", k))
		}
		if v != VariantStandard && v != VariantTwoPawns {
			return nil, setupRefusal("ed.refuse.setup.variant", engine.Code("Value", v))
		}
		variant = v
	}
	if variant == VariantTwoPawns && setup.Players != 2 {
		return nil, setupRefusal("ed.refuse.setup.two_pawns", engine.Num("N", setup.Players))
	}
	s := &State{rules: r, Variant: variant, Round: 1, Winner: -1, RNG: engine.NewRNG(setup.Seed), Counters: map[string]int{},
		scratch: make([]string, 0, 32), scratchEvents: make([]engine.Event, 0, 8)}
	pounds, rumors, pawns := StartPounds, StartRumors, 1
	if variant == VariantTwoPawns {
		pounds, rumors, pawns = VariantPounds, VariantRumors, 2
	}
	for i := 0; i < setup.Players; i++ {
		s.Seats = append(s.Seats, Traveller{Pounds: pounds, Rumors: rumors, Characters: []int{}, Pawns: make([]Pawn, pawns)})
	}
	s.Deck = append([]int(nil), r.content.Deck...)
	s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.Discard = []int{}
	s.First = s.RNG.Intn(setup.Players)
	s.Turn = s.First
	return s, nil
}

// Decode implements engine.Rules.
func (r *Rules) Decode(data []byte) (engine.State, error) {
	s := &State{rules: r}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("eightydays: decode state: %w", err)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("eightydays: decode state: %w", err)
	}
	return s, nil
}

// ComputerPlayer implements engine.ComputerPlayers.
func (r *Rules) ComputerPlayer(name string) (engine.Player, bool) {
	switch name {
	case "heuristic", "easy":
		return Heuristic{}, true
	}
	if s, ok := ai.Level(knowledge{}, perSecond, name); ok {
		return s, true
	}
	return nil, false
}

// ComputerPlayerNames implements engine.ComputerPlayers.
func (r *Rules) ComputerPlayerNames() []string {
	return []string{"easy", "heuristic", "normal", "strong"}
}

// spaceKind is a space kind as a small number.
type spaceKind uint8

const (
	spaceLondon spaceKind = iota
	spaceLayover
	spacePassepartout
	spaceBet
	spacePound
	spacePolice
)

func kindOf(kind string) spaceKind {
	switch kind {
	case KindLayover:
		return spaceLayover
	case KindPassepartout:
		return spacePassepartout
	case KindBet:
		return spaceBet
	case KindPound:
		return spacePound
	case KindPolice:
		return spacePolice
	}
	return spaceLondon
}

// cost is the price of moving n spaces forward: 1, 3, 6, 10, … (n(n+1)/2).
func cost(n int) int { return n * (n + 1) / 2 }

// Cost is the price in pounds of moving n spaces forward, as printed in the
// Travel Journal: 1 space 1£, 2 spaces 3£, 3 spaces 6£, …
func Cost(n int) int { return cost(n) }

// seatNames spells P1 to P6 without building strings in the hot path.
const seatNames = "P1P2P3P4P5P6"

func seatName(seat int) string {
	if seat >= 0 && 2*seat+2 <= len(seatNames) {
		return seatNames[2*seat : 2*seat+2]
	}
	return "P" + strconv.Itoa(seat+1)
}
