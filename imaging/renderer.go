package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/wording"
)

// ErrUnsupportedView means the value given is not a view this package draws.
var ErrUnsupportedView = errors.New("imaging: unsupported view")

// ErrNoMat means there is no private mat to draw for the view: the game has
// none, or the view is a spectator's.
var ErrNoMat = errors.New("imaging: no private mat for this view")

// Renderer draws game images. Build one with New and share it: it is safe
// for concurrent use by many goroutines.
//
// Its caches are bounded by bytes: static backgrounds (layers) up to
// Options.LayerCache, parts of them up to maxPieceBytes, and at most
// maxIdleFaceSets idle font face sets (each with its glyph caches). Frames
// are pooled by size and go at garbage collection.
type Renderer struct {
	fonts   fonts
	pal     *palette
	sprites *sprites

	faces   facePool
	frames  framePool
	encoder png.Encoder

	bgMu       sync.Mutex
	bgs        map[string]*background // static backgrounds by layout key
	bgBytes    int                    // the pixels of bgs
	bgLimit    int                    // the most bgBytes may reach
	bgUses     uint64                 // a clock for the least recently used
	bgSeen     map[string]bool        // layouts drawn once and not cached yet
	pieces     map[string]*image.RGBA // parts of static backgrounds by key
	pieceBytes int                    // the pixels of pieces
	pieceLimit int                    // the most pieceBytes may reach
	cards      cardMemo               // Crystal Palace cards laid out

	// cut, when set (by tests), hears of every text drawn shortened:
	// cut with an ellipsis to fit its room.
	cut func(text string)
}

// background is a cached static layer, and the same quantised to the
// palette so a frame only quantises what it draws over it.
type background struct {
	rgba *image.RGBA
	pal  *image.Paletted
	used uint64       // when it was last used, by Renderer.bgUses; under bgMu
	size atomic.Int64 // bytes of the last PNG drawn over it, to size the next buffer
}

// bytes is the memory a background holds.
func (bg *background) bytes() int { return len(bg.rgba.Pix) + len(bg.pal.Pix) }

// Options are a Renderer's settings; the zero value is the default.
type Options struct {
	// LayerCache is how many bytes of static board layers (a full board's
	// background) the Renderer keeps to draw boards over. Layouts differ
	// by game, player count and geometry (a Crystal Palace board's rows
	// follow the cards on display: four to six layouts a player count),
	// not by what differs between games, which is drawn over them; each
	// takes 5 bytes a pixel (the layer and its quantised copy): 13 MB for
	// a 4-player Crystal Palace board, 7 MB for 80 Days. A layout is
	// cached when it is drawn again soon after (before maxSeenLayouts
	// others), so that boards asked for once in a while do not push out
	// those in use; the least recently used goes when the bound is
	// reached. A board whose layout is not cached is drawn whole, with the
	// same pixels: about 22 ms of CPU for Crystal Palace instead of 12, 13
	// instead of 5 for 80 Days. 0, the default, keeps none: a bot hosting
	// many games rarely draws one layout twice in a row, and every layout
	// kept is memory a small server lacks.
	LayerCache int
}

// maxSeenLayouts is how many layouts drawn once are remembered: a layout
// is cached when it is drawn again before as many others were.
const maxSeenLayouts = 8

// maxPieceBytes bounds the cache of background parts: a Crystal Palace
// location's panel is 0.6-0.9 MB, and the eight panels of one board take
// 5-7 MB, which must fit or every render paints some again (4 MB did not:
// a 4-player board repainted three panels a render). Past the bound an
// arbitrary part goes.
const maxPieceBytes = 8 << 20

// New builds a Renderer with the default options: it parses the embedded
// fonts, builds the palette and draws the sprites, which takes a few
// hundred milliseconds, once.
func New() (*Renderer, error) { return NewWith(Options{}) }

