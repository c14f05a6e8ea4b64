package imaging

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// chartSample is a five-round game of four players, as a report gives it.
func chartSample() Progress {
	return Progress{Kind: "crystalpalace", Rounds: []int{0, 1, 2, 3, 4, 5}, Scores: [][]int{
		{5, 5, 5, 5}, {9, 12, 7, 6}, {17, 15, 13, 10}, {22, 26, 20, 18}, {30, 31, 34, 21}, {41, 38, 47, 29},
	}}
}

func TestChartDrawsEverySeat(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Chart(chartSample(), en(legibleNames[:4]))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != ChartWidth || b.Dy() != ChartHeight {
		t.Fatalf("size %v, want %d×%d", b, ChartWidth, ChartHeight)
	}
	count := map[rgb]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			count[rgb(cr>>8<<16|cg>>8<<8|cb>>8)]++
		}
	}
	for seat := range 4 {
		if n := count[seatColor(seat)]; n < 2000 {
			t.Errorf("seat %d's colour covers %d pixels: its line is missing", seat+1, n)
		}
	}
	if n := count[seatColor(4)]; n > 0 {
		t.Errorf("a fifth seat's colour covers %d pixels in a game of four", n)
	}
}

func TestChartRefusesMismatchedScores(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Progress{
		{Kind: "crystalpalace"},
		{Kind: "crystalpalace", Rounds: []int{0, 1}, Scores: [][]int{{1, 2}}},
		{Kind: "crystalpalace", Rounds: []int{0, 1}, Scores: [][]int{{1, 2}, {3}}},
		{Kind: "crystalpalace", Rounds: []int{0}, Scores: [][]int{make([]int, maxSeats+1)}},
	} {
		if _, err := r.Chart(p, en(nil)); err == nil {
			t.Errorf("%+v drew", p)
		}
	}
}

// A long race's chart thins its marks and labels but still draws.
func TestChartOfALongRace(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	p := Progress{Kind: "eightydays"}
	for round := 0; round <= 45; round++ {
		p.Rounds = append(p.Rounds, round)
		p.Scores = append(p.Scores, []int{round * 2, round * 3 / 2, round, round / 2, round * 7 / 4, round})
	}
	if _, err := r.Chart(p, en(legibleNames)); err != nil {
		t.Fatal(err)
	}
}

// TestChartIsLegibleAtDiscordsSize draws the chart in each language,
// shrinks it to the box Discord's desktop client shows a message's own
// image in (550×350) and to 400 pixels wide (a phone's column), and has
// tesseract read back the title, every name with its final score and
// the axes' words. MEEPLE_CHART_DIR keeps the pictures there.
func TestChartIsLegibleAtDiscordsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("reads images with tesseract")
	}
	tess := tesseract(t, "deu", "fra")
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("MEEPLE_CHART_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, lang := range []string{"en", "de", "fr"} {
		w := wordsIn(t, lang, cpRules(t), legibleNames[:4])
		got, err := r.Chart(chartSample(), w)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "chart-"+lang+".png"), got, 0o644); err != nil {
			t.Fatal(err)
		}
		want := []string{"Ada 41", "Brunel 38", "Cole 47", "Dickens 29", say(w, "image.chart.axis.crystalpalace"), say(w, "image.chart.rounds")}
		for _, width := range []int{shownW, 400} {
			path := filepath.Join(dir, "chart-"+lang+"-"+strconv.Itoa(width)+".png")
			if err := writeWidth(path, got, width); err != nil {
				t.Fatal(err)
			}
			text, err := ocr(tess, path, lang)
			if err != nil {
				t.Fatal(err)
			}
			read := strings.Join(ocrWords(text), " ")
			for _, f := range want {
				if !strings.Contains(read, strings.Join(ocrWords(f), " ")) {
					t.Errorf("%s at %d pixels wide: %q does not read back; read %q", lang, width, f, read)
				}
			}
		}
	}
}

// writeWidth writes the PNG img shrunk to width pixels wide, as
// writeShown does.
func writeWidth(path string, img []byte, width int) error {
	src, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		return err
	}
	b := src.Bounds()
	return writeScaled(path, src, width, b.Dy()*width/b.Dx())
}
