package bot

import (
	"bytes"
	"github.com/meeplegames/meeple/bot/transport"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// pngRenderer draws every picture of any game as the same small PNG.
type pngRenderer struct{}

func (pngRenderer) Board(any, *wording.Words) ([]byte, error)              { return tinyPNG() }
func (pngRenderer) Mat(any, *wording.Words) ([]byte, error)                { return tinyPNG() }
func (pngRenderer) Scores(any, *wording.Words) ([]byte, error)             { return tinyPNG() }
func (pngRenderer) Chart(imaging.Progress, *wording.Words) ([]byte, error) { return tinyPNG() }
func (pngRenderer) Glance(any, *wording.Words) ([]byte, error)             { return tinyPNG() }

func tinyPNG() ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4)))
	return b.Bytes(), err
}

// callNeeds is what Discord's documentation says the REST call q needs in
// a server (developers/resources/message.mdx "Create Message"
// limitations, channel.mdx "Modify Channel" and "Start Thread without
// Message", topics/threads.mdx "Permissions" and "Editing & Deleting
// Threads"; topics/permissions.mdx for Embed Links and Attach Files).
// known is false for a kind of call this table has not classified.
func callNeeds(fake *discordtest.Server, q discordtest.Request) (needs int64, known bool) {
	_, inThread := fake.Thread(q.Channel)
	content := func() int64 {
		var n int64
		if q.Msg != nil && len(q.Msg.Embeds) > 0 {
			n |= discordgo.PermissionEmbedLinks
		}
		if len(q.Files) > 0 {
			n |= discordgo.PermissionAttachFiles
		}
		return n
	}
	switch q.Kind {
	case discordtest.Callback, discordtest.Followup, discordtest.OriginalEdit, discordtest.FollowupEdit,
		discordtest.WebhookGet, discordtest.DMOpen, discordtest.DirectMessage, discordtest.Commands,
		discordtest.GatewayGet, discordtest.GatewayBotGet, discordtest.Me:
		return 0, true // interactions, DMs, the application itself: no channel permission
	case discordtest.ChannelSend:
		// SEND_MESSAGES has no effect in threads: SEND_MESSAGES_IN_THREADS
		send := int64(discordgo.PermissionSendMessages)
		if inThread {
			send = discordgo.PermissionSendMessagesInThreads
		}
		return discordgo.PermissionViewChannel | send | content(), true
	case discordtest.MessageEdit:
		// the author edits its own message's content, embeds and components;
		// new files are uploads
		return discordgo.PermissionViewChannel | content(), true
	case discordtest.ThreadStart:
		return discordgo.PermissionViewChannel | discordgo.PermissionCreatePublicThreads, true
	case discordtest.ChannelEdit:
		// the thread's creator may rename it and unarchive it; unarchiving
		// an unlocked thread takes only SEND_MESSAGES
		if strings.Contains(string(q.Raw), `"archived":false`) {
			return discordgo.PermissionViewChannel | discordgo.PermissionSendMessages, true
		}
		return discordgo.PermissionViewChannel, true
	}
	return 0, false
}

// TestPermissionsCoverEveryCallTheBotMakes plays games in a channel and in
// a thread, with pictures, through a reopened archived thread, and checks
// that every REST call the bot made needs nothing beyond Permissions, and
// that Permissions holds nothing no call needs.
func TestPermissionsCoverEveryCallTheBotMakes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Images: true}, pngRenderer{}, nil)
	openTinyTable(t, h, "3101", carol, dave)
	pickAll(t, h, "3101", carol, dave)
	thread := newThreadGame(t, h, alice, chTiny, map[string]any{optGame: "tiny", optOptions: "rounds=1", optThread: true})
	h.command(bob, thread, cmdLobby, subJoin, nil)
	if res := h.command(alice, thread, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start: %s", res.text())
	}
	// every interaction on the board is too old to edit it through, so the
	// board's edit is a REST call, and bob's pick by DM ends the round with
	// no interaction at hand: the new board is a channel post
	h.clock.Advance(transport.HandleLife)
	h.command(bob, thread, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.MessageEdit && q.Channel == thread },
		discordtest.Failure{Status: http.StatusBadRequest, Code: discordgo.ErrCodePerformedOperationOnArchivedThread, Message: "Thread is archived", Times: 1})
	pickAll(t, h, thread, alice)
	if dms := h.dm(bob, "1"); len(dms) != 1 || !h.says(dms[0].Text(), "play.played") {
		t.Fatalf("bob's pick by DM: %+v", dms)
	}
	h.bot.Wait()

	var used int64
	kinds := map[discordtest.Kind]bool{}
	for _, q := range h.fake.Requests() {
		needs, known := callNeeds(h.fake, q)
		if !known {
			t.Errorf("%s %s: a call whose permissions are not classified: add it to callNeeds from Discord's docs", q.Method, q.Path)
			continue
		}
		kinds[q.Kind] = true
		used |= needs
		if missing := needs &^ InvitePermissions(); missing != 0 {
			t.Errorf("%s %s needs %v, missing from Permissions", q.Method, q.Path, missing)
		}
	}
	for _, k := range []discordtest.Kind{discordtest.ChannelSend, discordtest.MessageEdit, discordtest.ThreadStart, discordtest.ChannelEdit} {
		if !kinds[k] {
			t.Errorf("the games made no %s call: the test does not cover it", k)
		}
	}
	if extra := InvitePermissions() &^ used; extra != 0 {
		t.Errorf("Permissions holds %v, which no call needed", permissionNames(extra))
	}
	if got := InviteURL("123"); !strings.HasSuffix(got, "client_id=123&scope=bot+applications.commands&permissions=309237697536") {
		t.Errorf("invite link %s", got)
	}
}
