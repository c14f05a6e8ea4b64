package imaging

import "image"

// dirtyTile is the side of the tiles a frame's changes are tracked in.
const dirtyTile = 16

// dirtyMap records which tiles of a frame were drawn over since the
// background was copied, so encoding quantises each changed pixel once.
type dirtyMap struct {
	cols, rows int
	bits       []bool
}

func (d *dirtyMap) reset(w, h int) {
	d.cols, d.rows = (w+dirtyTile-1)/dirtyTile, (h+dirtyTile-1)/dirtyTile
	n := d.cols * d.rows
	if cap(d.bits) < n {
		d.bits = make([]bool, n)
	}
	d.bits = d.bits[:n]
	clear(d.bits)
}

// mark records rect, clipped to the frame.
func (d *dirtyMap) mark(rect image.Rectangle) {
	rect = rect.Intersect(image.Rect(0, 0, d.cols*dirtyTile, d.rows*dirtyTile))
	if rect.Empty() {
		return
	}
	x0, x1 := rect.Min.X/dirtyTile, (rect.Max.X-1)/dirtyTile
	for ty := rect.Min.Y / dirtyTile; ty <= (rect.Max.Y-1)/dirtyTile; ty++ {
		row := d.bits[ty*d.cols : (ty+1)*d.cols]
		for tx := x0; tx <= x1; tx++ {
			row[tx] = true
		}
	}
}

// runs calls f with each horizontal run of marked tiles as a rectangle.
func (d *dirtyMap) runs(f func(image.Rectangle)) {
	for ty := 0; ty < d.rows; ty++ {
		row := d.bits[ty*d.cols : (ty+1)*d.cols]
		for tx := 0; tx < d.cols; tx++ {
			if !row[tx] {
				continue
			}
			start := tx
			for tx < d.cols && row[tx] {
				tx++
			}
			f(image.Rect(start*dirtyTile, ty*dirtyTile, tx*dirtyTile, (ty+1)*dirtyTile))
		}
	}
}
