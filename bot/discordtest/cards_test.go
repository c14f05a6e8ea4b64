package discordtest

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// A card: a container of one text display, flagged Components V2.
func card(text string, more ...discordgo.MessageComponent) []discordgo.MessageComponent {
	accent := 0x0072B2
	return []discordgo.MessageComponent{discordgo.Container{AccentColor: &accent, Components: append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: text}}, more...)}}
}

// Every Components V2 rule is enforced, each by its own refusal, and a
// card within them passes the hand-listed limits and Discord's OpenAPI
// description alike.
func TestComponentsV2RulesAreEnforced(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Relax: []Check{CheckRateLimits}})
	defer srv.Close()
	s := srv.NewSession()
	v2 := discordgo.MessageFlagsIsComponentsV2
	desc := "a described picture"
	gallery := func(n int) discordgo.MediaGallery {
		g := discordgo.MediaGallery{}
		for range n {
			g.Items = append(g.Items, discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "https://example.com/a.png"}, Description: &desc})
		}
		return g
	}
	tooBright := 1 << 24
	texts := func(n int) []discordgo.MessageComponent {
		out := make([]discordgo.MessageComponent, n)
		for i := range out {
			out[i] = discordgo.TextDisplay{Content: "t"}
		}
		return out
	}
	for _, c := range []struct {
		name  string
		msg   discordgo.MessageSend
		code  string // "" when the message is valid
		check Check  // set when the refusal is another check's
	}{
		{name: "a card", msg: discordgo.MessageSend{Flags: v2, Components: card("Round 1 of 5", gallery(1), discordgo.ActionsRow{Components: []discordgo.MessageComponent{button("a", "Go")}})}},
		{name: "content beside the flag", msg: discordgo.MessageSend{Flags: v2, Content: "hi", Components: card("x")}, code: "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{name: "an embed beside the flag", msg: discordgo.MessageSend{Flags: v2, Embeds: []*discordgo.MessageEmbed{{Title: "t"}}, Components: card("x")}, code: "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
		{name: "layouts without the flag", msg: discordgo.MessageSend{Components: card("x")}, code: "COMPONENT_TYPE_INVALID"},
		// a container, 39 texts inside it: 40 components, then 41
		{name: "40 components, nested", msg: discordgo.MessageSend{Flags: v2, Components: card("x", texts(38)...)}},
		{name: "41 components, nested", msg: discordgo.MessageSend{Flags: v2, Components: card("x", texts(39)...)}, code: "COMPONENTS_TOO_MANY"},
		{name: "4,000 characters of text", msg: discordgo.MessageSend{Flags: v2, Components: card(strings.Repeat("é", 2000), discordgo.TextDisplay{Content: strings.Repeat("e", 2000)})}},
		{name: "4,001 characters of text", msg: discordgo.MessageSend{Flags: v2, Components: card(strings.Repeat("é", 2000), discordgo.TextDisplay{Content: strings.Repeat("e", 2001)})}, code: "COMPONENTS_TEXT_TOO_LONG"},
		{name: "a gallery of 10", msg: discordgo.MessageSend{Flags: v2, Components: card("x", gallery(10))}},
		{name: "a gallery of 11", msg: discordgo.MessageSend{Flags: v2, Components: card("x", gallery(11))}, code: "BASE_TYPE_BAD_LENGTH"},
		{name: "an empty gallery", msg: discordgo.MessageSend{Flags: v2, Components: card("x", gallery(0))}, code: "BASE_TYPE_BAD_LENGTH"},
		// what the hand-listed rules leave to Discord's OpenAPI description
		{name: "an accent beyond 24 bits", msg: discordgo.MessageSend{Flags: v2, Components: []discordgo.MessageComponent{discordgo.Container{AccentColor: &tooBright, Components: texts(1)}}}, check: CheckSchema},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := c.msg
			_, err := s.ChannelMessageSendComplex("c1", &msg)
			last := srv.Requests()[len(srv.Requests())-1]
			if c.code == "" && c.check == "" {
				if err != nil || len(last.Violations) > 0 {
					t.Fatalf("a valid card was refused: %v %v", err, last.Violations)
				}
				return
			}
			if err == nil {
				t.Fatalf("want a refusal with %s", c.code)
			}
			found := false
			for _, v := range last.Violations {
				found = found || c.check == "" && v.Code == c.code && v.Check == CheckComponentsV2 || c.check != "" && v.Check == c.check
			}
			if !found {
				t.Errorf("violations %v, want %s", last.Violations, c.code)
			}
		})
	}
}

// An edit keeps a card a card: it may not drop the flag nor add content,
// and a message with content never becomes a card; an edit that leaves
// the flag out keeps it.
func TestAnEditNeverMixesTheForms(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{Relax: []Check{CheckRateLimits}})
	defer srv.Close()
	s := srv.NewSession()
	v2 := discordgo.MessageFlagsIsComponentsV2
	cardMsg, err := s.ChannelMessageSendComplex("c1", &discordgo.MessageSend{Flags: v2, Components: card("round 1")})
	if err != nil {
		t.Fatal(err)
	}
	classic, err := s.ChannelMessageSendComplex("c1", &discordgo.MessageSend{Content: "an old board", Embeds: []*discordgo.MessageEmbed{{Title: "Board"}}})
	if err != nil {
		t.Fatal(err)
	}
	refused := func(name, code string, e *discordgo.MessageEdit) {
		t.Helper()
		if _, err := s.ChannelMessageEditComplex(e); err == nil {
			t.Errorf("%s: accepted", name)
			return
		}
		last := srv.Requests()[len(srv.Requests())-1]
		if len(last.Violations) == 0 || last.Violations[0].Code != code {
			t.Errorf("%s: violations %v, want %s", name, last.Violations, code)
		}
	}
	none := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{button("b", "B")}}}
	refused("the flag removed", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", &discordgo.MessageEdit{Channel: "c1", ID: cardMsg.ID, Flags: discordgo.MessageFlagsSuppressEmbeds, Components: &none})
	text := "now with words"
	refused("content added", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", &discordgo.MessageEdit{Channel: "c1", ID: cardMsg.ID, Content: &text})
	again := card("round 2")
	refused("an old board made a card", "MESSAGE_CANNOT_ADD_COMPONENTS_V2_FLAG", &discordgo.MessageEdit{Channel: "c1", ID: classic.ID, Flags: v2, Components: &again})

	// an edit without flags keeps the card's
	if _, err := s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: "c1", ID: cardMsg.ID, Components: &again}); err != nil {
		t.Fatalf("editing a card: %v", err)
	}
	if m, _ := srv.Message(cardMsg.ID); m.Flags&v2 == 0 || !strings.Contains(MessageText(m), "round 2") {
		t.Errorf("after the edit: flags %b, text %q", m.Flags, MessageText(m))
	}
}
