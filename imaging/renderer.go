package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"sync"
	"sync/atomic"
)

// ErrUnsupportedView means the value given is not a view this package draws.
var ErrUnsupportedView = errors.New("imaging: unsupported view")

// ErrNoMat means there is no private mat to draw for the view: the game has
// none, or the view is a spectator's.
var ErrNoMat = errors.New("imaging: no private mat for this view")

// Renderer draws game images. Build one with New and share it: it is safe
// for concurrent use by many goroutines.
type Renderer struct {
	fonts   fonts
	pal     *palette
	sprites *sprites

	faces   sync.Pool // *faceSet
	frames  framePool
	encoder png.Encoder

	bgMu   sync.Mutex
	bgs    map[string]*background // static backgrounds by layout key
	pieces map[string]*image.RGBA // parts of static backgrounds by key
}

// background is a cached static layer, and the same quantised to the
// palette so a frame only quantises what it draws over it.
type background struct {
	rgba   *image.RGBA
	pal    *image.Paletted
	frames sync.Pool    // *frame drawn over this background
	size   atomic.Int64 // bytes of the last PNG drawn over it, to size the next buffer
}

// maxBackgrounds bounds the background cache. Layouts differ by game,
// player count and geometry (a Crystal Palace board's rows follow the cards
// on display: four to six layouts a player count), not by what differs
// between games, which is drawn over them; each is 6-12 MB
// (the layer and its quantised copy). Past the bound an arbitrary entry is
// dropped and redrawn when next needed (about 40 ms).
const maxBackgrounds = 16

// New builds a Renderer: it parses the embedded fonts, builds the palette
// and draws the sprites, which takes a few hundred milliseconds, once.
func New() (*Renderer, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	r := &Renderer{
		fonts:   f,
		pal:     newPalette(),
		sprites: newSprites(f),
		bgs:     map[string]*background{},
		pieces:  map[string]*image.RGBA{},
	}
	r.faces.New = func() any { return newFaceSet(f) }
	r.encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderBuffers{}}
	return r, nil
}

// canvas is one render in progress: its frame, its faces and the renderer.
type canvas struct {
	r  *Renderer
	fs *faceSet
	*frame
}

// frame is an image being drawn and its quantised copy. A frame drawn over
// a cached background belongs to that background's pool and remembers the
// tiles it drew, so the next render restores only those tiles.
type frame struct {
	img   *image.RGBA
	pimg  *image.Paletted
	bg    *background // nil for a frame drawn from scratch
	dirty dirtyMap    // tiles changed since the background (bg != nil)
}

// begin starts a frame of the given size, filled from the cached background
// with the key (drawn by paint on first use), or with paper when key is "".
func (r *Renderer) begin(w, h int, key string, paint func(c *canvas)) *canvas {
	c := &canvas{r: r, fs: r.faces.Get().(*faceSet)}
	if key == "" {
		c.frame = &frame{img: r.frames.get(w, h), pimg: r.frames.getPaletted(w, h, r.pal)}
		c.fill(c.img.Bounds(), colPaper)
		return c
	}
	bg := r.background(w, h, key, paint)
	if f, ok := bg.frames.Get().(*frame); ok {
		f.dirty.runs(func(rect image.Rectangle) {
			copyRect(f.img.Pix, bg.rgba.Pix, f.img.Stride, 4, rect)
			copyRect(f.pimg.Pix, bg.pal.Pix, f.pimg.Stride, 1, rect)
		})
		c.frame = f
	} else {
		c.frame = &frame{img: image.NewRGBA(bg.rgba.Bounds()), pimg: image.NewPaletted(bg.pal.Bounds(), r.pal.colors), bg: bg}
		copy(c.img.Pix, bg.rgba.Pix)
		copy(c.pimg.Pix, bg.pal.Pix)
	}
	c.dirty.reset(w, h)
	return c
}

// copyRect copies the rows of rect (clipped to the image) from src to dst,
// images of the same stride with bpp bytes a pixel.
func copyRect(dst, src []byte, stride, bpp int, rect image.Rectangle) {
	w := stride / bpp
	x0, x1 := max(rect.Min.X, 0), min(rect.Max.X, w)
	rows := len(dst) / stride
	for y := max(rect.Min.Y, 0); y < min(rect.Max.Y, rows); y++ {
		o := y * stride
		copy(dst[o+x0*bpp:o+x1*bpp], src[o+x0*bpp:o+x1*bpp])
	}
}

// finish encodes the frame as a paletted PNG and returns the frame and
// faces to their pools.
func (c *canvas) finish() ([]byte, error) {
	defer func() {
		c.r.faces.Put(c.fs)
		if c.bg != nil {
			c.bg.frames.Put(c.frame)
		} else {
			c.r.frames.put(c.img)
			c.r.frames.putPaletted(c.pimg)
		}
		c.fs, c.frame = nil, nil
	}()
	return c.r.encode(c.frame)
}

