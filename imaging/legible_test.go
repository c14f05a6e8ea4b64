package imaging

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	xdraw "golang.org/x/image/draw"
)

// The size Discord's desktop client shows a message's lone image
// attachment within (docs/architecture.md, "How big Discord shows an
// image"): the glance is posted that way.
const (
	shownW = 550
	shownH = 350
)

// legibleNames are plain display names, so that what the test measures is
// the size of the text, not the fonts' coverage of scripts.
var legibleNames = []string{"Ada", "Brunel", "Cole", "Dickens", "Eliot", "Faraday"}

// legiblePosition is a position to read, with the glance it must show.
type legiblePosition struct {
	name  string
	state engine.State
}

// legiblePositions plays seeded games of each kind and keeps positions
// spread over every player count and every phase: Crystal Palace with 2
// to 5 players at each of its seven phases and at the end, 80 Days with 2
// to 6 players (one pawn and two) during the race and at the end.
func legiblePositions(t *testing.T) []legiblePosition {
	var out []legiblePosition
	cpr, edr := cpRules(t), edRules(t)
	// Crystal Palace: one game per player count, sampled at the first
	// decision of each phase of its first round, then at its end.
	phases := map[int]bool{}
	for n := 2; n <= 5; n++ {
		s, err := cpr.New(engine.Setup{Players: n, Seed: uint64(100 + n)})
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(uint64(200 + n))
		seen := map[string]bool{}
		for step := 0; step < 4000 && !s.Over() && len(seen) < 7; step++ {
			v := s.View(engine.Spectator).(*cp.View)
			key := fmt.Sprintf("%d", v.Phase)
			if !seen[key] && (v.Phase != 1 || step > 0) {
				seen[key] = true
				phases[v.Phase] = true
				out = append(out, legiblePosition{fmt.Sprintf("cp%d-round%d-phase%d", n, v.Round, v.Phase), s.Clone()})
			}
			if _, err := ai.PlayOut(s, randomPlayers(n), &rng, 1); err != nil {
				t.Fatal(err)
			}
		}
		if n == 3 || n == 5 {
			end := position{fmt.Sprintf("cp%d-legible-end", n), cpr, engine.Setup{Players: n, Seed: uint64(300 + n)}, -1}.play(t)
			out = append(out, legiblePosition{end.Phase().Key(), end})
			out[len(out)-1].name = fmt.Sprintf("cp%d-end", n)
		}
	}
	// Phase 7 (the next round's set-up) asks nobody anything, so no board
	// is posted in it.
	for ph := 1; ph <= 6; ph++ {
		if !phases[ph] {
			t.Errorf("no Crystal Palace position in phase %d", ph)
		}
	}
	// 80 Days: four points of a race per player count, one game of them
	// with two pawns each, and finished games.
	for n := 2; n <= 6; n++ {
		for i, actions := range []int{3, 9 * n, 14 * n, 20 * n} {
			setup := engine.Setup{Players: n, Seed: uint64(400 + 10*n + i)}
			if i == 3 && n == 2 {
				setup.Options = map[string]string{"variant": "two-pawns"}
			}
			name := fmt.Sprintf("ed%d-%d", n, actions)
			out = append(out, legiblePosition{name, position{name, edr, setup, actions}.play(t)})
		}
		if n%2 == 0 {
			name := fmt.Sprintf("ed%d-end", n)
			out = append(out, legiblePosition{name, position{name, edr, engine.Setup{Players: n, Seed: uint64(500 + n)}, -1}.play(t)})
		}
	}
	return out
}

func randomPlayers(n int) []engine.Player {
	ps := make([]engine.Player, n)
	for i := range ps {
		ps[i] = ai.Random{}
	}
	return ps
}

// TestGlancesAreLegibleAtDiscordsSize draws the glance of positions of
// both games, shrinks each to the size Discord shows it (fitting 550×350,
// as a browser scales), and has tesseract read it back. At least 95% of
// the headline facts (every player's name and figures, and the words of
// the round and phase) must read back exactly.
func TestGlancesAreLegibleAtDiscordsSize(t *testing.T) {
	if testing.Short() {
		t.Skip("reads dozens of images with tesseract")
	}
	tess := tesseract(t)
	positions := legiblePositions(t)
	cps, eds := 0, 0
	for _, p := range positions {
		if strings.HasPrefix(p.name, "cp") {
			cps++
		} else {
			eds++
		}
	}
	if cps < 20 || eds < 20 {
		t.Fatalf("%d Crystal Palace and %d 80 Days positions; want at least 20 of each", cps, eds)
	}
	checkGlancesLegible(t, tess, "en", positions)
}