// NewWith builds a Renderer with the options o.
func NewWith(o Options) (*Renderer, error) {
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	r := &Renderer{
		fonts:   f,
		pal:     themePalette(),
		sprites: newSprites(f),
		bgs:     map[string]*background{},
		bgSeen:  map[string]bool{},
		bgLimit: max(o.LayerCache, 0),
		pieces:  map[string]*image.RGBA{},

		pieceLimit: maxPieceBytes,
	}
	r.faces.fonts = f
	r.encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderBuffers{}}
	return r, nil
}

// canvas is one render in progress: its frame, its faces, the words it
// draws with and the renderer.
type canvas struct {
	r  *Renderer
	fs *faceSet
	w  *wording.Words
	*frame
}

// say writes the catalogue message id in the canvas's language.
func (c *canvas) say(id string, args ...any) string { return say(c.w, id, args...) }

// frame is an image being drawn and its quantised copy. A frame drawn over
// a cached background starts as a copy of it and remembers the tiles it
// drew, so that encoding quantises only those.
type frame struct {
	img   *image.RGBA
	pimg  *image.Paletted
	bg    *background // nil for a frame drawn from scratch
	dirty dirtyMap    // tiles changed since the background (bg != nil)
}

// begin starts a frame of the given size drawn with words ws, filled
// from the cached background whose key the function key gives (in ws's
// language), or drawn by paint when that layout is not cached; with paper
// when key is nil. The key is worked out only when layers are cached.
func (r *Renderer) begin(ws *wording.Words, w, h int, key func() string, paint func(c *canvas)) *canvas {
	var bg *background
	if key != nil && r.bgLimit > 0 {
		bg = r.background(ws, w, h, langKey(ws)+"/"+key(), paint)
	}
	if bg == nil {
		c := r.beginBare(ws, w, h)
		c.fill(c.img.Bounds(), colPaper)
		if paint != nil {
			paint(c)
		}
		return c
	}
	c := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: ws}
	c.frame = &frame{img: r.frames.get(w, h), pimg: r.frames.getPaletted(w, h, r.pal), bg: bg}
	copy(c.img.Pix, bg.rgba.Pix)
	copy(c.pimg.Pix, bg.pal.Pix)
	c.dirty.reset(w, h)
	return c
}

// beginBare starts a frame of the given size drawn with words ws, its
// pixels left as the pool gave them: for a picture that paints every
// pixel itself (a glance), which then saves filling it twice.
func (r *Renderer) beginBare(ws *wording.Words, w, h int) *canvas {
	c := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: ws}
	c.frame = &frame{img: r.frames.get(w, h), pimg: r.frames.getPaletted(w, h, r.pal)}
	return c
}

// finish encodes the frame as a paletted PNG and returns the frame and
// faces to their pools.
func (c *canvas) finish() ([]byte, error) {
	defer func() {
		c.r.faces.Put(c.fs)
		c.r.frames.put(c.img)
		c.r.frames.putPaletted(c.pimg)
		c.fs, c.frame = nil, nil
	}()
	return c.r.encode(c.frame)
}

// background returns the cached static layer for key, drawing it with
// paint when the layout is asked for again soon, or nil when it is not
// cached: the first time, or when it alone is over the cache's bound. Two
// goroutines may both draw a missing layer; the first stored wins, which is
// harmless since they are equal.
func (r *Renderer) background(ws *wording.Words, w, h int, key string, paint func(c *canvas)) *background {
	key = fmt.Sprintf("%dx%d/%s", w, h, key)
	r.bgMu.Lock()
	bg, ok := r.bgs[key]
	if ok {
		r.bgUses++
		bg.used = r.bgUses
	}
	cache := !ok && r.bgSeen[key] && 5*w*h <= r.bgLimit
	if !ok && !cache {
		if len(r.bgSeen) >= maxSeenLayouts {
			clear(r.bgSeen)
		}
		r.bgSeen[key] = true
	}
	r.bgMu.Unlock()
	if ok || !cache {
		return bg
	}
	img := r.paintLayer(ws, w, h, paint)
	bg = &background{rgba: img, pal: image.NewPaletted(img.Bounds(), r.pal.colors)}
	r.pal.quantise(bg.pal, bg.rgba, bg.rgba.Bounds())
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	if old, ok := r.bgs[key]; ok {
		return old
	}
	for r.bgBytes+bg.bytes() > r.bgLimit && len(r.bgs) > 0 {
		r.dropLeastRecent()
	}
	delete(r.bgSeen, key)
	r.bgUses++
	bg.used = r.bgUses
	r.bgs[key] = bg
	r.bgBytes += bg.bytes()
	return bg
}

