package bot

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// threadPerms are the permissions a game thread needs, as Discord sends
// them with an interaction (app_permissions).
var threadPerms int64 = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads | discordgo.PermissionSendMessages

// commandWith runs a command whose interaction carries the bot's
// permissions in the channel.
func (h *harness) commandWith(perms int64, u tester, channel, name, sub string, opts map[string]any) result {
	h.t.Helper()
	options := optionList(opts, false, "")
	if sub != "" {
		options = []map[string]any{{"name": sub, "type": 1, "options": options}}
	}
	return h.send(map[string]any{
		"type": 2, "guild_id": testGuild, "channel_id": channel, "member": u.member(), "app_permissions": fmt.Sprint(perms),
		"data": map[string]any{"id": "1", "name": name, "type": 1, "options": options},
	})
}

// newThreadGame opens a tiny lobby in a thread of ch and returns the
// thread's id.
func newThreadGame(t *testing.T, h *harness, u tester, ch string, opts map[string]any) string {
	t.Helper()
	mark := h.mark()
	res := h.commandWith(threadPerms, u, ch, cmdLobby, subNew, opts)
	if res.private() || !h.says(res.text(), "thread.announce") {
		t.Fatalf("lobby in a thread: %s", res.text())
	}
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.ThreadStart && q.Channel == ch && q.Status == http.StatusCreated {
			return q.Message
		}
	}
	t.Fatal("no thread opened")
	return ""
}

func TestGamesInThreadsOfOneChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	thread := newThreadGame(t, h, alice, chTiny, map[string]any{optGame: "tiny", optOptions: "rounds=1", optThread: true})
	th, ok := h.fake.Thread(thread)
	g := h.game(thread)
	if !ok || th.Name != fmt.Sprintf("Tiny Game #%d", g.ID) || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != chTiny {
		t.Fatalf("thread %+v", th)
	}
	if g.Channel != thread || g.Parent != chTiny || g.Messages[roleLobby] == "" {
		t.Fatalf("game %+v", g)
	}
	if m, ok := h.fake.Message(g.Messages[roleLobby]); !ok || m.ChannelID != thread || !strings.Contains(discordtest.MessageText(m), "lobby") {
		t.Fatalf("the lobby message is not in the thread: %+v", m)
	}
	// the channel hosts another game at once; the server's default
	// opens it in a thread without being asked
	h.command(admin, chTiny, cmdAdmin, subSettings, map[string]any{optThread: true})
	second := newThreadGame(t, h, bob, chTiny, map[string]any{optGame: "tiny"})
	if second == thread || h.game(second).Parent != chTiny {
		t.Fatalf("second game's thread %s", second)
	}
	// the game is played in its thread
	h.command(bob, thread, cmdLobby, subJoin, nil)
	if res := h.command(alice, thread, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start in the thread: %s", res.text())
	}
	if b := h.board(thread); b.ChannelID != thread {
		t.Fatalf("the board is in %s", b.ChannelID)
	}

	// Discord archived the quiet thread: the board's edits are refused
	// (through an interaction too) until the bot reopens the thread, and
	// then the edit goes through
	var unarchived atomic.Bool
	h.fake.Fail(func(q discordtest.Request) bool {
		if q.Kind == discordtest.ChannelEdit && q.Channel == thread {
			unarchived.Store(true)
		}
		edit := q.Kind == discordtest.MessageEdit || q.Kind == discordtest.OriginalEdit || q.Kind == discordtest.FollowupEdit
		return edit && q.Channel == thread && !unarchived.Load()
	}, discordtest.Failure{Status: http.StatusBadRequest, Code: discordgo.ErrCodePerformedOperationOnArchivedThread, Message: "Thread is archived"})
	mark := h.mark()
	pickAll(t, h, thread, alice)
	h.bot.Wait()
	reopened, edited := false, false
	for _, q := range h.fake.Requests()[mark:] {
		switch {
		case q.Kind == discordtest.ChannelEdit && q.Channel == thread && strings.Contains(string(q.Raw), `"archived":false`):
			reopened = true
		case q.Kind == discordtest.MessageEdit && q.Channel == thread && q.Status == http.StatusOK:
			edited = reopened
		}
	}
	if !reopened || !edited {
		t.Fatalf("archived thread: reopened %v, board edited after %v\n%s", reopened, edited, h.publicSince(mark))
	}

	// the thread is deleted: the game pauses and the channel is told
	h.fake.Fail(func(q discordtest.Request) bool { return q.Channel == thread },
		discordtest.Failure{Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownChannel, Message: "Unknown Channel"})
	mark = h.mark()
	pickAll(t, h, thread, bob)
	q := sentSince(t, h, mark, "was deleted, so the game is paused")
	if q.Channel != chTiny || !strings.Contains(q.Text(), "<@"+alice.ID+">") {
		t.Errorf("the notice went to %s: %s", q.Channel, q.Text())
	}
	if g := h.game(thread); !g.Deadline.IsZero() || !g.RemindAt.IsZero() {
		t.Errorf("the game's timers still run: %v %v", g.Deadline, g.RemindAt)
	}

	// the notice says how to end the game, which its creator does from
	// the parent channel; nobody else, nor from elsewhere
	id := h.game(thread).ID
	if want := fmt.Sprintf("`/lobby abandon game:%d`", id); !strings.Contains(q.Text(), want) {
		t.Errorf("the notice does not say %s: %s", want, q.Text())
	}
	for _, c := range []struct {
		u       tester
		channel string
		game    uint64
		want    string
	}{
		{bob, chTiny, id, "Only the game's creator"},
		{alice, "3009", id, fmt.Sprintf("There is no game #%d in this channel or its threads.", id)},
		{alice, chTiny, id + 100, fmt.Sprintf("There is no game #%d", id+100)},
	} {
		if res := h.command(c.u, c.channel, cmdLobby, subAbandon, map[string]any{optGame: c.game}); !res.private() || !strings.Contains(res.text(), c.want) {
			t.Errorf("%s abandons game #%d from %s: %s", c.u.Name, c.game, c.channel, res.text())
		}
	}
	res := h.command(alice, chTiny, cmdLobby, subAbandon, map[string]any{optGame: id})
	confirm := res.Requests[0].CustomIDs()
	if !res.private() || len(confirm) != 1 || !strings.Contains(res.text(), fmt.Sprintf("Abandon game #%d", id)) {
		t.Fatalf("abandon from the parent should ask first: %s", res.text())
	}
	orig, _ := h.fake.Original(res.Token)
	mark = h.mark()
	h.click(alice, chTiny, orig, confirm[0])
	if g, err := h.store.GetByID(context.Background(), id); err != nil || g.Status != storage.StatusAbandoned {
		t.Fatalf("the game in the deleted thread: %v", err)
	}
	told := false // by a public follow-up of the click in the parent channel
	for _, q := range h.fake.Requests()[mark:] {
		told = told || q.Kind == discordtest.Followup && !q.Ephemeral() && strings.Contains(q.Text(), fmt.Sprintf("Game #%d was abandoned by Alice", id))
	}
	if !told {
		t.Errorf("the parent channel is not told: %q", h.publicSince(mark))
	}
	if g := h.game(second); g.Status != storage.StatusLobby {
		t.Errorf("the other thread's game: %s", g.Status)
	}
	if res := h.command(alice, chTiny, cmdLobby, subAbandon, map[string]any{optGame: id}); !h.says(res.text(), "refuse.game_ended") {
		t.Errorf("abandoning it again: %s", res.text())
	}
}

