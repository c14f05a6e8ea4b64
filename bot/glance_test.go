package bot

import (
	"bytes"
	"context"
	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/transport"
	"image/png"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/storage"
)

// The board message of a game with images is a turn card carrying its
// glance in its gallery, described; it names what its players' numbers
// are, replaces the glance when it is edited, and its Full board button
// shows the whole board privately.
func TestTheBoardMessageCarriesAGlance(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
	const ch = "8100"
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace", optPlayers: 2})
	h.command(bob, ch, cmdLobby, subJoin, nil)
	for _, u := range []tester{alice, bob} {
		h.command(u, ch, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	}
	if res := h.command(bob, ch, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	board := h.board(ch)
	if board.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || len(board.Embeds) != 0 || board.Content != "" {
		t.Fatalf("the board is not a turn card: flags %b, %d embeds, content %q", board.Flags, len(board.Embeds), board.Content)
	}
	if len(board.Attachments) != 1 || board.Attachments[0].Filename != transport.ImageName {
		t.Fatalf("board attachments %+v, want the glance alone", board.Attachments)
	}
	if alts := discordtest.AltTexts(board.Components); len(alts) != 1 || !strings.HasPrefix(alts[0], h.opening("alt.glance")) {
		t.Fatalf("the card's gallery: %q, want the glance, described", alts)
	}
	players := discordtest.MessageText(board)
	for _, want := range []string{"Pounds ", "VP ", "Buzz ", "Income "} {
		if strings.Count(players, want) < 2 {
			t.Errorf("the card does not name each seat's %q: %q", want, players)
		}
	}
	glance := lastUpload(t, h)
	if img, err := png.Decode(bytes.NewReader(glance)); err != nil || img.Bounds().Dx() != imaging.GlanceWidth {
		t.Fatalf("the board's upload is not a glance %d pixels wide: %v", imaging.GlanceWidth, err)
	}

	// The full board, privately.
	res := h.click(carol, ch, board.ID, mustComponent(t, board, "Full board"))
	var files []discordtest.File
	for _, q := range res.Requests {
		files = append(files, q.Files...)
	}
	if !res.private() || len(files) != 1 {
		t.Fatalf("Full board answered publicly or without its image: %s (%d files)", res.text(), len(files))
	}
	if img, err := png.Decode(bytes.NewReader(files[0].Data)); err != nil || img.Bounds().Dx() == imaging.GlanceWidth {
		t.Fatalf("Full board did not show the full board: %v", err)
	}
	if after := h.board(ch); len(after.Attachments) != 1 {
		t.Fatalf("the board message has %d attachments after Full board", len(after.Attachments))
	}

	// A secret choice by DM edits the board: its glance is replaced, not
	// added to.
	g, st, err := h.store.Load(context.Background(), ch)
	if err != nil {
		t.Fatal(err)
	}
	p := st.Prompts()[0]
	who := map[string]tester{alice.ID: alice, bob.ID: bob}[g.Seats[p.Seat].User]
	if dms := h.dm(who, p.Actions[0]); len(dms) == 0 {
		t.Fatal("no answer to the DM")
	}
	after := h.board(ch)
	if after.ID != board.ID || len(after.Attachments) != 1 {
		t.Fatalf("after an edit the board message %s has %d attachments, want the one glance", after.ID, len(after.Attachments))
	}
	if bytes.Equal(lastUpload(t, h), glance) {
		t.Error("the edit did not upload a new glance")
	}
}

// lastUpload is the last PNG the bot uploaded to the fake.
func lastUpload(t *testing.T, h *harness) []byte {
	t.Helper()
	var last []byte
	for _, q := range h.fake.Requests() {
		for _, f := range q.Files {
			last = f.Data
		}
	}
	if last == nil {
		t.Fatal("nothing uploaded")
	}
	return last
}

// A board posted before the turn cards (an embed, with buttons) is not
// edited into a card, which Discord refuses: the next time its game moves
// a card is posted, and the old board keeps its embed and loses its
// buttons. The card then stays a card, edited in place.
func TestAnOldBoardIsReplacedByACard(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	h.bot.Wait()
	g, st, err := h.store.Load(context.Background(), chTiny)
	if err != nil {
		t.Fatal(err)
	}
	// the board as it was posted before: an embed and its buttons, its
	// phase tagged without the card's mark
	old, err := h.fake.NewSession().ChannelMessageSendComplex(chTiny, &discordgo.MessageSend{
		Embeds:     []*discordgo.MessageEmbed{{Title: "Tiny Game", Description: "an old board"}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "pick 1", CustomID: "old-pick", Style: discordgo.SecondaryButton}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Update(context.Background(), chTiny, g.ID, func(r *storage.Game) error {
		setMessage(r, roleBoard, old.ID)
		setMessage(r, rolePhase, roundTag(st))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "1"})
	board := h.board(chTiny)
	if board.ID == old.ID || board.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		t.Fatalf("the game moved on the old board %s: now %s, flags %b", old.ID, board.ID, board.Flags)
	}
	was, _ := h.fake.Message(old.ID)
	if was.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 || len(was.Embeds) != 1 || len(was.Components) != 0 {
		t.Errorf("the old board: flags %b, %d embeds, %d components; want its embed alone", was.Flags, len(was.Embeds), len(was.Components))
	}
	h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "1"})
	if again := h.board(chTiny); again.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		t.Errorf("the board after the next move is no card: flags %b", again.Flags)
	}
}
