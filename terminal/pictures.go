package terminal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// pictures writes the board as everyone sees it, the glance a board
// message on Discord carries beside it (when the renderer draws one) and
// the mat of the person about to play, numbered in the order they were
// drawn.
func (s *Session) pictures() {
	if s.cfg.Renderer == nil || s.cfg.Images == "" {
		return
	}
	s.images++
	s.pictured = s.version
	board, err := s.cfg.Renderer.Board(s.state.View(engine.Spectator), s.pictureWords())
	path, ok := s.writePicture("term.picture_board", fmt.Sprintf("board-%03d.png", s.images), board, err)
	if !ok {
		return
	}
	defer s.prune()
	s.drawn = append(s.drawn, []string{path})
	if g, ok := s.cfg.Renderer.(glancer); ok {
		glance, err := g.Glance(s.state.View(engine.Spectator), s.pictureWords())
		if path, ok := s.writePicture("term.picture_glance", fmt.Sprintf("glance-%03d.png", s.images), glance, err); ok {
			s.drawn[len(s.drawn)-1] = append(s.drawn[len(s.drawn)-1], path)
		}
	}
	seat := s.nextHuman()
	if s.noMats || seat < 0 {
		return
	}
	mat, err := s.cfg.Renderer.Mat(s.state.View(seat), s.pictureWords())
	if err != nil {
		s.noMats = true // this game has no private mats
		return
	}
	if path, ok := s.writePicture("term.picture_mat", fmt.Sprintf("mat-P%d-%03d.png", seat+1, s.images), mat, nil); ok {
		s.drawn[len(s.drawn)-1] = append(s.drawn[len(s.drawn)-1], path)
	}
}

// prune removes the oldest drawings beyond the number to keep.
func (s *Session) prune() {
	for s.cfg.Keep > 0 && len(s.drawn) > s.cfg.Keep {
		for _, path := range s.drawn[0] {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.printf("%s %v\n", s.st.Bad("✗"), err)
			}
		}
		s.drawn = s.drawn[1:]
	}
}

// glancer is a Renderer that also draws the glance, the small picture of a
// board message (*imaging.Renderer).
type glancer interface {
	Glance(view any, w *wording.Words) ([]byte, error)
}

// scorer is a Renderer that also draws the final scores (*imaging.Renderer).
type scorer interface {
	Scores(view any, w *wording.Words) ([]byte, error)
}

// pictureWords are the pictures' words: the session's language, the
// game's names and the seats' names.
func (s *Session) pictureWords() *wording.Words {
	return wording.ForRules(s.cfg.Words, s.cfg.Rules, s.names)
}

// scoresPicture writes the final scores picture, when the renderer draws one.
func (s *Session) scoresPicture() {
	r, ok := s.cfg.Renderer.(scorer)
	if !ok || s.cfg.Images == "" {
		return
	}
	data, err := r.Scores(s.state.View(engine.Spectator), s.pictureWords())
	s.writePicture("term.picture_scores", "scores.png", data, err)
}

// writePicture writes a drawn picture to the images folder and names the
// file, or reports the drawing or writing error; what is the id of the
// picture's name in the catalogue. It returns the file's path and whether
// it was written.
func (s *Session) writePicture(what, name string, data []byte, drawErr error) (string, bool) {
	path := filepath.Join(s.cfg.Images, name)
	err := drawErr
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		s.printf("%s %s\n", s.st.Bad("✗"), s.cfg.Words.T("term.picture_failed", "What", s.cfg.Words.T(what), "Err", err.Error()))
		return "", false
	}
	s.printf("  %s %s\n", s.st.Dim(s.cfg.Words.T(what)+":"), path)
	return path, true
}

// nextHuman is the first person the game waits for, or the first person
// seated; Spectator when nobody plays in person.
func (s *Session) nextHuman() engine.Seat {
	for _, p := range s.state.Prompts() {
		if s.players[p.Seat] == nil {
			return p.Seat
		}
	}
	for i, p := range s.players {
		if p == nil {
			return engine.Seat(i)
		}
	}
	return engine.Spectator
}