// dropLeastRecent drops the least recently used background; bgMu is held.
func (r *Renderer) dropLeastRecent() {
	var oldest string
	for k, bg := range r.bgs {
		if oldest == "" || bg.used < r.bgs[oldest].used {
			oldest = k
		}
	}
	r.bgBytes -= r.bgs[oldest].bytes()
	delete(r.bgs, oldest)
}

// paintLayer draws a w×h static layer on paper with paint, in ws's words.
func (r *Renderer) paintLayer(ws *wording.Words, w, h int, paint func(c *canvas)) *image.RGBA {
	c := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: ws, frame: &frame{img: image.NewRGBA(image.Rect(0, 0, w, h))}}
	c.fill(c.img.Bounds(), colPaper)
	paint(c)
	r.faces.Put(c.fs)
	return c.img
}

// layoutHash is an FNV-1a hash of what a layout depends on, written
// without allocating: a layer's key is worked out on every render.
type layoutHash uint64

func newLayoutHash() layoutHash { return 14695981039346656037 }

func (h *layoutHash) byte(b byte) { *h = (*h ^ layoutHash(b)) * 1099511628211 }

// str adds s and a separator, so that "ab","c" and "a","bc" differ.
func (h *layoutHash) str(s string) {
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
	h.byte(0xFF)
}

func (h *layoutHash) int(n int) {
	for i := 0; i < 8; i++ {
		h.byte(byte(n >> (8 * i)))
	}
}

func (h *layoutHash) ints(ns []int) {
	h.int(len(ns))
	for _, n := range ns {
		h.int(n)
	}
}

// text adds an engine text: its id and every argument, nested texts too.
func (h *layoutHash) text(t engine.Text) {
	h.str(t.ID)
	h.int(len(t.Args))
	for _, a := range t.Args {
		h.str(a.Name)
		h.str(a.S)
		h.int(int(a.N))
		h.int(int(a.M))
		h.int(int(a.Kind))
		h.bool(a.Sub != nil)
		if a.Sub != nil {
			h.text(*a.Sub)
		}
	}
}

func (h *layoutHash) bool(b bool) {
	if b {
		h.byte(1)
	} else {
		h.byte(0)
	}
}

// piece returns the cached part of a static layer for key, a w×h image on
// paper drawn with paint in ws's words the first time; callers only read
// it. Past maxPieceBytes arbitrary parts go.
func (r *Renderer) piece(ws *wording.Words, key string, w, h int, paint func(c *canvas)) *image.RGBA {
	key = langKey(ws) + "/" + key
	r.bgMu.Lock()
	img, ok := r.pieces[key]
	r.bgMu.Unlock()
	if ok {
		return img
	}
	img = r.paintLayer(ws, w, h, paint)
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	if old, ok := r.pieces[key]; ok {
		return old
	}
	for k, p := range r.pieces {
		if r.pieceBytes+len(img.Pix) <= r.pieceLimit {
			break
		}
		r.pieceBytes -= len(p.Pix)
		delete(r.pieces, k)
	}
	if len(img.Pix) <= r.pieceLimit {
		r.pieces[key] = img
		r.pieceBytes += len(img.Pix)
	}
	return img
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

// encoderBuffers lets png reuse its compression buffers (about 1 MB each)
// across encodes. It keeps a few, not a sync.Pool's worth: a pool is
// emptied by every collection, and a process near its memory limit
// collects often, so each encode would make new buffers.
type encoderBuffers struct {
	mu   sync.Mutex
	idle []*png.EncoderBuffer
}

// maxIdleEncoderBuffers bounds the encoder buffers kept between encodes.
const maxIdleEncoderBuffers = 2

func (e *encoderBuffers) Get() *png.EncoderBuffer {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.idle)
	if n == 0 {
		return nil // png makes one
	}
	b := e.idle[n-1]
	e.idle = e.idle[:n-1]
	return b
}