// TestGermanAndFrenchGlancesAreLegible does the same in German and
// French for the golden positions, read by tesseract in the language
// (its Debian packages tesseract-ocr-deu and tesseract-ocr-fra).
func TestGermanAndFrenchGlancesAreLegible(t *testing.T) {
	if testing.Short() {
		t.Skip("reads images with tesseract")
	}
	tess := tesseract(t, "deu", "fra")
	var states []legiblePosition
	for _, p := range positions(t) {
		states = append(states, legiblePosition{p.name, p.play(t)})
	}
	for _, lang := range []string{"de", "fr"} {
		checkGlancesLegible(t, tess, lang, states)
	}
}

// checkGlancesLegible draws the glances of positions in lang, shrinks
// each to the size Discord shows it and checks that at least 95% of the
// headline facts read back.
func checkGlancesLegible(t *testing.T, tess, lang string, positions []legiblePosition) {
	checkShownGlances(t, tess, lang, positions, shownW, shownH, glanceFacts, 0.95)
}

// checkShownGlances draws the glances of positions in lang, shrinks each
// to fit boxW×boxH, has tesseract read them (a few at once) and checks
// that at least the share least of the facts factsOf lists read back. It
// returns how many read back of how many.
func checkShownGlances(t *testing.T, tess, lang string, positions []legiblePosition, boxW, boxH int, factsOf func(Glance, []string) []fact, least float64) (read, facts int) {
	t.Helper()
	r := testRenderer(t)
	cpr, edr := cpRules(t), edRules(t)
	// MEEPLE_LEGIBLE_DIR keeps the shrunk glances to look at.
	dir := os.Getenv("MEEPLE_LEGIBLE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	type result struct {
		read, facts int
		missed      []string
	}
	results := make([]result, len(positions))
	paths := make([]string, len(positions))
	glances := make([]Glance, len(positions))
	for i, p := range positions {
		view := p.state.View(engine.Spectator)
		rules := edr
		if strings.HasPrefix(p.name, "cp") {
			rules = cpr
		}
		w := wordsIn(t, lang, rules, legibleNames)
		g, err := GlanceOf(view, w)
		if err != nil {
			t.Fatal(err)
		}
		img, err := r.Glance(view, w)
		if err != nil {
			t.Fatal(err)
		}
		glances[i] = g
		paths[i] = filepath.Join(dir, lang+"-"+p.name+".png")
		if err := writeShown(paths[i], img, boxW, boxH); err != nil {
			t.Fatal(err)
		}
	}
	texts, err := ocrAll(tess, paths, lang)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		g := glances[i]
		facts := factsOf(g, legibleNames[:len(g.Seats)])
		res := result{facts: len(facts)}
		for _, f := range facts {
			if f.readIn(text) {
				res.read++
			} else {
				res.missed = append(res.missed, f.String())
			}
		}
		results[i] = res
		if testing.Verbose() {
			t.Logf("%s: %d of %d read\n%s", positions[i].name, res.read, res.facts, text)
		}
	}
	for i, res := range results {
		read += res.read
		facts += res.facts
		if len(res.missed) > 0 {
			t.Logf("%s: missed %s", positions[i].name, strings.Join(res.missed, "; "))
		}
	}
	t.Logf("%s: %d of %d facts (%.1f%%) read back from %d glances shrunk to fit %d×%d", lang, read, facts, 100*float64(read)/float64(facts), len(positions), boxW, boxH)
	if float64(read) < least*float64(facts) {
		t.Errorf("%s: only %d of %d facts (%.1f%%) read back at %d×%d; want at least %.0f%%", lang, read, facts, 100*float64(read)/float64(facts), boxW, boxH, 100*least)
	}
	return read, facts
}

// writeShown writes the PNG img shrunk to fit boxW×boxH, as Discord's
// client scales it, then enlarged three times (see writeScaled).
func writeShown(path string, img []byte, boxW, boxH int) error {
	src, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		return err
	}
	b := src.Bounds()
	scale := min(float64(boxW)/float64(b.Dx()), float64(boxH)/float64(b.Dy()), 1)
	return writeScaled(path, src, int(float64(b.Dx())*scale+0.5), int(float64(b.Dy())*scale+0.5))
}

// writeScaled writes src shrunk to w×h, as a client scales it, then
// enlarged three times, which adds no detail: tesseract's models read
// capitals some 30 pixels high.
func writeScaled(path string, src image.Image, w, h int) error {
	if _, ok := src.(*image.RGBA); !ok { // the scaler's fast path: a tenth of the time
		rgba := image.NewRGBA(src.Bounds())
		draw.Draw(rgba, rgba.Bounds(), src, src.Bounds().Min, draw.Src)
		src = rgba
	}
	shown := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(shown, shown.Bounds(), src, src.Bounds(), xdraw.Src, nil)
	big := image.NewRGBA(image.Rect(0, 0, 3*w, 3*h))
	xdraw.NearestNeighbor.Scale(big, big.Bounds(), shown, shown.Bounds(), xdraw.Src, nil)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, big); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// ocr reads an image with tesseract in lang ("en", "de", "fr"), one
