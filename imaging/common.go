package imaging

import (
	"fmt"
	"image"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging/typeset"
	"github.com/meeplegames/meeple/wording"
)

// maxNameClusters is the most characters of a display name an image
// shows, counted as grapheme clusters (an emoji sequence is one).
const maxNameClusters = 16

// seatNames resolves the names a legend shows: seat i's name as w writes
// it (cleaned of control and formatting characters, shortened, and
// isolated when right to left so a sentence around it keeps its order),
// "P<i+1>" when w has none.
func (r *Renderer) seatNames(w *wording.Words, players int) []string {
	out := make([]string, players)
	for i := range out {
		out[i] = fmt.Sprintf("P%d", i+1)
		if n := r.fonts.clean(w.Seat(engine.Seat(i)), maxNameClusters); n != "" {
			out[i] = typeset.Isolate(n)
		}
	}
	return out
}

// titleHeight is the height of the title bar at the top of every image.
const titleHeight = 52

// titleBar draws the image's title bar: the title on the left and a note
// (round, phase) on the right. Over a cached background that already holds
// the bar and its title (drawn with titleBarStatic), only the note is drawn.
func (c *canvas) titleBar(title, note string) {
	if c.bg == nil {
		c.titleBarStatic(title)
	}
	if note != "" {
		w := c.img.Bounds().Dx()
		tw := c.fs.width(title, style{size: sizeHuge, bold: true})
		c.textFit(note, w-18, titleHeight/2, w-tw-60, style{size: sizeLarge, color: colTitleInk, align: alignRight})
	}
}

// titleBarStatic draws the bar and the title.
func (c *canvas) titleBarStatic(title string) {
	c.fill(image.Rect(0, 0, c.img.Bounds().Dx(), titleHeight), colTitle)
	c.text(title, 18, titleHeight/2, style{size: sizeHuge, bold: true, color: colTitleInk})
}

// gameOverNote is the title note of a finished game: "Game over · Ada won".
func gameOverNote(w *wording.Words, winners []engine.Seat, names []string) string {
	var won []string
	for _, s := range winners {
		if seatIn(s, len(names)) {
			won = append(won, names[s])
		}
	}
	if len(won) == 0 {
		return say(w, "image.game_over")
	}
	return say(w, "image.game_over_won", "Names", and(w, won), "Count", len(won))
}
