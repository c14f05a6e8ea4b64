package imaging

import (
	"image"
	"strings"
)

// segment is a piece of rich text: words, or a resource icon.
type segment struct {
	text string
	icon *image.RGBA
}

// richSegments turns "+2 gears, +1 energy" into "+2" gear-icon ", +1"
// energy-icon: a number followed by a resource word becomes the number and
// the resource's icon, which reads faster and takes a fifth of the room.
func (c *canvas) richSegments(s string) []segment {
	var out []segment
	var text strings.Builder
	words := strings.Split(s, " ")
	for i, w := range words {
		word := strings.TrimRight(w, ",;.)")
		if icon := c.r.sprites.resourceIcon(word); icon != nil && i > 0 && endsWithDigit(words[i-1]) {
			out = append(out, segment{text: text.String()}, segment{icon: icon})
			text.Reset()
			text.WriteString(w[len(word):])
			continue
		}
		if i > 0 {
			text.WriteByte(' ')
		}
		text.WriteString(w)
	}
	if text.Len() > 0 {
		out = append(out, segment{text: text.String()})
	}
	return out
}

// resourceIcon is the icon of a resource word, or nil.
func (s *sprites) resourceIcon(word string) *image.RGBA {
	switch word {
	case "gear", "gears":
		return s.gear
	case "energy":
		return s.energy
	case "newspaper", "newspapers":
		return s.paper
	}
	return nil
}

func endsWithDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// richText draws s with resource icons in place of resource words, cut
// with an ellipsis at max pixels, and returns the width drawn.
func (c *canvas) richText(s string, x, y, max int, st style) int {
	x0 := x
	ellipsis := c.fs.width("…", st)
	for _, seg := range c.richSegments(s) {
		w := iconSize + 2
		if seg.icon == nil {
			w = c.fs.width(seg.text, st)
		}
		if x+w > x0+max {
			if seg.icon == nil {
				x += c.textFit(seg.text, x, y, x0+max-x, st)
			} else if x+ellipsis <= x0+max {
				x += c.text("…", x, y, st)
			}
			return x - x0
		}
		if seg.icon != nil {
			c.sprite(seg.icon, x+1, y-iconSize/2)
		} else {
			c.text(seg.text, x, y, st)
		}
		x += w
	}
	return x - x0
}
