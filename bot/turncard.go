package bot

import (
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/transport"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
)

// cardTagPrefix marks the phase tag (rolePhase) of a board posted as a
// turn card. A board posted before the turn cards has a tag without it,
// so the next time its game moves its tag differs: a new card is posted
// and the old board keeps its embed, never edited into a mixed form
// (Discord refuses to give a message with content or embeds the card's
// flag).
const cardTagPrefix = "c."

// cardTag is the phase tag of a turn card for st: a short tag, since the
// store keeps ids of at most 64 bytes.
func cardTag(st engine.State) string { return cardTagPrefix + roundTag(st) }

// isCardTag reports whether a board's phase tag is a turn card's.
func isCardTag(tag string) bool { return strings.HasPrefix(tag, cardTagPrefix) }

// withPing puts a ping's text in board m: a card's first line, above its
// container, or a classic message's content.
func withPing(m transport.Message, ping mention) transport.Message {
	m.Mentions = ping.users
	switch {
	case ping.text == "":
	case m.Card:
		m.Components = append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: ping.text}}, m.Components...)
	default:
		m.Content = ping.text
	}
	return m
}

// maxLastCards bounds lastCards: past it an arbitrary entry goes.
const maxLastCards = 4096

// lastCards remembers the last card each board message was given, so
// that a board a new phase replaces keeps its text and picture when its
// buttons go (publisher.retire). It is memory only: after a restart a
// replaced board says only that it was replaced.
type lastCards struct {
	mu sync.Mutex
	by map[string]transport.Message // by message id: the card without its actions or upload
}

func newLastCards() *lastCards { return &lastCards{by: map[string]transport.Message{}} }

// keep remembers m as message id's card.
func (lc *lastCards) keep(id string, m transport.Message) {
	if !m.Card {
		return
	}
	m = withoutActions(m)
	m.Image, m.Alt, m.Mentions = nil, "", nil // the upload stays on the message
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if _, ok := lc.by[id]; !ok && len(lc.by) >= maxLastCards {
		for k := range lc.by {
			delete(lc.by, k)
			break
		}
	}
	lc.by[id] = m
}

// retired is message id's card without its actions, and forgets it; a
// card it does not know says, in tr's language, that it was replaced.
func (lc *lastCards) retired(id string, tr *locale.Printer) transport.Message {
	lc.mu.Lock()
	m, ok := lc.by[id]
	delete(lc.by, id)
	lc.mu.Unlock()
	if ok {
		return m
	}
	accent := neutralAccent
	return transport.Message{Card: true, Components: []discordgo.MessageComponent{
		discordgo.Container{AccentColor: &accent, Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: tr.T("board.replaced")}}},
	}}
}
