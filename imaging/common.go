package imaging

import (
	"fmt"
	"image"
)

// maxNameRunes is the most characters of a display name an image shows.
const maxNameRunes = 16

// seatNames resolves the names a legend shows: names[i] for seat i when
// given (cleaned of anything the fonts cannot draw), "P<i+1>" otherwise.
func (r *Renderer) seatNames(names []string, players int) []string {
	out := make([]string, players)
	for i := range out {
		out[i] = fmt.Sprintf("P%d", i+1)
		if i < len(names) {
			if n := r.fonts.clean(names[i], maxNameRunes); n != "" {
				out[i] = n
			}
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

// legendEntry is one seat in a legend.
type legendEntry struct {
	seat  int
	name  string
	extra string // a short note after the name ("first player", "passed")
}

// legend draws the seats' markers, colours and names in a row from (x, y)
// (y the row's centre), wrapping at maxX, and returns the y of the last
// row's centre.
func (c *canvas) legend(entries []legendEntry, x, y, maxX int) int {
	left := x
	name := style{size: sizeBody, bold: true, color: colInk}
	note := style{size: sizeSmall, color: colInkSoft}
	for _, e := range entries {
		label := e.name + " (" + seatColorName(e.seat) + ")"
		w := pawnSize + 8 + c.fs.width(label, name)
		if e.extra != "" {
			w += 8 + c.fs.width(e.extra, note)
		}
		if x+w > maxX && x > left {
			x = left
			y += pawnSize + 8
		}
		c.marker(e.seat, x+pawnSize/2, y, markPawn)
		tx := x + pawnSize + 8
		tx += c.text(label, tx, y, name)
		if e.extra != "" {
			c.text(e.extra, tx+8, y, note)
		}
		x += w + 28
	}
	return y
}
