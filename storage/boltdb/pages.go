package boltdb

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	"github.com/meeplegames/meeple/storage"
)

// The page check reads a bbolt file with ordinary reads, never through a
// memory map, and bounds every offset before it follows it, so that no
// damage can make it fault or panic. It walks what bbolt would walk (the
// newest valid header, the freelist, every bucket's tree of pages) and
// refuses anything bbolt could not read safely: a page number outside the
// file, a page of the wrong kind or with the wrong number in its header, an
// element or key that runs past its page, keys out of order, a page used
// twice, or a page neither in use nor free. bbolt's own checker runs in a
// goroutine of its own where a memory fault cannot be caught; this one runs
// in the caller's.

// bbolt's on-disk layout (version 2), in the machine's byte order
// (little-endian on every platform Meeple runs on).
const (
	pageHeaderSize  = 16 // id u64, flags u16, count u16, overflow u32
	elementSize     = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	bucketHeader    = 16 // root pgid u64, sequence u64; an inline page follows when root is 0
	flagBranch      = 0x01
	flagLeaf        = 0x02
	flagMeta        = 0x04
	flagFreelist    = 0x10
	flagBucketEntry = 0x01
	maxTreeDepth    = 64
)

// noFreelist is the freelist page id of a file that does not store one.
const noFreelist = ^uint64(0)

// boltMeta is the part of bbolt's meta page the check needs.
type boltMeta struct {
	pageSize uint32
	root     uint64 // page id of the root bucket's tree
	freelist uint64 // page id of the freelist
	pgid     uint64 // high-water mark: pages in use
	txid     uint64
}

// readMeta reads and validates the bbolt meta page at offset: a 16-byte page
// header, then magic, version, page size, flags, root bucket (16 bytes),
// freelist page, high-water mark, transaction id and an FNV-64a checksum of
// everything before it.
func readMeta(r io.ReaderAt, offset int64) (boltMeta, bool) {
	const metaLen = 64
	buf := make([]byte, pageHeaderSize+metaLen)
	if _, err := r.ReadAt(buf, offset); err != nil {
		return boltMeta{}, false
	}
	m := buf[pageHeaderSize:]
	le := binary.LittleEndian
	const magic, version = 0xED0CDAED, 2
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint32(m[0:]) != magic || le.Uint32(m[4:]) != version || le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, true
}

// newestMeta returns the header bbolt would use: the valid one of the two
// with the higher transaction id.
func newestMeta(r io.ReaderAt) (boltMeta, bool) {
	m0, ok0 := readMeta(r, 0)
	offset := int64(4096)
	if ok0 {
		offset = int64(m0.pageSize)
	}
	m1, ok1 := readMeta(r, offset)
	if ok1 && (!ok0 || m1.txid > m0.txid) {
		return m1, true
	}
	return m0, ok0
}

// isBoltFile reports whether the file at path starts like a bbolt database
// (either header page is valid). An empty file is not one.
func isBoltFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	_, ok := newestMeta(f)
	return ok
}

// pageCheck is one walk over a file's pages.
type pageCheck struct {
	r        io.ReaderAt
	pageSize int
	hwm      uint64
	state    []byte   // per page: 0 not seen, pageUsed, pageFree
	bufs     [][]byte // a page buffer per depth of the walk, reused
}

const (
	pageUsed = 1
	pageFree = 2
)

// checkFile checks the structure of the bbolt file open in f, of size
// bytes. Its errors wrap ErrCorrupt and name the damaged page. It does not
// decode Meeple's records (Store.Verify does).
func checkFile(f io.ReaderAt, size int64) (err error) {
	defer func() { // belt and braces: the walk bounds everything it reads
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the page check stopped: %v", storage.ErrCorrupt, r)
		}
	}()
	if err := checkLength(f, size); err != nil {
		return err
	}
	m, _ := newestMeta(f)
	c := &pageCheck{r: f, pageSize: int(m.pageSize), hwm: m.pgid, state: make([]byte, m.pgid)}
	c.state[0], c.state[1] = pageUsed, pageUsed
	if err := c.freelist(m.freelist); err != nil {
		return err
	}
	if err := c.tree(m.root, "the root bucket", 0); err != nil {
		return err
	}
	for id := uint64(2); id < c.hwm; id++ {
		if c.state[id] == 0 {
			return fmt.Errorf("%w: page %d is neither in use nor free (the file's index of free pages is damaged)", storage.ErrCorrupt, id)
		}
	}
	return nil
}

