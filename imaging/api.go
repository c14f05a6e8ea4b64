package imaging

import (
	"fmt"

	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// Board draws the public board of a game as a PNG: *eightydays.View or
// *crystalpalace.View (a value or a pointer), in the words of w: its
// language (the image's labels), the game's content names in it, and the
// seats' display names (w.Seat; a seat without one shows as "P1", "P2",
// …). Build w with wording.ForRules for the game, the reader's printer
// and the seats' names. The board shows only public information
// whichever seat the view is for.
func (r *Renderer) Board(view any, w *wording.Words) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *eightydays.View:
		return r.eightyDaysBoard(v, w)
	case *cp.View:
		return r.crystalPalaceBoard(v, w)
	}
	return nil, unsupported(view)
}

// Mat draws the private player mat of the seat the view belongs to, for
// that player's eyes only: a *crystalpalace.View of a seated player, in
// the words of w (see Board): the reader's language. Spectators' views
// and games without mats give ErrNoMat.
func (r *Renderer) Mat(view any, w *wording.Words) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *cp.View:
		return r.crystalPalaceMat(v, w)
	case *eightydays.View:
		return nil, fmt.Errorf("%w: Around the World in 80 Days has no private mats", ErrNoMat)
	}
	return nil, unsupported(view)
}

// Scores draws a game's final scores, broken down by source where the game
// scores by sources (Crystal Palace) and by what each player still holds in
// 80 Days; before the end it draws the standings so far. w gives the
// words, as for Board.
func (r *Renderer) Scores(view any, w *wording.Words) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *cp.View:
		return r.crystalPalaceScores(v, w)
	case *eightydays.View:
		return r.eightyDaysScores(v, w)
	}
	return nil, unsupported(view)
}

// pointerView turns a view passed by value into a pointer to it, so the
// methods above switch on pointer types only.
func pointerView(view any) any {
	switch v := view.(type) {
	case cp.View:
		return &v
	case eightydays.View:
		return &v
	}
	return view
}

func unsupported(view any) error {
	return fmt.Errorf("%w: %T", ErrUnsupportedView, view)
}
