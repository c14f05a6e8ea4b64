// Package typeset lays out and draws one line of text in any script, for
// the game images: a player's display name may hold emoji (with skin
// tones, flags, keycaps and joined sequences), Chinese, Japanese, Korean,
// Arabic or Hebrew (right to left, Arabic letters joined), Indic scripts
// (Odia and Sinhala too), Thai, Lao, Khmer, Burmese, Ethiopic, Mongolian,
// runic letters, Georgian, Armenian or letters with combining accents.
//
// A line is split into grapheme clusters (what a reader sees as one
// character); each cluster is drawn as an emoji picture or in the first
// font of a fallback chain that has all its characters: the Go fonts
// first, so Latin, Greek and Cyrillic text looks and measures exactly as
// before, then subsets of Noto Sans for the other scripts. Runs of one
// font, script and direction are shaped with go-text's port of HarfBuzz
// (ligatures, Arabic joining, Indic reordering, mark placement) and put in
// visual order with the Unicode bidirectional algorithm. Emoji come from
// Twemoji's picture sheet. Fonts, sheet and their licences are embedded
// (fonts/, emoji/), so a line is drawn the same on every machine.
//
// A Library is built once and is read-only afterwards, safe for concurrent
// use. A Setter holds the per-goroutine state (shaper, font faces and
// byte-bounded caches of laid-out lines, glyph masks and scaled emoji); it
// is not safe for concurrent use: take one per render.
//
// Imports: golang.org/x and go-text libraries only; nothing of Meeple's.
package typeset