// thread a process (the test runs several at once).
func ocr(tess, path, lang string) (string, error) {
	return ocrWithin(tess, path, lang, 2*time.Minute)
}

// ocrWithin is ocr, given up after limit.
func ocrWithin(tess, path, lang string, limit time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	tl := "eng"
	if l, ok := tessReading[lang]; ok {
		tl = l
	}
	cmd := exec.CommandContext(ctx, tess, path, "-", "-l", tl, "--psm", "6")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("tesseract: %w", err)
	}
	return string(out), nil
}

// ocrAll reads the images at paths with tesseract in lang, as ocr does,
// and returns their texts in the same order. Tesseract reads a list of
// images in one process, so its models load once a list rather than once
// an image (half the work for an image this size); the paths are split
// into as many lists as there are processors, read at once.
func ocrAll(tess string, paths []string, lang string) ([]string, error) {
	texts := make([]string, len(paths))
	n := max(1, min(runtime.GOMAXPROCS(0), len(paths)))
	errs := make([]error, n)
	var wg sync.WaitGroup
	for b := range n {
		lo, hi := b*len(paths)/n, (b+1)*len(paths)/n
		wg.Add(1)
		go func() {
			defer wg.Done()
			list := filepath.Join(filepath.Dir(paths[lo]), fmt.Sprintf("ocr-%s-%d.txt", filepath.Base(paths[lo]), b))
			if err := os.WriteFile(list, []byte(strings.Join(paths[lo:hi], "\n")+"\n"), 0o644); err != nil {
				errs[b] = err
				return
			}
			text, err := ocrWithin(tess, list, lang, time.Duration(hi-lo)*time.Minute) // a minute an image: the machine may be busy
			if err != nil {
				errs[b] = err
				return
			}
			// tesseract ends each image's text with a form feed
			pages := strings.Split(strings.TrimSuffix(text, "\f"), "\f")
			if len(pages) != hi-lo {
				errs[b] = fmt.Errorf("tesseract read %d pages from a list of %d images", len(pages), hi-lo)
				return
			}
			copy(texts[lo:hi], pages)
		}()
	}
	wg.Wait()
	return texts, errors.Join(errs...)
}

// fact is one headline fact: words that must read back in order on one
// line, after the words of its row's name when it belongs to a row.
type fact struct {
	row   []string // the seat's name, or nil
	words []string
}

func (f fact) String() string {
	if f.row == nil {
		return strings.Join(f.words, " ")
	}
	return strings.Join(f.row, " ") + ": " + strings.Join(f.words, " ")
}

// glanceFacts are what must be read: each word of the stage, each decider's
// name, and each seat's name and figures.
func glanceFacts(g Glance, names []string) []fact {
	var out []fact
	for _, w := range ocrWords(g.Stage) {
		out = append(out, fact{words: []string{w}})
	}
	for _, d := range g.Decisions {
		for _, s := range d.Seats {
			out = append(out, fact{words: ocrWords(names[s])})
		}
	}
	for seat, s := range g.Seats {
		name := ocrWords(names[seat])
		out = append(out, fact{words: name})
		for _, f := range s.Figures {
			for _, part := range strings.Split(f.Value, ", ") {
				if words := ocrWords(part); len(words) > 0 { // not a dash for no place
					out = append(out, fact{row: name, words: words})
				}
			}
		}
	}
	return out
}

// readIn reports whether text holds the fact: its words in order on one
// line (on its row's line, after the name; a pawn's second position may be
// on the line under it).
func (f fact) readIn(text string) bool {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		words := ocrWords(line)
		if f.row == nil {
			if indexWords(words, f.words) >= 0 {
				return true
			}
			continue
		}
		at := indexWords(words, f.row)
		if at < 0 {
			continue
		}
		if indexWords(words[at+len(f.row):], f.words) >= 0 {
			return true
		}
		if i+1 < len(lines) && indexWords(ocrWords(lines[i+1]), f.words) >= 0 {
			return true
		}
	}
	return false
}

// ocrWords splits s into words without the punctuation around them.
func ocrWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// indexWords is where want starts in words, or -1.
func indexWords(words, want []string) int {
	for i := 0; i+len(want) <= len(words); i++ {
		match := true
		for j := range want {
			if words[i+j] != want[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}
