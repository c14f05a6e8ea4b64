package transport

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

func TestFitKeepsMessagesWithinDiscordsLimits(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 5000)
	var fields []*discordgo.MessageEmbedField
	for range 30 {
		fields = append(fields, &discordgo.MessageEmbedField{Name: long, Value: long})
	}
	var embeds []*discordgo.MessageEmbed
	for range 12 {
		embeds = append(embeds, &discordgo.MessageEmbed{Title: long, Description: long, Fields: fields, Footer: &discordgo.MessageEmbedFooter{Text: long}})
	}
	button := func(id string) discordgo.MessageComponent {
		return discordgo.Button{Label: long, CustomID: id}
	}
	var opts []discordgo.SelectMenuOption
	for n := range 30 {
		opts = append(opts, discordgo.SelectMenuOption{Label: long, Value: strings.Repeat("v", n+1), Description: long})
	}
	opts = append(opts, discordgo.SelectMenuOption{Label: "too long a value", Value: strings.Repeat("v", 101)})
	var rows []discordgo.MessageComponent
	for r := range 7 {
		id := func(s string) string { return fmt.Sprint(s, r) }
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			button(id("a")), button(id("a")), button(id("b")), button(strings.Repeat("c", 101)), button(id("d")), button(id("e")), button(id("f")), button(id("g")),
		}})
	}
	rows = append(rows, &discordgo.ActionsRow{Components: []discordgo.MessageComponent{button("h"), discordgo.SelectMenu{CustomID: "menu", Options: opts}}})
	m := Fit(Message{Content: long, Embeds: embeds, Components: rows})

	if n := utf8.RuneCountInString(m.Content); n != MaxContent || !strings.HasSuffix(m.Content, "…") {
		t.Errorf("content of %d characters", n)
	}
	if len(m.Embeds) != maxEmbeds {
		t.Errorf("%d embeds", len(m.Embeds))
	}
	total := 0
	for _, e := range m.Embeds {
		total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer.Text)
		if len(e.Fields) > maxEmbedFields {
			t.Errorf("%d fields", len(e.Fields))
		}
		for _, f := range e.Fields {
			total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
			if utf8.RuneCountInString(f.Value) > MaxEmbedField || utf8.RuneCountInString(f.Name) > maxFieldName {
				t.Error("a field over its limits")
			}
		}
	}
	if total > MaxEmbedTotal {
		t.Errorf("embeds of %d characters in all", total)
	}
	if utf8.RuneCountInString(embeds[0].Title) != 5000 {
		t.Error("fit changed the caller's embeds")
	}
	if len(m.Components) != MaxRows {
		t.Fatalf("%d rows", len(m.Components))
	}
	seen := map[string]bool{}
	for _, row := range m.Components {
		ar := row.(discordgo.ActionsRow)
		if len(ar.Components) > maxRowButtons {
			t.Errorf("a row of %d", len(ar.Components))
		}
		for _, c := range ar.Components {
			b := c.(discordgo.Button)
			if seen[b.CustomID] || utf8.RuneCountInString(b.CustomID) > MaxCustomID || utf8.RuneCountInString(b.Label) > MaxLabel {
				t.Errorf("button %q kept", b.CustomID)
			}
			seen[b.CustomID] = true
		}
	}
	// a select menu alone in its row, 25 options of valid values
	m = Fit(Message{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: "menu", Placeholder: long, Options: opts}, button("x"),
	}}}})
	menu := m.Components[0].(discordgo.ActionsRow).Components
	if len(menu) != 1 {
		t.Fatalf("the menu shares its row: %d components", len(menu))
	}
	sel := menu[0].(discordgo.SelectMenu)
	if len(sel.Options) != MaxSelectOptions || utf8.RuneCountInString(sel.Placeholder) > maxPlaceholder {
		t.Errorf("menu: %d options, placeholder %d", len(sel.Options), utf8.RuneCountInString(sel.Placeholder))
	}
	for _, o := range sel.Options {
		if utf8.RuneCountInString(o.Label) > maxOptionText || utf8.RuneCountInString(o.Description) > maxOptionText || len(o.Value) > maxOptionText {
			t.Errorf("option over its limits: %d", utf8.RuneCountInString(o.Label))
		}
	}
}

func TestTokensStayOutOfLoggedRoutes(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"/api/v9/interactions/123/secret-token/callback":        "/api/v9/interactions/123/:token/callback",
		"/api/v9/webhooks/9000/secret-token/messages/@original": "/api/v9/webhooks/9000/:token/messages/@original",
		"/api/v9/channels/1/messages":                           "/api/v9/channels/1/messages",
	} {
		if got := redactTokens(path); got != want {
			t.Errorf("redactTokens(%q) = %q", path, got)
		}
	}
	err := &url.Error{Op: "Post", URL: "https://discord.com/api/v9/webhooks/9000/secret-token", Err: errors.New("connection reset")}
	if got := DescribeError(err); strings.Contains(got, "secret-token") || !strings.Contains(got, "connection reset") {
		t.Errorf("describeSendError = %q", got)
	}
}

func TestResetAfterIsPadded(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	h.Set("X-RateLimit-Reset-After", "0.999")
	padResetAfter(h)
	if got := h.Get("X-RateLimit-Reset-After"); got != "1.049" {
		t.Errorf("padded reset-after %q", got)
	}
	h = http.Header{}
	padResetAfter(h)
	if len(h) != 0 {
		t.Error("a header was added")
	}
}
