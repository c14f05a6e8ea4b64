package transport

import (
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on a card (a Components V2 message).
const (
	MaxCardComponents = 40   // every component, nested ones included
	MaxCardText       = 4000 // the characters of all its text displays
	maxGalleryItems   = 10
)

// fitCard returns card m within Discord's limits for Components V2: no
// content or embeds; text displays clipped to what is left of the
// 4,000 characters; action rows fitted as on any message; galleries of 1
// to 10 items (an empty one left out); and no more than 40 components,
// those past the limit dropped from the end.
func fitCard(m Message) Message {
	m.Content, m.Embeds = "", nil
	f := cardFitter{text: MaxCardText, room: MaxCardComponents}
	m.Components = f.fit(m.Components)
	return m
}

// cardFitter fits a card's components in order, counting what is left.
type cardFitter struct {
	text int // characters left for text displays
	room int // components left
}

func (f *cardFitter) fit(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, c := range cs {
		if c, ok := f.one(c); ok {
			out = append(out, c)
		}
	}
	return out
}

// one fits c, or reports that it has no room.
func (f *cardFitter) one(c discordgo.MessageComponent) (discordgo.MessageComponent, bool) {
	switch c := c.(type) {
	case discordgo.Container:
		if f.room < 2 { // itself and one inside
			return nil, false
		}
		f.room--
		c.Components = f.fit(c.Components)
		return c, len(c.Components) > 0
	case discordgo.TextDisplay:
		if f.room < 1 || f.text < 1 {
			return nil, false
		}
		c.Content = Clip(c.Content, f.text)
		f.room--
		f.text -= utf8.RuneCountInString(c.Content)
		return c, true
	case discordgo.MediaGallery:
		if len(c.Items) > maxGalleryItems {
			c.Items = c.Items[:maxGalleryItems]
		}
		if f.room < 1 || len(c.Items) == 0 {
			return nil, false
		}
		f.room--
		return c, true
	case discordgo.Separator:
		if f.room < 1 {
			return nil, false
		}
		f.room--
		return c, true
	}
	if _, ok := asRow(c); ok {
		rows := fitRows([]discordgo.MessageComponent{c})
		if len(rows) == 0 {
			return nil, false
		}
		row := rows[0].(discordgo.ActionsRow)
		if n := 1 + len(row.Components); n <= f.room {
			f.room -= n
			return row, true
		}
	}
	return nil, false
}
