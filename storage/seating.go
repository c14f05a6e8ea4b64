package storage

import (
	"fmt"
	"slices"
	"time"

	"github.com/meeplegames/meeple/engine"
)

// BoardMessage is the role (a key of Game.Messages) under which the bot
// keeps the id of a game's board message; the seat index carries it, so
// that a list of games can link to their boards.
const BoardMessage = "board"

// Wait is one seat an active game waits on: a prompt of that seat is open
// in the game's state. The store keeps a game's waits (Game.Waits) as its
// history changes, and the per-user seat index is made from them.
type Wait struct {
	Seat engine.Seat `json:"seat"`
	// Since is when the game began waiting on the seat: the time of the
	// action (or start, or undo) after which its prompt opened.
	Since time.Time `json:"since"`
}

// Seating is one user's entry in the per-user seat index: an active game
// they hold a seat in, with what a list of their games shows (whether and
// since when it waits on them, its deadline, where its board is), so
// that reading every game of one user is one indexed read of small
// records rather than a read of each game. A store writes a game's
// entries in the transaction that changes the game, and Seatings says
// what they are.
type Seating struct {
	User    string `json:"user"`
	Game    uint64 `json:"game"`
	Kind    string `json:"kind"`
	Guild   string `json:"guild,omitempty"` // empty for a game outside any server
	Channel string `json:"channel"`
	Parent  string `json:"parent,omitempty"`
	Status  Status `json:"status"`
	// Seats are the user's seats at the table; Waiting those of them the
	// game waits on, and Since when the oldest of those waits began
	// (zero when it waits on none).
	Seats   []engine.Seat `json:"seats"`
	Waiting []engine.Seat `json:"waiting,omitempty"`
	Since   time.Time     `json:"since,omitzero"`
	// Deadline is the game's (the same for all its players); zero for none.
	Deadline time.Time `json:"deadline,omitzero"`
	// Board is the id of the board message (Messages[BoardMessage]),
	// empty before one was posted.
	Board   string    `json:"board,omitempty"`
	Created time.Time `json:"created"`
}

// Waits reports whether the game waits on the user.
func (s Seating) Waits() bool { return len(s.Waiting) > 0 }

// Seatings returns the seat index entries of g, one per user seated in
// it, in the order of their first seats; none once g is archived.
func Seatings(g *Game) []Seating {
	if !g.Status.Active() {
		return nil
	}
	var out []Seating
	for _, user := range g.users() {
		st := Seating{
			User: user, Game: g.ID, Kind: g.Kind, Guild: g.Guild, Channel: g.Channel, Parent: g.Parent, Status: g.Status,
			Deadline: g.Deadline, Board: g.Messages[BoardMessage], Created: g.Created,
		}
		for seat, held := range g.Seats {
			if held.User == user {
				st.Seats = append(st.Seats, engine.Seat(seat))
			}
		}
		for _, w := range g.Waits {
			if slices.Contains(st.Seats, w.Seat) {
				st.Waiting = append(st.Waiting, w.Seat)
				if st.Since.IsZero() || w.Since.Before(st.Since) {
					st.Since = w.Since
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// RecSeating is the record kind of a seat index entry.
const RecSeating = "seat index entry"

// EncodeSeating encodes a seat index entry, with its schema and checksum.
func (c Codec) EncodeSeating(s Seating) ([]byte, error) { return c.SealJSON(RecSeating, s) }

// DecodeSeating decodes a seat index entry, refusing a damaged one with
// ErrCorrupt. key names it in errors.
func (c Codec) DecodeSeating(key string, data []byte) (Seating, error) {
	var s Seating
	if err := c.OpenJSON(RecSeating, key, data, &s); err != nil {
		return Seating{}, err
	}
	if s.User == "" || s.Game == 0 || s.Channel == "" || !s.Status.Active() || len(s.Seats) == 0 || len(s.Seats) > MaxSeats {
		return Seating{}, fmt.Errorf("%s record %s: incomplete: %w", RecSeating, key, ErrCorrupt)
	}
	return s, nil
}

// EncodeSeatings encodes the seat index entries of g (see Seatings), by
// user.
func EncodeSeatings(g *Game) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, s := range Seatings(g) {
		data, err := NewCodec().EncodeSeating(s)
		if err != nil {
			return nil, err
		}
		out[s.User] = data
	}
	return out, nil
}

// DecodeSeating decodes a seat index entry as the stores keep it.
func DecodeSeating(key string, data []byte) (Seating, error) {
	return NewCodec().DecodeSeating(key, data)
}

// PromptSeats lists the seats with an open prompt in st, each once, in
// the order of the prompts: what a game waits on (Outcome.Waiting).
func PromptSeats(st engine.State) []engine.Seat {
	var out []engine.Seat
	for _, p := range st.Prompts() {
		if !slices.Contains(out, p.Seat) {
			out = append(out, p.Seat)
		}
	}
	return out
}

// nextWaits is what a game waits on once waiting (the seats with an open
// prompt) follows a change at time at, in which entries were played, from
// a game that waited on old: a seat that still waits and did not act
// keeps the time its wait began; any other begins waiting at at.
func nextWaits(old []Wait, waiting []engine.Seat, entries []Entry, at time.Time) []Wait {
	var out []Wait
	for _, seat := range waiting {
		since := at
		acted := slices.ContainsFunc(entries, func(e Entry) bool { return e.Seat == seat })
		if i := slices.IndexFunc(old, func(w Wait) bool { return w.Seat == seat }); i >= 0 && !acted {
			since = old[i].Since
		}
		out = append(out, Wait{Seat: seat, Since: since.UTC()})
	}
	return out
}

// checkWaiting refuses an Outcome's Waiting that names a seat twice or
// one the table does not have.
func checkWaiting(waiting []engine.Seat, seats int) error {
	for i, s := range waiting {
		if s < 0 || int(s) >= seats || slices.Contains(waiting[:i], s) {
			return fmt.Errorf("%w: waiting on seat %d, which the table does not have or which is named twice", ErrInvalid, s+1)
		}
	}
	return nil
}

func sameWaits(a, b []Wait) bool {
	return slices.EqualFunc(a, b, func(x, y Wait) bool { return x.Seat == y.Seat && x.Since.Equal(y.Since) })
}

// WaitsNow is what a game in state st waits on, every wait begun at at:
// for a game kept before stores kept waits, at its last change.
func WaitsNow(st engine.State, at time.Time) []Wait {
	return nextWaits(nil, PromptSeats(st), nil, at)
}
