package eightydays

import "github.com/meeplegames/meeple/engine"

// View is what one seat may see of a game of Around the World in 80 Days:
// everything but the order of the Passepartout deck. It is plain data, ready
// for JSON, text presentation and images; the game has no other secrets, so
// every seat's view differs from the spectator's only in Seat.
//
// What a reader sees is there as data for the wording layer: a field
// <Name>Say is field <Name>'s words as an engine.Text, and a field
// <Name>Key the content item key that names <Name> in every language
// (wording.Words.Item). The English strings beside them are what the
// images still draw until they write the data.
type View struct {
	Seat    engine.Seat  `json:"seat"`    // the seat this view is for, or engine.Spectator
	Variant string       `json:"variant"` // "standard" or "two-pawns"
	Round   int          `json:"round"`   // counted from 1
	Turn    engine.Seat  `json:"turn"`    // the seat whose turn it is
	First   engine.Seat  `json:"first"`   // the seat that began the first round
	Players []PlayerView `json:"players"` // by seat
	Track   []SpaceView  `json:"track"`   // spaces 0 (London, the start) to 80 (London, the end)
	// Drawn are the Passepartout cards the player on turn drew and must
	// choose between (empty unless a "keep" prompt is open).
	Drawn    []CardView    `json:"drawn,omitempty"`
	Discard  []CardView    `json:"discard"`   // the face-up discard pile, the most recent last
	DeckSize int           `json:"deck_size"` // face-down Passepartout cards left
	Over     bool          `json:"over"`
	Winners  []engine.Seat `json:"winners,omitempty"`
}

// PlayerView is one traveller as everyone sees them.
type PlayerView struct {
	Seat       engine.Seat `json:"seat"`
	Pounds     int         `json:"pounds"`
	Rumors     int         `json:"rumors"`     // Rumor cards still held
	Characters []CardView  `json:"characters"` // kept Character cards, face up, not yet played
	Pawns      []PawnView  `json:"pawns"`      // one, or two in the two-pawns variant
}

// PawnView is one hat pawn on the track.
type PawnView struct {
	Name  string `json:"name"`  // "" with one pawn; "a" or "b" in the two-pawns variant
	Space int    `json:"space"` // 0 to 80
	Rank  int    `json:"rank"`  // place in the race, 1 for the furthest ahead (ties share a place)
	// Pending is the space effect waiting for the owner's next turn:
	// "bet" (paid before moving), "pound" (may stay and take or give 10),
	// "police" (hat turned over: next turn discards a Rumor), "leave"
	// (must leave the Police space this turn), or "".
	Pending string `json:"pending,omitempty"`
	Home    bool   `json:"home,omitempty"` // arrived in London (space 80)
	// With Pending "bet": BetPays is what the Bet would pay if the owner's
	// turn began now (0: this place is not on the space), and BetDead
	// that the space pays no place in this game (the 4/5/6 space with 2
	// or 3 players).
	BetPays int  `json:"bet_pays,omitempty"`
	BetDead bool `json:"bet_dead,omitempty"`
}

// SpaceView is one space of the track.
type SpaceView struct {
	Number int    `json:"number"`
	Kind   string `json:"kind"`           // "london", "layover", "passepartout", "bet", "pound" or "police"
	City   string `json:"city,omitempty"` // Layovers and London: the city on Fogg's route
	Bets   []int  `json:"bets,omitempty"` // Bet spaces: the race positions that pay (1, 2, 3 or 4, 5, 6)
	Red    bool   `json:"red,omitempty"`  // the last Layover before London is printed red
	// CityKey is City's item key; NameSay names the space for a player:
	// "Bet 4/5/6", "Calcutta (Layover)".
	CityKey string      `json:"city_key,omitempty"`
	NameSay engine.Text `json:"name_say"`
}

// CardView is one Passepartout card.
type CardView struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`      // "event" (applies when drawn) or "character" (kept, played later)
	Effect    string `json:"effect"`    // what it does, in a few words
	Reshuffle bool   `json:"reshuffle"` // carries the reshuffle symbol
	NameKey   string `json:"name_key"`
	// KindSay is the kind with the reshuffle mark: "character ↻".
	KindSay   engine.Text `json:"kind_say"`
	EffectSay engine.Text `json:"effect_say"`
}

// View implements engine.State. The game's only secret is the order of the
// Passepartout deck, so every seat sees the same things; a *View is returned.
func (s *State) View(seat engine.Seat) any { return s.ViewFor(seat) }

// ViewFor is View with its concrete type.
func (s *State) ViewFor(seat engine.Seat) *View {
	v := &View{
		Seat: seat, Variant: s.Variant, Round: s.Round, Turn: engine.Seat(s.Turn), First: engine.Seat(s.First),
		Track: s.rules.TrackView(), DeckSize: len(s.Deck), Over: s.Over(),
		Discard: s.cardViews(s.Discard), Drawn: s.cardViews(s.Drawn),
	}
	if len(v.Drawn) == 0 {
		v.Drawn = nil
	}
	if s.Over() {
		v.Winners = []engine.Seat{engine.Seat(s.Winner)}
	}
	for i, t := range s.Seats {
		pv := PlayerView{Seat: engine.Seat(i), Pounds: t.Pounds, Rumors: t.Rumors, Characters: s.cardViews(t.Characters)}
		for k, p := range t.Pawns {
			name := ""
			if len(t.Pawns) > 1 {
				name = string(rune('a' + k))
			}
			pw := PawnView{Name: name, Space: p.Space, Rank: s.Rank(p.Space), Pending: p.Pending, Home: p.Space == LondonEnd}
			if p.Pending == PendingBet {
				pw.BetDead = s.betDead(p.Space)
				if s.betPays(p.Space, pw.Rank) {
					pw.BetPays = pw.Rank * PositionPayPerRank
				}
			}
			pv.Pawns = append(pv.Pawns, pw)
		}
		v.Players = append(v.Players, pv)
	}
	return v
}

// TrackView describes the track for views and images.
func (r *Rules) TrackView() []SpaceView {
	track := make([]SpaceView, len(r.content.Track))
	for n, sp := range r.content.Track {
		track[n] = SpaceView{Number: n, Kind: sp.Kind, City: sp.City, Bets: append([]int(nil), sp.Bets...), Red: sp.Red, NameSay: r.events.spaces[n]}
		if sp.City != "" {
			track[n].CityKey = keyCity + itoa(n)
		}
	}
	return track
}

// CardView describes the card at index c of the content.
func (r *Rules) CardView(c int) CardView {
	card := r.content.Cards[c]
	return CardView{ID: card.ID, Name: card.Name, Kind: card.Kind, Effect: card.Effect(), Reshuffle: card.Reshuffle,
		NameKey: r.keys.card[c], KindSay: engine.Say(cardKindID(&card)), EffectSay: r.events.effects[c]}
}

func (s *State) cardViews(cards []int) []CardView {
	out := make([]CardView, len(cards))
	for i, c := range cards {
		out[i] = s.rules.CardView(c)
	}
	return out
}
