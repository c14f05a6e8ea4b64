package discordtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// BenchmarkPayloadChecks measures the checks of one board-like message:
// content, an embed, four rows of buttons and a select menu.
func BenchmarkPayloadChecks(b *testing.B) {
	var rows []discordgo.MessageComponent
	for r := 0; r < 4; r++ {
		var row discordgo.ActionsRow
		for i := 0; i < 5; i++ {
			row.Components = append(row.Components, discordgo.Button{CustomID: fmt.Sprintf("m1:1:%d:%d", r, i), Label: "place 5 westminster", Style: discordgo.SecondaryButton})
		}
		rows = append(rows, row)
	}
	var opts []discordgo.SelectMenuOption
	for i := 0; i < 25; i++ {
		opts = append(opts, discordgo.SelectMenuOption{Label: fmt.Sprintf("option %d", i), Value: fmt.Sprint(i)})
	}
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "m1:1:sel", Options: opts}}})
	raw, err := json.Marshal(discordgo.MessageSend{Content: strings.Repeat("board ", 200), Components: rows,
		Embeds: []*discordgo.MessageEmbed{{Title: "Crystal Palace", Description: strings.Repeat("x", 1000)}}})
	if err != nil {
		b.Fatal(err)
	}
	srv := &Server{}
	req := &Request{Kind: ChannelSend, Raw: raw}
	if v := srv.payloadViolations(req); len(v) != 0 {
		b.Fatal(v)
	}
	b.ResetTimer()
	for b.Loop() {
		srv.payloadViolations(req)
	}
}