// checkLength checks the headers and that the file holds every page the
// newest header counts: bbolt maps the file into memory and would fault
// reading past its end. It is all that must hold before bbolt opens a file.
func checkLength(f io.ReaderAt, size int64) error {
	m, ok := newestMeta(f)
	if !ok {
		if size < 2*1024 {
			return fmt.Errorf("%w: the file is only %d bytes, too short for a database", storage.ErrCorrupt, size)
		}
		return fmt.Errorf("%w: both header pages are damaged, or this is not a Meeple database", storage.ErrCorrupt)
	}
	if m.pageSize < 512 || m.pageSize > 1<<20 || m.pageSize&(m.pageSize-1) != 0 {
		return fmt.Errorf("%w: the header gives a page size of %d bytes", storage.ErrCorrupt, m.pageSize)
	}
	switch {
	case m.pgid < 3:
		return fmt.Errorf("%w: the header counts only %d pages", storage.ErrCorrupt, m.pgid)
	case m.pgid > uint64(size)/uint64(m.pageSize) && m.pgid < 1<<40:
		return fmt.Errorf("%w: the file is truncated: %d bytes, the database needs %d", storage.ErrCorrupt, size, m.pgid*uint64(m.pageSize))
	case m.pgid > uint64(size)/uint64(m.pageSize):
		return fmt.Errorf("%w: the header counts %d pages in a file of %d bytes", storage.ErrCorrupt, m.pgid, size)
	}
	if m.root < 2 || m.root >= m.pgid {
		return fmt.Errorf("%w: the header's root page %d is outside the file", storage.ErrCorrupt, m.root)
	}
	// bbolt reads the freelist while opening: check its header here.
	if m.freelist != noFreelist {
		c := &pageCheck{r: f, pageSize: int(m.pageSize), hwm: m.pgid}
		if _, err := c.read(m.freelist, flagFreelist, "the index of free pages", 0); err != nil {
			return err
		}
	}
	return nil
}

// read reads page id with its overflow pages and checks its header: its
// own id and a kind among want (flag bits). The page is read into the
// buffer of depth, which the next read at that depth reuses.
func (c *pageCheck) read(id uint64, want uint16, what string, depth int) ([]byte, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: page %d (%s) is damaged: %s", storage.ErrCorrupt, id, what, fmt.Sprintf(format, args...))
	}
	if id < 2 || id >= c.hwm {
		return nil, fmt.Errorf("%w: %s points to page %d, outside the file's %d pages", storage.ErrCorrupt, what, id, c.hwm)
	}
	for len(c.bufs) <= depth {
		c.bufs = append(c.bufs, make([]byte, c.pageSize))
	}
	first := c.bufs[depth][:c.pageSize]
	if _, err := c.r.ReadAt(first, int64(id)*int64(c.pageSize)); err != nil {
		return nil, bad("reading it: %v", err)
	}
	le := binary.LittleEndian
	if got := le.Uint64(first); got != id {
		return nil, bad("its header says page %d", got)
	}
	if flags := le.Uint16(first[8:]); flags&want == 0 || flags&^(flagBranch|flagLeaf|flagMeta|flagFreelist) != 0 || flags&(flags-1) != 0 {
		return nil, bad("unknown page kind %#x", flags)
	}
	overflow := uint64(le.Uint32(first[12:]))
	if overflow >= c.hwm-id {
		return nil, bad("it claims %d more pages, past the end of the file", overflow)
	}
	if overflow == 0 {
		return first, nil
	}
	size := int((overflow + 1) * uint64(c.pageSize))
	if cap(c.bufs[depth]) < size {
		c.bufs[depth] = append(make([]byte, 0, size), first...)
	}
	buf := c.bufs[depth][:size]
	if _, err := c.r.ReadAt(buf[c.pageSize:], int64(id+1)*int64(c.pageSize)); err != nil {
		return nil, bad("reading it: %v", err)
	}
	return buf, nil
}

// mark records pages id … id+overflow as used (or free), refusing a page
// met twice.
func (c *pageCheck) mark(id uint64, pages int, as byte, what string) error {
	for i := uint64(0); i < uint64(pages); i++ {
		p := id + i
		if p >= c.hwm {
			return fmt.Errorf("%w: %s reaches page %d, outside the file's %d pages", storage.ErrCorrupt, what, p, c.hwm)
		}
		if c.state[p] != 0 {
			how := "twice"
			if c.state[p] != as {
				how = "as both in use and free"
			}
			return fmt.Errorf("%w: page %d is listed %s (reached from %s)", storage.ErrCorrupt, p, how, what)
		}
		c.state[p] = as
	}
	return nil
}

