package bot

import (
	"bytes"
	"github.com/meeplegames/meeple/bot/transport"
	"image/png"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/storage"
)

// The board message of a game with images carries its glance as the
// message's own attachment (not in the embed, where Discord shows it
// smaller), names what its players' numbers are, replaces the glance when
// it is edited, and its Full board button shows the whole board privately.
func TestTheBoardMessageCarriesAGlance(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
	const ch = "8100"
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "crystalpalace", optPlayers: 2})
	h.command(bob, ch, cmdLobby, subJoin, nil)
	for _, u := range []tester{alice, bob} {
		h.command(u, ch, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	}
	if res := h.command(bob, ch, cmdLobby, subStart, nil); !strings.Contains(res.text(), "has started") {
		t.Fatalf("start: %s", res.text())
	}
	board := h.board(ch)
	if len(board.Embeds) != 1 || board.Embeds[0].Image != nil {
		t.Fatalf("the board's embed shows an image; the glance must be the message's own attachment: %+v", board.Embeds)
	}
	if len(board.Attachments) != 1 || board.Attachments[0].Filename != transport.ImageName {
		t.Fatalf("board attachments %+v, want the glance alone", board.Attachments)
	}
	players := ""
	for _, f := range board.Embeds[0].Fields {
		if f.Name == "Players" {
			players = f.Value
		}
	}
	for _, want := range []string{"Pounds ", "VP ", "Buzz ", "Income "} {
		if strings.Count(players, want) != 2 {
			t.Errorf("the Players field does not name each seat's %q: %q", want, players)
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
	g, st, err := h.store.Load(ch)
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
