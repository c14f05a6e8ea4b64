//go:build ignore

// cjkchars prints the CJK characters Meeple's subset of Noto Sans CJK
// keeps, one hexadecimal code point a line, for build.sh: the ideographs
// of the national standards that cover everyday names (GB 2312 for
// Simplified Chinese, Big5's frequently used level for Traditional Chinese,
// JIS X 0208's first level for Japanese) and the 2,350 Hangul syllables of
// KS X 1001. The encodings' own tables (golang.org/x/text) say
// which characters those are.
//
//	go run cjkchars.go > cjk.txt
package main

import (
	"fmt"
	"os"
	"slices"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

func main() {
	seen := map[rune]bool{}
	// decode adds the characters of the two-byte codes lead×trail.
	decode := func(enc encoding.Encoding, leads, trails [2]int) {
		dec := enc.NewDecoder()
		for a := leads[0]; a <= leads[1]; a++ {
			for b := trails[0]; b <= trails[1]; b++ {
				out, err := dec.Bytes([]byte{byte(a), byte(b)})
				if err != nil {
					continue
				}
				for _, r := range string(out) {
					if r > 0x2E7F && r != 0xFFFD {
						seen[r] = true
					}
				}
			}
		}
	}
	decode(simplifiedchinese.GBK, [2]int{0xB0, 0xF7}, [2]int{0xA1, 0xFE})   // GB 2312 hanzi, both levels
	decode(traditionalchinese.Big5, [2]int{0xA4, 0xC6}, [2]int{0x40, 0xFE}) // Big5 frequently used hanzi
	decode(japanese.EUCJP, [2]int{0xB0, 0xCF}, [2]int{0xA1, 0xFE})          // JIS X 0208 kanji, level 1
	decode(korean.EUCKR, [2]int{0xB0, 0xC8}, [2]int{0xA1, 0xFE})            // KS X 1001 Hangul syllables
	out := make([]rune, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	slices.Sort(out)
	for _, r := range out {
		if _, err := fmt.Fprintf(os.Stdout, "%04X\n", r); err != nil {
			os.Exit(1)
		}
	}
}