func (e *encoderBuffers) Put(b *png.EncoderBuffer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.idle) < maxIdleEncoderBuffers {
		e.idle = append(e.idle, b)
	}
}

// maxIdleFaceSets bounds the face sets kept between renders: a render
// takes two at once when it paints a background or a part of it, three
// when it paints both (a part not cached yet). Each set holds a typeset
// Setter, whose caches are bounded by bytes, and its faces, each with a
// glyph cache of 512 masks the size of its font's largest glyph: a few MB
// a set, more with a font whose glyphs are larger.
const maxIdleFaceSets = 2

// facePool keeps a few face sets between renders. Its methods are those
// of sync.Pool, which it replaced: a sync.Pool keeps every set made since
// the last collections, one per render that ran at once.
type facePool struct {
	fonts fonts
	mu    sync.Mutex
	idle  []*faceSet
}

// Get returns an idle face set, or a new one.
func (p *facePool) Get() any {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		fs := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return fs
	}
	return newFaceSet(p.fonts)
}

// Put keeps fs for the next render, unless enough are kept.
func (p *facePool) Put(fs any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) < maxIdleFaceSets {
		p.idle = append(p.idle, fs.(*faceSet))
	}
}

// maxIdleFrameBytes bounds the pixel buffers kept between renders: enough
// for a full board and its quantised copy (13-14 MB for Crystal Palace),
// and a glance (3.5 MB) beside them.
const maxIdleFrameBytes = 20 << 20

// framePool reuses the pixel buffers of frames, whatever their size: a
// frame takes the smallest idle buffer that holds it (Crystal Palace
// boards differ in height from one layout to the next). At most
// maxIdleFrameBytes stay idle; past it the smallest go, since a large
// buffer serves any frame.
type framePool struct {
	mu    sync.Mutex
	idle  [][]byte
	bytes int
}

// buffer returns a buffer of n bytes, its contents undefined.
func (p *framePool) buffer(n int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	best := -1
	for i, b := range p.idle {
		if cap(b) >= n && (best < 0 || cap(b) < cap(p.idle[best])) {
			best = i
		}
	}
	if best < 0 {
		// room for a board a little taller next time: Crystal Palace
		// boards differ in height by layout
		return make([]byte, n, n+n/8)
	}
	b := p.idle[best]
	p.idle = slices.Delete(p.idle, best, best+1)
	p.bytes -= cap(b)
	return b[:n]
}

// release keeps b for another frame, within maxIdleFrameBytes.
func (p *framePool) release(b []byte) {
	if cap(b) > maxIdleFrameBytes {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, b)
	p.bytes += cap(b)
	for p.bytes > maxIdleFrameBytes {
		smallest := 0
		for i, x := range p.idle {
			if cap(x) < cap(p.idle[smallest]) {
				smallest = i
			}
		}
		p.bytes -= cap(p.idle[smallest])
		p.idle = slices.Delete(p.idle, smallest, smallest+1)
	}
}

func (p *framePool) get(w, h int) *image.RGBA {
	return &image.RGBA{Pix: p.buffer(4 * w * h), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
}

func (p *framePool) put(img *image.RGBA) { p.release(img.Pix) }

func (p *framePool) getPaletted(w, h int, pal *palette) *image.Paletted {
	return &image.Paletted{Pix: p.buffer(w * h), Stride: w, Rect: image.Rect(0, 0, w, h), Palette: pal.colors}
}

func (p *framePool) putPaletted(img *image.Paletted) { p.release(img.Pix) }
