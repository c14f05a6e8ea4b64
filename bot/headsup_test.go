package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// headsUpsTo counts the heads-up DMs each user got since mark.
func headsUpsTo(h *harness, mark int) map[string]int {
	h.bot.Wait()
	out := map[string]int{}
	prefix, _, _ := strings.Cut(h.say("heads_up.text", "Game", "\x00", "ID", 0, "Channel", "", "Who", ""), "\x00")
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.DirectMessage && q.Status < 300 && strings.HasPrefix(q.Content(), prefix) {
			out[q.User]++
		}
	}
	return out
}

// The person who decides after the current player gets one DM saying so,
// when they asked for it; nobody else does.
func TestHeadsUpWhenYouAreNext(t *testing.T) {
	t.Parallel()
	h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
	const ch = "8201"
	users := []tester{alice, bob, carol}
	h.command(alice, ch, cmdLobby, subNew, map[string]any{optGame: "eightydays"})
	for _, u := range users[1:] {
		h.command(u, ch, cmdLobby, subJoin, nil)
	}
	for _, u := range []tester{alice, bob} { // carol did not ask
		if res := h.command(u, ch, cmdGame, subPrefs, map[string]any{optHeadsUp: true}); !res.privatelySays(h, "prefs.heads_up_on") {
			t.Fatalf("prefs: %s", res.text())
		}
	}
	mark := h.mark()
	h.command(alice, ch, cmdLobby, subStart, map[string]any{optOrder: orderJoin})
	rules, _ := h.reg.Lookup("eightydays")
	easy, _ := ai.Lookup(rules, "easy")
	rng := engine.NewRNG(3)
	who := seatUser(t, h.game(ch), users)
	want := map[string]int{}
	last := engine.Seat(-1)
	for turns := 0; ; {
		_, st, err := h.store.Load(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		p := st.Prompts()[0]
		if p.Seat != last { // a turn begins: its next player hears of it once
			next, _ := st.(upNext).NextSeat()
			if u := who[next]; u != carol {
				want[u.ID]++
			}
			last = p.Seat
			if turns++; turns == 7 {
				break // its heads-up went out; seven turns are enough
			}
		}
		action := easy.Choose(st, p, &rng)
		if res := h.command(who[p.Seat], ch, cmdPlay, "", map[string]any{optAction: action}); res.text() == "" {
			t.Fatalf("/play %q: no answer", action)
		}
	}
	got := headsUpsTo(h, mark)

	for _, u := range users {
		if got[u.ID] != want[u.ID] {
			t.Errorf("%s got %d heads-ups, want %d", u.Name, got[u.ID], want[u.ID])
		}
	}
	if want[alice.ID]+want[bob.ID] == 0 {
		t.Error("no heads-up was due: the test shows nothing")
	}
}
