package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"sync"
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

	bgMu sync.Mutex
	bgs  map[string]*background // static backgrounds by layout key
}

// background is a cached static layer, and the same quantised to the
// palette so a frame only quantises what it draws over it.
type background struct {
	rgba *image.RGBA
	pal  *image.Paletted
}

// maxBackgrounds bounds the background cache (layouts differ by game,
// player count and content); past it the oldest entries are dropped.
const maxBackgrounds = 32

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
	}
	r.faces.New = func() any { return newFaceSet(f) }
	r.encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderBuffers{}}
	return r, nil
}

// canvas is one render in progress: its frame, its faces and the renderer;
// over a cached background, also the rectangles drawn since.
type canvas struct {
	r     *Renderer
	img   *image.RGBA
	fs    *faceSet
	bg    *background
	dirty dirtyMap
}

// begin starts a frame of the given size, filled from the cached background
// with the key (drawn by paint on first use), or with paper when key is "".
func (r *Renderer) begin(w, h int, key string, paint func(c *canvas)) *canvas {
	c := &canvas{r: r, img: r.frames.get(w, h), fs: r.faces.Get().(*faceSet)}
	if key == "" {
		c.fill(c.img.Bounds(), colPaper)
		return c
	}
	c.bg = r.background(w, h, key, paint)
	c.dirty.reset(w, h)
	copy(c.img.Pix, c.bg.rgba.Pix)
	return c
}

// finish encodes the frame as a paletted PNG and returns the frame and
// faces to their pools.
func (c *canvas) finish() ([]byte, error) {
	defer func() {
		c.r.faces.Put(c.fs)
		c.r.frames.put(c.img)
		c.fs, c.img, c.bg = nil, nil, nil
	}()
	return c.r.encode(c)
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
	c := &canvas{r: r, img: image.NewRGBA(image.Rect(0, 0, w, h)), fs: r.faces.Get().(*faceSet)}
	c.fill(c.img.Bounds(), colPaper)
	paint(c)
	r.faces.Put(c.fs)
	bg = &background{rgba: c.img, pal: image.NewPaletted(c.img.Bounds(), r.pal.colors)}
	r.pal.quantise(bg.pal, bg.rgba, bg.rgba.Bounds())
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	if old, ok := r.bgs[key]; ok {
		return old
	}
	if len(r.bgs) >= maxBackgrounds {
		for k := range r.bgs {
			delete(r.bgs, k)
			break
		}
	}
	r.bgs[key] = bg
	return bg
}

// encode quantises the frame to the palette and encodes it as PNG. Over a
// cached background only the rectangles drawn are quantised; the rest is
// copied from the background's quantised copy.
func (r *Renderer) encode(c *canvas) ([]byte, error) {
	img := c.img
	pimg := r.frames.getPaletted(img.Bounds().Dx(), img.Bounds().Dy(), r.pal)
	defer r.frames.putPaletted(pimg)
	if c.bg == nil {
		r.pal.quantise(pimg, img, img.Bounds())
	} else {
		copy(pimg.Pix, c.bg.pal.Pix)
		c.dirty.runs(func(rect image.Rectangle) { r.pal.quantise(pimg, img, rect) })
	}
	var buf bytes.Buffer
	buf.Grow(96 << 10)
	if err := r.encoder.Encode(&buf, pimg); err != nil {
		return nil, fmt.Errorf("imaging: encode png: %w", err)
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
