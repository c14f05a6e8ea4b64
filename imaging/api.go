package imaging

import (
	"fmt"

	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// Board draws the public board of a game as a PNG: *eightydays.View or
// *crystalpalace.View (a value or a pointer). names[i] is seat i's display
// name for the legend; missing or empty names show as "P1", "P2", …. The
// board shows only public information whichever seat the view is for.
func (r *Renderer) Board(view any, names []string) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *eightydays.View:
		return r.eightyDaysBoard(v, names)
	case *cp.View:
		return r.crystalPalaceBoard(v, names)
	}
	return nil, unsupported(view)
}

// Mat draws the private player mat of the seat the view belongs to, for
// that player's eyes only: a *crystalpalace.View of a seated player.
// Spectators' views and games without mats give ErrNoMat.
func (r *Renderer) Mat(view any, names []string) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *cp.View:
		return r.crystalPalaceMat(v, names)
	case *eightydays.View:
		return nil, fmt.Errorf("%w: Around the World in 80 Days has no private mats", ErrNoMat)
	}
	return nil, unsupported(view)
}

// Scores draws a game's final scores, broken down by source where the game
// scores by sources (Crystal Palace) and by what each player still holds in
// 80 Days; before the end it draws the standings so far.
func (r *Renderer) Scores(view any, names []string) ([]byte, error) {
	switch v := pointerView(view).(type) {
	case *cp.View:
		return r.crystalPalaceScores(v, names)
	case *eightydays.View:
		return r.eightyDaysScores(v, names)
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
