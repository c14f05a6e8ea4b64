package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	xdraw "golang.org/x/image/draw"
)

// tessLanguages are tesseract's names of the catalogues' languages.
var tessLanguages = map[string]string{"de": "deu", "fr": "fra"}

// tessReading is what tesseract reads a language with: its own model, and
// the English one beside it, which reads the figures' zeros (the Go
// fonts' dotted 0) that the German model takes for letters.
var tessReading = map[string]string{"de": "deu+eng", "fr": "fra+eng"}

// TestGermanAndFrenchHeadersReadBack draws a board of each game in German
// and French at full size and has tesseract, in that language, read back
// the headers: the administration board's panels of Crystal Palace and the
// travellers' table of 80 Days, each word whole (none cut, none covered).
func TestGermanAndFrenchHeadersReadBack(t *testing.T) {
	tess := tesseract(t, "deu", "fra")
	r := testRenderer(t)
	dir := t.TempDir()
	for lang, tl := range tessLanguages {
		cpp, edp := findPosition(t, "cp4-midgame"), findPosition(t, "ed4-midgame")
		// Crystal Palace: each panel's header band on the right.
		cw := wordsIn(t, lang, cpp.rules, legibleNames)
		cv := cpp.play(t).View(engine.Spectator).(*cp.View)
		board, err := r.Board(cv, cw)
		if err != nil {
			t.Fatal(err)
		}
		m := &canvas{r: r, fs: newFaceSet(r.fonts), w: cw}
		l := m.newCPLayout(cv, r.seatNames(cw, cv.Players))
		for box, id := range map[string]string{"market": "cp.image.black_market", "buzz": "cp.image.buzz_track",
			"income": "cp.image.income_track", "supply": "cp.image.supply", "waiting": "cp.image.waiting"} {
			rect := l.rightBox[box]
			band := image.Rect(rect.Min.X+2, rect.Min.Y+2, rect.Max.X-2, rect.Min.Y+cpHeadH)
			readBack(t, tess, tl, filepath.Join(dir, lang+"-"+box+".png"), board, band, say(cw, id))
		}
		// 80 Days: the travellers' table's header, column by column.
		ew := wordsIn(t, lang, edp.rules, legibleNames)
		board, err = r.Board(edp.play(t).View(engine.Spectator), ew)
		if err != nil {
			t.Fatal(err)
		}
		cols := []struct {
			x, end int
			id     string
		}{{edColName, edColSpace, "ed.image.col.traveller"}, {edColRumors, edColNext, "ed.image.col.rumors"},
			{edColNext, edColChars, "ed.image.col.next"}, {edColChars, edW - 2*edTrackX, "ed.image.col.characters"}}
		for _, col := range cols {
			band := image.Rect(edTrackX+col.x+2, edTableY+1, edTrackX+col.end-2, edTableY+edHeadH-1)
			readBack(t, tess, tl, filepath.Join(dir, lang+"-"+col.id+".png"), board, band, say(ew, col.id))
		}
	}
}

// tesseract is the path of the tesseract command, which must read the
// languages named (tesseract's codes: "deu", "fra"; English always);
// the test is skipped, saying why, when it is missing or lacks one, or
// fails when MEEPLE_REQUIRE_TESSERACT is set (.ci/run sets it after
// installing tesseract, so CI never skips these tests).
func tesseract(t *testing.T, langs ...string) string {
	t.Helper()
	missing := t.Skipf
	if os.Getenv("MEEPLE_REQUIRE_TESSERACT") != "" {
		missing = t.Fatalf
	}
	tess, err := exec.LookPath("tesseract")
	if err != nil {
		missing("tesseract is not installed (Debian: apt-get install tesseract-ocr tesseract-ocr-deu tesseract-ocr-fra); .ci/run installs it")
	}
	have, err := exec.Command(tess, "--list-langs").CombinedOutput()
	if err != nil {
		t.Fatalf("tesseract --list-langs: %v", err)
	}
	for _, l := range langs {
		if !strings.Contains(string(have), l) {
			missing("tesseract lacks %s (Debian: tesseract-ocr-%s); .ci/run installs it", l, l)
		}
	}
	return tess
}

// readBack crops band out of the PNG board, as dark text on light grey
// three times enlarged (tesseract's models read capitals some 30 pixels
// high), reads it as one line in tesseract's language tl and checks that
// the words of want are among what it read.
func readBack(t *testing.T, tess, tl, path string, board []byte, band image.Rectangle, want string) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(board))
	if err != nil {
		t.Fatal(err)
	}
	grey := image.NewGray(image.Rect(0, 0, band.Dx(), band.Dy()))
	dark := 0
	for y := 0; y < band.Dy(); y++ {
		for x := 0; x < band.Dx(); x++ {
			g := color.GrayModel.Convert(img.At(band.Min.X+x, band.Min.Y+y)).(color.Gray)
			grey.SetGray(x, y, g)
			if g.Y < 128 {
				dark++
			}
		}
	}
	if 2*dark > band.Dx()*band.Dy() { // light text on a dark band: invert
		for i, v := range grey.Pix {
			grey.Pix[i] = 255 - v
		}
	}
	big := image.NewGray(image.Rect(0, 0, 3*band.Dx(), 3*band.Dy()))
	xdraw.CatmullRom.Scale(big, big.Bounds(), grey, grey.Bounds(), xdraw.Src, nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, big); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tess, path, "-", "-l", tl, "--psm", "7")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tesseract: %v", err)
	}
	if indexWords(ocrWords(string(out)), ocrWords(want)) < 0 {
		t.Errorf("%s: %q does not read back; tesseract read %q", filepath.Base(path), want, strings.TrimSpace(string(out)))
	}
}