func TestThreadNeedsItsPermissions(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	mark := h.mark()
	res := h.commandWith(discordgo.PermissionCreatePublicThreads, alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optThread: true})
	if !res.private() || !h.says(res.text(), "thread.permissions", "Count", 1, "Names", h.say("permission.send_messages_in_threads")) || strings.Contains(res.text(), h.say("permission.create_public_threads")) {
		t.Fatalf("missing one permission: %s", res.text())
	}
	res = h.commandWith(0, alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optThread: true})
	if !h.says(res.text(), "thread.permissions", "Count", 2) || !strings.Contains(res.text(), h.say("permission.create_public_threads")) || !strings.Contains(res.text(), h.say("permission.send_messages_in_threads")) {
		t.Fatalf("missing both: %s", res.text())
	}
	// Discord refuses anyway (a channel override): the same clear answer
	h.fake.Fail(func(q discordtest.Request) bool { return q.Kind == discordtest.ThreadStart },
		discordtest.Failure{Status: http.StatusForbidden, Code: discordgo.ErrCodeMissingPermissions, Message: "Missing Permissions"})
	res = h.commandWith(threadPerms, alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny", optThread: true})
	if !res.private() || !h.says(res.text(), "thread.permissions") {
		t.Fatalf("Discord's refusal: %s", res.text())
	}
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.ChannelSend {
			t.Errorf("something was posted: %s", q.Text())
		}
	}
	if games, _ := h.store.ListActive(context.Background(), testGuild); len(games) != 0 {
		t.Fatalf("a refused lobby left a game: %+v", games[0])
	}
}

func TestADeletedThreadPausesItsGameAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Deadline: time.Hour}, nil, nil)
	thread := newThreadGame(t, h, alice, chTiny, map[string]any{optGame: "tiny", optOptions: "rounds=1", optThread: true})
	h.command(bob, thread, cmdLobby, subJoin, nil)
	if res := h.command(alice, thread, cmdLobby, subStart, nil); !h.says(res.text(), "lobby.started") {
		t.Fatalf("start in the thread: %s", res.text())
	}
	if g := h.game(thread); g.Deadline.IsZero() {
		t.Fatal("no deadline runs")
	}
	run := serveOverGateway(t, h)
	mark := h.mark()
	// a thread without a game, and the channel of a game not in a thread,
	// are left alone
	openTinyTable(t, h, "3002", carol, dave)
	for _, id := range []string{"4444", "3002"} {
		if err := h.fake.Dispatch("THREAD_DELETE", map[string]any{"id": id, "guild_id": testGuild, "parent_id": chTiny, "type": 11}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.fake.Dispatch("THREAD_DELETE", map[string]any{"id": thread, "guild_id": testGuild, "parent_id": chTiny, "type": 11}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the notice", func() bool {
		for _, q := range h.fake.Requests()[mark:] {
			if q.Kind == discordtest.ChannelSend && q.Channel == chTiny && h.says(q.Text(), "board.thread_gone") {
				return true
			}
		}
		return false
	})
	if err := run.stop(t); err != nil {
		t.Fatal(err)
	}
	if g := h.game(thread); !g.Deadline.IsZero() || !g.RemindAt.IsZero() {
		t.Errorf("the game's timers still run: %v %v", g.Deadline, g.RemindAt)
	}
	if g := h.game("3002"); g.Deadline.IsZero() {
		t.Errorf("the game in a channel of its own was paused")
	}
	notices := 0
	for _, q := range h.fake.Requests()[mark:] {
		if h.says(q.Text(), "board.thread_gone") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("%d notices, want 1", notices)
	}
}
