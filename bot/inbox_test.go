package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// dmCommand runs /name in u's DM with the bot: no guild, no member, the
// user in "user".
func (h *harness) dmCommand(u tester, name string) result {
	h.t.Helper()
	return h.send(map[string]any{
		"type": 2, "channel_id": "dm" + u.ID, "user": map[string]any{"id": u.ID, "username": strings.ToLower(u.Name)},
		"data": map[string]any{"id": "1", "name": name, "type": 1},
	})
}

// answered fails t unless the strict fake took every request of res.
func answered(t *testing.T, what string, res result) {
	t.Helper()
	for _, q := range res.Requests {
		if q.Status >= 300 || len(q.Violations) > 0 {
			t.Fatalf("%s: the fake refused %s %s (%d): %v", what, q.Method, q.Path, q.Status, q.Violations)
		}
	}
}

// inboxMessage is the private message res showed, as the fake keeps it.
func inboxMessage(t *testing.T, h *harness, res result) (string, string) {
	t.Helper()
	id, ok := h.privateMessage(res)
	if !ok {
		t.Fatalf("no private answer: %s", res.text())
	}
	m, ok := h.fake.Message(id)
	if !ok {
		t.Fatalf("the fake lost message %s", id)
	}
	return id, discordtest.MessageText(m)
}

// /inbox lists, privately and in a DM as in any server, every game that
// waits on the caller across servers, the oldest wait first, with where,
// what it asks, its deadline as a Discord timestamp, a link to its board
// and what happened since the caller last acted, never a secret choice;
// its button shows the caller's other games.
func TestInboxListsWhatWaitsAcrossServers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob) // server 7000: waits on both since now
	h.clock.Advance(time.Hour)
	h.guild = "7001"
	const ch2 = "3002"
	openTinyTable(t, h, ch2, bob, alice) // server 7001: an hour younger
	h.guild = ""
	// alice picks in secret in the first game: it stops waiting on her
	if res := h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"}); !res.privatelySays(h, "play.played", "Action", "pick 2") {
		t.Fatalf("alice's pick: %s", res.text())
	}
	board1, board2 := h.game(chTiny).Messages[roleBoard], h.game(ch2).Messages[roleBoard]

	res := h.dmCommand(bob, cmdInbox)
	answered(t, "bob's /inbox", res)
	if !res.private() {
		t.Fatalf("bob's inbox was not private: %s", res.text())
	}
	_, text := inboxMessage(t, h, res)
	first, second := strings.Index(text, "Tiny Game #1"), strings.Index(text, "Tiny Game #2")
	if first < 0 || second < first {
		t.Fatalf("bob's inbox does not list game 1 (the older wait) before game 2:\n%s", text)
	}
	for _, want := range []string{
		"Waiting on you: 2 games", "<#" + chTiny + ">", "<#" + ch2 + ">",
		"https://discord.com/channels/7000/" + chTiny + "/" + board1,
		"https://discord.com/channels/7001/" + ch2 + "/" + board2,
		"Deadline <t:", "pick a number in secret", "Since you last acted",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("bob's inbox lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "pick 2") {
		t.Errorf("bob's inbox shows alice's secret pick:\n%s", text)
	}

	// alice, in a server: only the second game waits on her; the first is
	// among her other games, one click away
	res = h.command(alice, chTiny, cmdInbox, "", nil)
	answered(t, "alice's /inbox", res)
	id, text := inboxMessage(t, h, res)
	if !h.says(text, "inbox.header", "Count", 1) || !strings.Contains(text, "Tiny Game #2") || strings.Contains(text, "Tiny Game #1") {
		t.Fatalf("alice's inbox:\n%s", text)
	}
	m, _ := h.fake.Message(id)
	res = h.click(alice, chTiny, id, mustComponent(t, m, "Your other game (1)"))
	answered(t, "alice's other games", res)
	_, text = inboxMessage(t, h, res)
	if !res.updated() || !h.says(text, "inbox.others_header", "Count", 1) || !strings.Contains(text, "Tiny Game #1") || !h.says(text, "inbox.waits_on_others") {
		t.Fatalf("alice's other games:\n%s", text)
	}

	// eve sits nowhere
	res = h.dmCommand(eve, cmdInbox)
	if _, text := inboxMessage(t, h, res); !h.says(text, "inbox.nothing") {
		t.Fatalf("eve's inbox:\n%s", text)
	}
}

// BenchmarkInbox answers /inbox for a player seated in 300 Crystal Palace
// games 150 actions in (a third waiting on them): the seat index read,
// and the first page's five games read and replayed for "since you last
// acted". ack-ms is from the interaction to Discord's receiving its
// acknowledgement, which must come within 3 s; done-ms to the page.
func BenchmarkInbox(b *testing.B) {
	reg := realRegistry(b)
	h := newHarness(b, reg, Config{}, nil, nil)
	rules, _ := reg.Lookup("crystalpalace")
	player, _ := ai.Lookup(rules, "heuristic")
	setup := engine.Setup{Players: 4, Seed: 7}
	st, err := rules.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	var log []storage.Entry
	for len(log) < 150 && !st.Over() {
		p := st.Prompts()[0]
		action := ai.Decide(player, st, p, setup.Seed, len(log))
		if _, err := st.Apply(p.Seat, action); err != nil {
			b.Fatal(err)
		}
		log = append(log, storage.Entry{Seat: p.Seat, Action: action})
	}
	waiting := storage.PromptSeats(st)
	idle := engine.Seat(0)
	for slices.Contains(waiting, idle) && int(idle) < 3 {
		idle++
	}
	for n := range 300 {
		g := &storage.Game{Kind: "crystalpalace", Guild: testGuild, Channel: fmt.Sprint(70000 + n), Creator: bob.ID,
			Status: storage.StatusRunning, Setup: setup, Log: log}
		for seat := range 4 {
			g.Seats = append(g.Seats, storage.Seat{User: fmt.Sprint(80000 + 4*n + seat)})
		}
		at := idle
		if n%3 == 0 {
			at = waiting[0]
		}
		g.Seats[at] = storage.Seat{User: alice.ID, Name: alice.Name}
		if err := h.store.Create(context.Background(), g); err != nil {
			b.Fatal(err)
		}
	}
	var acks, done []time.Duration
	for b.Loop() {
		start := time.Now()
		res := h.dmCommand(alice, cmdInbox)
		done = append(done, time.Since(start))
		if len(res.Requests) == 0 || res.Requests[0].Kind != discordtest.Callback {
			b.Fatalf("no acknowledgement: %+v", res.Requests)
		}
		acks = append(acks, res.Requests[0].At.Sub(start))
		if !strings.Contains(res.text(), "Waiting on you: 100 games") {
			b.Fatalf("inbox: %s", res.text())
		}
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"ack", acks}, {"done", done}} {
		slices.Sort(m.d)
		b.ReportMetric(float64(m.d[len(m.d)/2])/float64(time.Millisecond), m.name+"-p50-ms")
		b.ReportMetric(float64(m.d[len(m.d)-1])/float64(time.Millisecond), m.name+"-max-ms")
	}
}
