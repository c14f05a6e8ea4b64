package imaging

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// Golden comparison tolerance: a pixel differs when any channel is off by
// more than pixelTolerance, and an image matches when at most
// maxDiffFraction of its pixels differ (antialiasing noise, never a piece
// or a number).
const (
	pixelTolerance  = 24
	maxDiffFraction = 0.0005
)

var (
	sharedOnce     sync.Once
	sharedRenderer *Renderer
	sharedErr      error
)

// testRenderer returns one Renderer for the whole test binary: building
// the palette's lookup table takes a moment.
func testRenderer(t testing.TB) *Renderer {
	t.Helper()
	sharedOnce.Do(func() { sharedRenderer, sharedErr = New() })
	if sharedErr != nil {
		t.Fatalf("New: %v", sharedErr)
	}
	return sharedRenderer
}

// checkGolden compares the PNG got with testdata/<name>.png by decoded
// pixels. With -update it rewrites the golden instead. On a mismatch it
// writes <name>.actual.png and <name>.diff.png next to the golden and names
// them in the failure.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden image %s (run go test ./imaging -update to create it): %v", path, err)
	}
	gotImg, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("%s: rendered bytes are not a PNG: %v", name, err)
	}
	wantImg, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: golden is not a PNG: %v", path, err)
	}
	diff, n, err := comparePixels(wantImg, gotImg)
	if err == nil && float64(n) <= maxDiffFraction*float64(gotImg.Bounds().Dx()*gotImg.Bounds().Dy()) {
		return
	}
	actualPath := filepath.Join("testdata", name+".actual.png")
	diffPath := filepath.Join("testdata", name+".diff.png")
	if werr := os.WriteFile(actualPath, got, 0o644); werr != nil {
		t.Errorf("writing %s: %v", actualPath, werr)
	}
	if err != nil {
		t.Fatalf("%s: %v; actual image written to %s", path, err, actualPath)
	}
	if werr := writePNG(diffPath, diff); werr != nil {
		t.Errorf("writing %s: %v", diffPath, werr)
	}
	t.Errorf("%s: %d pixels differ from the golden; see %s and %s (rerun with -update if the change is intended)",
		path, n, actualPath, diffPath)
}

// comparePixels counts the pixels of got that differ from want beyond the
// tolerance and returns an image marking them in red over a faded want.
func comparePixels(want, got image.Image) (*image.RGBA, int, error) {
	wb, gb := want.Bounds(), got.Bounds()
	if wb.Size() != gb.Size() {
		return nil, 0, fmt.Errorf("size %v, golden is %v", gb.Size(), wb.Size())
	}
	diff := image.NewRGBA(image.Rect(0, 0, wb.Dx(), wb.Dy()))
	n := 0
	wantAt, gotAt := pixelReader(want), pixelReader(got)
	for y := 0; y < wb.Dy(); y++ {
		for x := 0; x < wb.Dx(); x++ {
			w := wantAt(wb.Min.X+x, wb.Min.Y+y)
			g := gotAt(gb.Min.X+x, gb.Min.Y+y)
			if channelDiff(w.R, g.R) > pixelTolerance || channelDiff(w.G, g.G) > pixelTolerance ||
				channelDiff(w.B, g.B) > pixelTolerance || channelDiff(w.A, g.A) > pixelTolerance {
				n++
				diff.SetRGBA(x, y, color.RGBA{0xFF, 0, 0, 0xFF})
				continue
			}
			grey := uint8((int(w.R) + int(w.G) + int(w.B)) / 3)
			grey = 0xFF - (0xFF-grey)/4
			diff.SetRGBA(x, y, color.RGBA{grey, grey, grey, 0xFF})
		}
	}
	return diff, n, nil
}

// pixelReader returns a fast way to read img's pixels as NRGBA: paletted
// images (what the renderer writes) look their palette up once.
func pixelReader(img image.Image) func(x, y int) color.NRGBA {
	if p, ok := img.(*image.Paletted); ok {
		pal := make([]color.NRGBA, len(p.Palette))
		for i, c := range p.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		return func(x, y int) color.NRGBA { return pal[p.Pix[p.PixOffset(x, y)]] }
	}
	return func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
}

func channelDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func TestComparePixels(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 10))
	b := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for i := range a.Pix {
		v := uint8(100)
		if i%4 == 3 {
			v = 0xFF
		}
		a.Pix[i], b.Pix[i] = v, v
	}
	b.Pix[0] = 100 + pixelTolerance // within tolerance
	b.Pix[4*55+1] = 100 + pixelTolerance + 1
	b.Pix[4*99+2] = 0
	diff, n, err := comparePixels(a, b)
	if err != nil || n != 2 {
		t.Fatalf("comparePixels = %d, %v; want 2 differing pixels", n, err)
	}
	if c := diff.RGBAAt(5, 5); c != (color.RGBA{0xFF, 0, 0, 0xFF}) {
		t.Errorf("diff at the changed pixel = %v, want red", c)
	}
	if c := diff.RGBAAt(0, 0); c.R != c.G {
		t.Errorf("diff at a pixel within tolerance = %v, want grey", c)
	}
	if _, _, err := comparePixels(a, image.NewRGBA(image.Rect(0, 0, 10, 11))); err == nil {
		t.Error("comparePixels accepted images of different sizes")
	}
}
