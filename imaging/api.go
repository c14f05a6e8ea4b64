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
	switch v := view.(type) {
	case *eightydays.View:
		return r.eightyDaysBoard(v, names)
	case eightydays.View:
		return r.eightyDaysBoard(&v, names)
	case *cp.View:
		return r.crystalPalaceBoard(v, names)
	case cp.View:
		return r.crystalPalaceBoard(&v, names)
	}
	return nil, unsupported(view)
}

func unsupported(view any) error {
	return fmt.Errorf("%w: %T", ErrUnsupportedView, view)
}
