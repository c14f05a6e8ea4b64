package typeset

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
)

//go:embed emoji/sheet.png
var emojiSheet []byte

//go:embed emoji/index.txt
var emojiIndex string

// Emoji sheet geometry: cells of cellSize pixels with one pixel of padding
// on every side (emoji-datasource's layout).
const (
	cellSize = 32
	cellStep = cellSize + 2
)

// atlas is the emoji picture sheet and which sequence is in which cell.
type atlas struct {
	sheet image.Image
	cells []image.Point
	text  []bool           // drawn as text unless U+FE0F asks for a picture
	index map[string]int32 // by the sequence's runes without U+FE0F
}

func loadAtlas() (*atlas, error) {
	sheet, err := png.Decode(bytes.NewReader(emojiSheet))
	if err != nil {
		return nil, fmt.Errorf("typeset: emoji sheet: %w", err)
	}
	a := &atlas{sheet: sheet, index: map[string]int32{}}
	sc := bufio.NewScanner(strings.NewReader(emojiIndex))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			return nil, fmt.Errorf("typeset: emoji index line %d: %q", n, sc.Text())
		}
		var key []rune
		for _, h := range strings.Split(f[0], "-") {
			r, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				return nil, fmt.Errorf("typeset: emoji index line %d: %w", n, err)
			}
			key = append(key, rune(r))
		}
		x, errX := strconv.Atoi(f[1])
		y, errY := strconv.Atoi(f[2])
		if errX != nil || errY != nil || (x+1)*cellStep > sheet.Bounds().Dx() || (y+1)*cellStep > sheet.Bounds().Dy() {
			return nil, fmt.Errorf("typeset: emoji index line %d: bad cell %q %q", n, f[1], f[2])
		}
		a.index[string(key)] = int32(len(a.cells))
		a.cells = append(a.cells, image.Pt(x*cellStep+1, y*cellStep+1))
		a.text = append(a.text, len(f) > 3 && f[3] == "t")
	}
	return a, sc.Err()
}

// find returns the cell of the sequence rs (without U+FE0F).
func (a *atlas) find(rs []rune) (int, bool) {
	i, ok := a.index[string(rs)]
	return int(i), ok
}

func (a *atlas) has(rs []rune) bool {
	_, ok := a.find(rs)
	return ok
}

// pictureByDefault reports whether r alone is an emoji drawn as a picture
// even without U+FE0F (Emoji_Presentation).
func (a *atlas) pictureByDefault(r rune) bool {
	i, ok := a.find([]rune{r})
	return ok && !a.text[i]
}

// image returns cell i scaled to side×side pixels.
func (a *atlas) image(i, side int) *image.RGBA {
	src := image.Rectangle{Min: a.cells[i], Max: a.cells[i].Add(image.Pt(cellSize, cellSize))}
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	if side == cellSize {
		draw.Draw(dst, dst.Bounds(), a.sheet, src.Min, draw.Src)
		return dst
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), a.sheet, src, draw.Src, nil)
	return dst
}

// Characters that shape emoji sequences.
const (
	zwj     = '\u200D'
	vs15    = '\uFE0E' // text presentation
	vs16    = '\uFE0F' // emoji presentation
	keycap  = '\u20E3'
	tagLow  = 0xE0020
	tagHigh = 0xE007F
)

func skinTone(r rune) bool          { return r >= 0x1F3FB && r <= 0x1F3FF }
func regionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }

// emojiCells returns the pictures that draw the grapheme cluster rs, or
// false when it is text. A cluster in the sheet is one picture; a
// character that is text by default (♥, ©) is a picture only with U+FE0F
// or when no font draws it. A sequence the sheet lacks (a newer family,
// a tone on a base that takes none) is drawn as its parts, as Unicode
// recommends.
func (l *Library) emojiCells(rs []rune) ([]int, bool) {
	picture, text := false, false
	key := make([]rune, 0, len(rs))
	for _, r := range rs {
		switch r {
		case vs16:
			picture = true
		case vs15:
			text = true
		default:
			key = append(key, r)
		}
	}
	if len(key) == 0 {
		return nil, false
	}
	if i, ok := l.emoji.find(key); ok {
		if (text || (l.emoji.text[i] && !picture)) && len(key) == 1 && l.textDraws(key[0]) {
			return nil, false
		}
		return []int{i}, true
	}
	sequence := false
	for _, r := range key {
		sequence = sequence || r == zwj || r == keycap || skinTone(r) || regionalIndicator(r) || (r >= tagLow && r <= tagHigh)
	}
	if !sequence {
		return nil, false
	}
	var cells []int
	for _, part := range splitRunes(key, zwj) {
		if i, ok := l.emoji.find(part); ok {
			cells = append(cells, i)
			continue
		}
		for _, r := range part {
			if r >= tagLow && r <= tagHigh {
				continue
			}
			i, ok := l.emoji.find([]rune{r})
			if !ok {
				return nil, false
			}
			cells = append(cells, i)
		}
	}
	return cells, len(cells) > 0
}

func splitRunes(rs []rune, sep rune) [][]rune {
	var out [][]rune
	start := 0
	for i, r := range rs {
		if r == sep {
			out = append(out, rs[start:i])
			start = i + 1
		}
	}
	return append(out, rs[start:])
}

// emojiSide is the side of an emoji picture in text of size pixels, and
// emojiAdvance the room it takes on the line.
func emojiSide(size int) int    { return (size*9 + 4) / 8 }
func emojiAdvance(size int) int { return emojiSide(size) + max(1, size/8) }
