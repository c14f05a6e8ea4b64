package transport

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// count walks a card's components as Discord counts them: every one, at
// every depth, and the characters of its text displays.
func count(cs []discordgo.MessageComponent) (n, text, items int) {
	for _, c := range cs {
		n++
		switch c := c.(type) {
		case discordgo.Container:
			a, b, i := count(c.Components)
			n, text, items = n+a, text+b, items+i
		case discordgo.ActionsRow:
			n += len(c.Components)
		case discordgo.TextDisplay:
			text += utf8.RuneCountInString(c.Content)
		case discordgo.MediaGallery:
			items += len(c.Items)
		}
	}
	return n, text, items
}

// Fit keeps a card within Components V2's limits: no content or embeds,
// 40 components at every depth, 4,000 characters of text, and galleries
// of 1 to 10 items (an empty one left out).
func TestFitKeepsACardWithinItsLimits(t *testing.T) {
	var inside []discordgo.MessageComponent
	inside = append(inside, discordgo.MediaGallery{}, discordgo.MediaGallery{Items: make([]discordgo.MediaGalleryItem, 12)})
	for range 30 {
		inside = append(inside, discordgo.TextDisplay{Content: strings.Repeat("é", 300)})
	}
	for i := range 6 {
		inside = append(inside, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "a", CustomID: "a" + string(rune('0'+i))}, discordgo.Button{Label: "b", CustomID: "b" + string(rune('0'+i))},
		}})
	}
	m := Fit(Message{Card: true, Content: "no", Embeds: []*discordgo.MessageEmbed{{Title: "no"}}, Components: []discordgo.MessageComponent{discordgo.Container{Components: inside}}})
	if m.Content != "" || m.Embeds != nil {
		t.Errorf("a card with content %q and %d embeds", m.Content, len(m.Embeds))
	}
	n, text, items := count(m.Components)
	if n > MaxCardComponents || text > MaxCardText || items != maxGalleryItems {
		t.Errorf("%d components, %d characters, a gallery of %d", n, text, items)
	}
	if text < MaxCardText-300 || len(m.Components[0].(discordgo.Container).Components) != 1+14+6 {
		t.Errorf("fitted too much away: %d characters, %d components in the container", text, len(m.Components[0].(discordgo.Container).Components))
	}

	// past 40 components, those at the end go
	inside = inside[:0]
	for range 50 {
		inside = append(inside, discordgo.TextDisplay{Content: "t"})
	}
	m = Fit(Message{Card: true, Components: []discordgo.MessageComponent{discordgo.Container{Components: inside}}})
	if n, _, _ := count(m.Components); n != MaxCardComponents {
		t.Errorf("%d components, want %d", n, MaxCardComponents)
	}
}