// background returns the cached static layer for key, drawing it with
// paint the first time. Two goroutines may both draw a missing layer; the
// first stored wins, which is harmless since they are equal.
func (r *Renderer) background(w, h int, key string, paint func(c *canvas)) *background {
	key = fmt.Sprintf("%dx%d/%s", w, h, key)
	r.bgMu.Lock()
	bg, ok := r.bgs[key]
	r.bgMu.Unlock()
	if ok {
		return bg
	}
	img := r.paintLayer(w, h, paint)
	bg = &background{rgba: img, pal: image.NewPaletted(img.Bounds(), r.pal.colors)}
	r.pal.quantise(bg.pal, bg.rgba, bg.rgba.Bounds())
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	return storeBounded(r.bgs, key, bg, maxBackgrounds)
}

// paintLayer draws a w×h static layer on paper with paint.
func (r *Renderer) paintLayer(w, h int, paint func(c *canvas)) *image.RGBA {
	c := &canvas{r: r, fs: r.faces.Get().(*faceSet), frame: &frame{img: image.NewRGBA(image.Rect(0, 0, w, h))}}
	c.fill(c.img.Bounds(), colPaper)
	paint(c)
	r.faces.Put(c.fs)
	return c.img
}

// storeBounded stores v under key in m unless another was stored first,
// which it returns instead, dropping an arbitrary entry past bound.
func storeBounded[V any](m map[string]V, key string, v V, bound int) V {
	if old, ok := m[key]; ok {
		return old
	}
	if len(m) >= bound {
		for k := range m {
			delete(m, k)
			break
		}
	}
	m[key] = v
	return v
}

// maxPieces bounds the cache of background parts, each well under 1 MB.
const maxPieces = 128

// piece returns the cached part of a static layer for key, a w×h image on
// paper drawn with paint the first time; callers only read it.
func (r *Renderer) piece(key string, w, h int, paint func(c *canvas)) *image.RGBA {
	r.bgMu.Lock()
	img, ok := r.pieces[key]
	r.bgMu.Unlock()
	if ok {
		return img
	}
	img = r.paintLayer(w, h, paint)
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	return storeBounded(r.pieces, key, img, maxPieces)
}

// encode quantises the frame to the palette and encodes it as PNG. Over a
// cached background only the tiles drawn are quantised; the rest already
// holds the background's quantised pixels.
func (r *Renderer) encode(f *frame) ([]byte, error) {
	if f.bg == nil {
		r.pal.quantise(f.pimg, f.img, f.img.Bounds())
	} else {
		f.dirty.runs(func(rect image.Rectangle) { r.pal.quantise(f.pimg, f.img, rect) })
	}
	// Paletted boards compress to a few percent of their pixels; over a
	// background the last image's size is the better guess.
	hint := len(f.pimg.Pix) / 12
	if f.bg != nil {
		if n := f.bg.size.Load(); n > 0 {
			hint = int(n) + int(n)/8
		}
	}
	var buf bytes.Buffer
	buf.Grow(hint)
	if err := r.encoder.Encode(&buf, f.pimg); err != nil {
		return nil, fmt.Errorf("imaging: encode png: %w", err)
	}
	if f.bg != nil {
		f.bg.size.Store(int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

// encoderBuffers lets png reuse its compression buffers across encodes.
type encoderBuffers struct{ pool sync.Pool }

func (e *encoderBuffers) Get() *png.EncoderBuffer {
	b, _ := e.pool.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderBuffers) Put(b *png.EncoderBuffer) { e.pool.Put(b) }

// framePool reuses frames by size.
type framePool struct {
	mu       sync.Mutex
	rgba     map[image.Point]*sync.Pool
	paletted map[image.Point]*sync.Pool
}

func (p *framePool) pool(m *map[image.Point]*sync.Pool, w, h int) *sync.Pool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if *m == nil {
		*m = map[image.Point]*sync.Pool{}
	}
	k := image.Pt(w, h)
	sp, ok := (*m)[k]
	if !ok {
		sp = &sync.Pool{}
		(*m)[k] = sp
	}
	return sp
}

func (p *framePool) get(w, h int) *image.RGBA {
	if img, ok := p.pool(&p.rgba, w, h).Get().(*image.RGBA); ok {
		return img
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

func (p *framePool) put(img *image.RGBA) {
	b := img.Bounds()
	p.pool(&p.rgba, b.Dx(), b.Dy()).Put(img)
}

func (p *framePool) getPaletted(w, h int, pal *palette) *image.Paletted {
	if img, ok := p.pool(&p.paletted, w, h).Get().(*image.Paletted); ok {
		return img
	}
	return image.NewPaletted(image.Rect(0, 0, w, h), pal.colors)
}

func (p *framePool) putPaletted(img *image.Paletted) {
	b := img.Bounds()
	p.pool(&p.paletted, b.Dx(), b.Dy()).Put(img)
}