// freelist reads the index of free pages and marks them free.
func (c *pageCheck) freelist(id uint64) error {
	if id == noFreelist {
		return nil
	}
	const what = "the index of free pages"
	buf, err := c.read(id, flagFreelist, what, 0)
	if err != nil {
		return err
	}
	if err := c.mark(id, len(buf)/c.pageSize, pageUsed, what); err != nil {
		return err
	}
	le := binary.LittleEndian
	count, at := uint64(le.Uint16(buf[10:])), pageHeaderSize
	if count == 0xFFFF {
		count, at = le.Uint64(buf[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > uint64(len(buf)-at)/8 {
		return fmt.Errorf("%w: page %d (%s) is damaged: it lists %d pages, more than it holds", storage.ErrCorrupt, id, what, count)
	}
	for i := uint64(0); i < count; i++ {
		free := le.Uint64(buf[at+int(i)*8:])
		if free < 2 || free >= c.hwm {
			return fmt.Errorf("%w: page %d (%s) is damaged: it lists page %d, outside the file", storage.ErrCorrupt, id, what, free)
		}
		if err := c.mark(free, 1, pageFree, what); err != nil {
			return err
		}
	}
	return nil
}

// tree walks the tree of pages rooted at id, which belongs to bucket.
func (c *pageCheck) tree(id uint64, bucket string, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("%w: the pages of %s nest more than %d deep", storage.ErrCorrupt, bucket, maxTreeDepth)
	}
	buf, err := c.read(id, flagBranch|flagLeaf, bucket, depth)
	if err != nil {
		return err
	}
	if err := c.mark(id, len(buf)/c.pageSize, pageUsed, bucket); err != nil {
		return err
	}
	if binary.LittleEndian.Uint16(buf[8:]) == flagLeaf {
		return c.leaf(buf, id, bucket, depth)
	}
	return c.branch(buf, id, bucket, depth)
}

// elements returns the page's element count after checking that its
// element table fits.
func elements(page []byte) (int, bool) {
	n := int(binary.LittleEndian.Uint16(page[10:]))
	return n, pageHeaderSize+n*elementSize <= len(page)
}

// span returns page[at : at+size] when it lies inside the page.
func span(page []byte, at, size uint64) ([]byte, bool) {
	if at > uint64(len(page)) || size > uint64(len(page))-at {
		return nil, false
	}
	return page[at : at+size], true
}

func (c *pageCheck) branch(page []byte, id uint64, bucket string, depth int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: page %d (%s) is damaged: %s", storage.ErrCorrupt, id, bucket, fmt.Sprintf(format, args...))
	}
	n, ok := elements(page)
	if !ok || n == 0 {
		return bad("bad element count %d", n)
	}
	le := binary.LittleEndian
	var prev []byte
	for i := 0; i < n; i++ {
		e := pageHeaderSize + i*elementSize
		key, ok := span(page, uint64(e)+uint64(le.Uint32(page[e:])), uint64(le.Uint32(page[e+4:])))
		if !ok {
			return bad("key %d runs past the page", i)
		}
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return bad("keys out of order at element %d", i)
		}
		prev = key
		if err := c.tree(le.Uint64(page[e+8:]), bucket, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// leaf checks a leaf page (or a bucket's inline page) and walks the
// buckets it holds.
func (c *pageCheck) leaf(page []byte, id uint64, bucket string, depth int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: page %d (%s) is damaged: %s", storage.ErrCorrupt, id, bucket, fmt.Sprintf(format, args...))
	}
	n, ok := elements(page)
	if !ok {
		return bad("bad element count %d", n)
	}
	le := binary.LittleEndian
	var prev []byte
	for i := 0; i < n; i++ {
		e := pageHeaderSize + i*elementSize
		flags, pos := le.Uint32(page[e:]), uint64(le.Uint32(page[e+4:]))
		ksize, vsize := uint64(le.Uint32(page[e+8:])), uint64(le.Uint32(page[e+12:]))
		if flags&^flagBucketEntry != 0 {
			return bad("element %d has unknown flags %#x", i, flags)
		}
		key, ok1 := span(page, uint64(e)+pos, ksize)
		value, ok2 := span(page, uint64(e)+pos+ksize, vsize)
		if !ok1 || !ok2 {
			return bad("element %d runs past the page", i)
		}
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return bad("keys out of order at element %d", i)
		}
		prev = key
		if flags&flagBucketEntry == 0 {
			continue
		}
		name := fmt.Sprintf("bucket %q", key)
		if len(value) < bucketHeader {
			return bad("the header of %s is cut short", name)
		}
		if root := le.Uint64(value); root != 0 {
			if err := c.tree(root, name, depth+1); err != nil {
				return err
			}
			continue
		}
		inline := value[bucketHeader:]
		if len(inline) < pageHeaderSize || le.Uint16(inline[8:]) != flagLeaf {
			return bad("%s is stored inline and its page is damaged", name)
		}
		if depth > maxTreeDepth {
			return bad("buckets nest more than %d deep", maxTreeDepth)
		}
		if err := c.leaf(inline, id, name, depth+1); err != nil {
			return err
		}
	}
	return nil
}
