// Package imaging draws Meeple's game images as PNG bytes: the public board
// of each game, Crystal Palace's private player mats and a final-scores
// image. It reads only engine views (what a seat may see) and never a game
// state, so an image can never show more than the view it was given; the
// public board also draws every unrevealed die as covered even when the view
// belongs to the die's owner.
//
// A Renderer is built once and is safe for concurrent use: fonts, palette
// and sprites are read-only after construction, every render takes its own
// frame and font faces from pools, and the cache of static backgrounds is
// guarded by a lock. Text is laid out by imaging/typeset from fonts and
// emoji pictures embedded in the binary (the Go fonts, subsets of Noto
// Sans for every other script, Twemoji), so an image draws a display name
// in any script and depends on nothing of the machine it is drawn on.
//
// Every word an image draws is in the reader's language: each render is
// given a *wording.Words, which writes the image's labels from the
// catalogue image.<lang>.toml, names the game's content items in that
// language and knows the seats' display names (see words.go).
//
// Imports: the engine packages, wording and drawing libraries only; never
// bot or storage.
package imaging
