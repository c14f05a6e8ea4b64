// Package crystalpalace holds the rules of Crystal Palace (2-5 players):
// its content as embedded data files (content/), the game state and its
// actions, views, rules summaries and computer players. It implements the
// engine contract and imports nothing of ours but the engine packages; it does
// no I/O besides reading content from an fs.FS. Rules values are safe for
// concurrent use; states are not.
package crystalpalace
