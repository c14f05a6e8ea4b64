package terminal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// A secret choice (Crystal Palace's dice values) stays on the screen of
// the seat that made it until the rules reveal it. At one keyboard a saved
// script would show it to whoever opens the file, so a script saved before
// the reveal leaves out every unrevealed choice but the saver's own: it
// holds what every seat may see plus the saver's part, and replays to the
// secret phase with the others still to choose. Once the choices are
// revealed the session writes each such script again, in full, so that
// it replays exactly the game as it was when saved.

// sealed is a script saved with secret choices left out: where it went
// and every move it would hold were nothing hidden.
type sealed struct {
	path  string
	moves []engine.Move
}

// redacted is the script of the game that saver may read: every move but
// the unrevealed secret choices of other seats, and the moves from the
// first one that no longer replays without them. left counts the moves
// left out and names their seats.
func (s *Session) redacted(saver engine.Seat) (moves []engine.Move, left int, seats []string, err error) {
	hidden := make(map[int]bool, len(s.hidden))
	for _, i := range s.hidden {
		if s.moves[i].Seat != saver {
			hidden[i] = true
		}
	}
	if len(hidden) == 0 {
		return s.moves, 0, nil, nil
	}
	// the moves kept must replay on their own: a move after a left-out
	// one may have depended on it (never in the games as printed, where
	// secret choices are simultaneous, but the file must stay a script)
	state, err := s.cfg.Rules.New(s.cfg.Setup)
	if err != nil {
		return nil, 0, nil, err
	}
	cut := false
	for i, m := range s.moves {
		if !cut && !hidden[i] {
			if _, err := state.Apply(m.Seat, m.Action); err == nil {
				moves = append(moves, m)
				continue
			}
			cut = true
		}
		left++
		if name := s.names[m.Seat]; !slices.Contains(seats, name) {
			seats = append(seats, name)
		}
	}
	return moves, left, seats, nil
}

// leftOutNote is the comment that ends a script with secret choices left
// out, in words that give nothing of them away; later says whether the
// session will write the file again after the reveal.
func leftOutNote(left int, seats []string, later bool) string {
	note := fmt.Sprintf("# %d %s by %s left out: secret until the reveal. Replaying this script stops before %s.\n",
		left, plural(left, "action", "actions"), strings.Join(seats, ", "), plural(left, "it", "them"))
	if later {
		note += "# meeple play writes this file again in full once the choices are revealed.\n"
	}
	return note
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reveal writes again, in full, each script saved with secret choices
// left out, now that they are public: when the game still continues from
// what the script held (an undo before the reveal may have replaced a
// choice, and a replaced choice is never revealed, so that script stays
// as it was).
func (s *Session) reveal() {
	for _, sv := range s.sealed {
		if len(sv.moves) > len(s.moves) || !slices.Equal(sv.moves, s.moves[:len(sv.moves)]) {
			s.printf("  %s\n", s.st.Dim(s.cfg.Words.T("term.sealed_kept", "Path", sv.path)))
			continue
		}
		if err := s.writeScript(sv.path, sv.moves, ""); err != nil {
			s.printf("%s %s: %v\n", s.st.Bad("✗"), sv.path, err)
			continue
		}
		s.printf("  %s\n", s.st.Dim(s.cfg.Words.T("term.sealed_written", "Path", sv.path)))
	}
	s.sealed = nil
}
