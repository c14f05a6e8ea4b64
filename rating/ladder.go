package rating

import "sort"

// Result is one finished game as the ladder needs it.
type Result struct {
	Kind  string // the game kind ("crystalpalace", …)
	Guild string // the server it was played on
	Seats []Seat // every seat of the game
	// ByVote reports that the players voted the game to an end before its
	// rules ended it: nobody won, and the seats' places are not read.
	ByVote bool
}

// Seat is one seat's outcome and who held it.
type Seat struct {
	// Place is where the seat finished: 1 for a winner; seats with equal
	// places tied.
	Place int
	// Holders are everyone who held the seat, in order; the last one held
	// it when the game ended.
	Holders []Holder
}

// Holder is one spell of a seat in someone's hands.
type Holder struct {
	Player string // a player's id; empty for a computer player
	Left   bool   // the player gave the seat up (resigned, handed it over or was replaced)
}

// How the ladder reads a result. A game is rated among the people in it:
//
//   - Computer players are never rated and leave no trace in the ranking:
//     the people are ranked among themselves by their seats' places.
//   - A person who held a seat from the start to the end is ranked at the
//     seat's place.
//   - A person who left a seat before the end (resigned, handed it over or
//     was replaced) is ranked below everyone who stayed; all who left tie.
//   - A person who took a seat over during the game is not rated for it
//     (they neither gain nor lose), but the game counts in their record.
//   - A person in several seats counts once: below the stayers if they left
//     any seat, otherwise at their best place.
//   - A game with fewer than two rated people changes no rating.
//   - A game its players voted to an end has no winner: everyone who held
//     a seat from the start to the end ties, those who left still rank
//     below them, and nobody's win count grows.
//
// The ladder rates every game in four scopes: its kind on its server, every
// kind on its server, its kind everywhere, every kind everywhere.

// Scope is a set of games rated together. An empty Guild means every
// server; an empty Kind means every kind of game.
type Scope struct {
	Guild string
	Kind  string
}

// Record is one player's standing in one scope.
type Record struct {
	Rating Rating
	Rated  int // games that changed the rating
	Games  int // games played, rated or not
	Wins   int // games in which a seat they held at the end came first
}

// Ladder holds every player's record in every scope, built by applying
// results in order.
type Ladder struct {
	model   Model
	records map[Scope]map[string]*Record
}

// NewLadder returns an empty ladder rating with model.
func NewLadder(model Model) *Ladder {
	return &Ladder{model: model, records: map[Scope]map[string]*Record{}}
}

// Replay builds a ladder from results in the order they finished: the same
// results in the same order always give the same ratings.
func Replay(model Model, results []Result) *Ladder {
	l := NewLadder(model)
	for _, r := range results {
		l.Apply(r)
	}
	return l
}

// entrant is one person's part in one game.
type entrant struct {
	player string
	left   bool // left some seat before the end
	stayed int  // best place of a seat held from start to end; 0 for none
	won    bool // held a winning seat at the end
}

// rated reports whether the game rates this person, and at which rank
// (lower is better): those who left rank below every seat's place.
func (e entrant) rated() (rank int, ok bool) {
	switch {
	case e.left:
		return 1 << 30, true
	case e.stayed > 0:
		return e.stayed, true
	}
	return 0, false
}

// entrants reads a result by the rules above, in the order people first
// appear in it.
func entrants(r Result) []entrant {
	var out []entrant
	index := map[string]int{}
	for _, seat := range r.Seats {
		place := seat.Place
		if r.ByVote {
			place = 1
		}
		for h, holder := range seat.Holders {
			if holder.Player == "" {
				continue
			}
			i, seen := index[holder.Player]
			if !seen {
				i = len(out)
				index[holder.Player] = i
				out = append(out, entrant{player: holder.Player})
			}
			e := &out[i]
			last := h == len(seat.Holders)-1
			switch {
			case holder.Left:
				e.left = true
			case h == 0 && last && (e.stayed == 0 || place < e.stayed):
				e.stayed = max(place, 1)
			}
			if last && !holder.Left && place == 1 && !r.ByVote {
				e.won = true
			}
		}
	}
	return out
}

// Apply adds one finished game to the ladder.
func (l *Ladder) Apply(r Result) {
	people := entrants(r)
	scopes := []Scope{{r.Guild, r.Kind}, {r.Guild, ""}, {"", r.Kind}, {"", ""}}
	for _, scope := range scopes {
		table := l.records[scope]
		if table == nil {
			table = map[string]*Record{}
			l.records[scope] = table
		}
		var teams [][]Rating
		var ranks []int
		var rated []*Record
		for _, e := range people {
			rec := table[e.player]
			if rec == nil {
				rec = &Record{Rating: l.model.New()}
				table[e.player] = rec
			}
			rec.Games++
			if e.won {
				rec.Wins++
			}
			if rank, ok := e.rated(); ok {
				teams = append(teams, []Rating{rec.Rating})
				ranks = append(ranks, rank)
				rated = append(rated, rec)
			}
		}
		if len(rated) < 2 {
			continue
		}
		after, err := l.model.Rate(teams, ranks)
		if err != nil {
			continue // cannot happen: two or more non-empty teams, one rank each
		}
		for i, rec := range rated {
			rec.Rating = after[i][0]
			rec.Rated++
		}
	}
}

// Record returns a player's record in a scope; ok is false when they have
// played no game in it.
func (l *Ladder) Record(scope Scope, player string) (rec Record, ok bool) {
	if r := l.records[scope][player]; r != nil {
		return *r, true
	}
	return Record{}, false
}

// Standing is a player's place on a leaderboard.
type Standing struct {
	Player string
	Record
}

// Top returns up to n players of a scope who have at least one rated game,
// best first by Ordinal; equal ordinals go by more games, then by player id
// so that the order is stable.
func (l *Ladder) Top(scope Scope, n int) []Standing {
	var all []Standing
	for p, r := range l.records[scope] {
		if r.Rated > 0 {
			all = append(all, Standing{Player: p, Record: *r})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if oa, ob := a.Rating.Ordinal(), b.Rating.Ordinal(); oa != ob {
			return oa > ob
		}
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.Player < b.Player
	})
	if n >= 0 && len(all) > n {
		all = all[:n]
	}
	return all
}

// Favourite returns the kind of game a player has played most on a server
// (every server when guild is empty), ties going to the kind named first
// alphabetically; ok is false when they have played none.
func (l *Ladder) Favourite(guild, player string) (kind string, ok bool) {
	best := 0
	for scope, table := range l.records {
		if scope.Guild != guild || scope.Kind == "" {
			continue
		}
		r := table[player]
		if r == nil {
			continue
		}
		if r.Games > best || r.Games == best && scope.Kind < kind {
			kind, best = scope.Kind, r.Games
		}
	}
	return kind, best > 0
}
