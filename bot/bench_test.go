package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// benchGames is how many games the benchmarks keep going at once, and
// benchRate how many interactions per second they send.
const (
	benchGames = 100
	benchRate  = 100
)

// latencies collects, per interaction, when it was handed to the bot, when
// Discord received its acknowledgement (its initial response, whatever
// its type) and when it received its answer.
type latencies struct {
	mu    sync.Mutex
	start map[string]time.Time // by token
	ack   map[string]time.Time
	done  map[string]time.Time
}

func newLatencies() *latencies {
	return &latencies{start: map[string]time.Time{}, ack: map[string]time.Time{}, done: map[string]time.Time{}}
}

func (l *latencies) watch(q discordtest.Request) {
	if q.Kind == discordtest.Callback {
		l.mu.Lock()
		if _, ok := l.ack[q.Token]; !ok {
			l.ack[q.Token] = q.At
		}
		l.mu.Unlock()
	}
	// the answer is complete when a message reaches the user: an immediate
	// message, the fill of a deferred one, or a follow-up
	switch {
	case q.Kind == discordtest.Callback && q.Type == discordgo.InteractionResponseChannelMessageWithSource,
		q.Kind == discordtest.OriginalEdit, q.Kind == discordtest.Followup:
	default:
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.done[q.Token]; !ok {
		l.done[q.Token] = q.At
	}
}

func (l *latencies) report(b *testing.B) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var d, acks []time.Duration
	for tok, s := range l.start {
		if e, ok := l.done[tok]; ok {
			d = append(d, e.Sub(s))
		}
		if a, ok := l.ack[tok]; ok {
			acks = append(acks, a.Sub(s))
		}
	}
	if len(d) < len(l.start) || len(acks) < len(l.start) {
		b.Fatalf("of %d interactions, %d got no answer and %d no acknowledgement", len(l.start), len(l.start)-len(d), len(l.start)-len(acks))
	}
	slices.Sort(d)
	slices.Sort(acks)
	pct := func(d []time.Duration, p float64) float64 {
		return float64(d[int(p*float64(len(d)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(d, 0.50), "p50-ms")
	b.ReportMetric(pct(d, 0.99), "p99-ms")
	b.ReportMetric(float64(d[len(d)-1])/float64(time.Millisecond), "max-ms")
	b.ReportMetric(pct(acks, 0.50), "ack-p50-ms")
	b.ReportMetric(pct(acks, 0.99), "ack-p99-ms")
}

// runPaced sends b.N interactions, round robin over the channels, at
// benchRate per second, each in its own goroutine as the gateway does.
func runPaced(b *testing.B, h *harness, lat *latencies, rate int, make func(n int) map[string]any) {
	h.fake.Watch(lat.watch)
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	var wg sync.WaitGroup
	began := time.Now()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		<-tick.C
		raw := make(n)
		token := fmt.Sprintf("bench%d", n)
		raw["id"], raw["token"], raw["application_id"], raw["version"] = fmt.Sprint(900000+n), token, testApp, 1
		data, _ := json.Marshal(raw)
		var i discordgo.Interaction
		if err := json.Unmarshal(data, &i); err != nil {
			b.Fatal(err)
		}
		message := ""
		if i.Message != nil {
			message = i.Message.ID
		}
		h.fake.StartInteraction(token, message)
		h.fake.InteractionChannel(token, i.ChannelID)
		wg.Add(1)
		lat.mu.Lock()
		lat.start[token] = time.Now()
		lat.mu.Unlock()
		go func() {
			defer wg.Done()
			h.bot.HandleInteraction(context.Background(), &i)
		}()
	}
	wg.Wait()
	h.bot.Wait()
	b.StopTimer()
	lat.report(b)
	images := 0
	for _, q := range h.fake.Requests() {
		if q.At.After(began) {
			images += len(q.Files)
		}
	}
	b.ReportMetric(float64(images)/float64(b.N), "images/op")
	_, tooMany := h.bot.send.Limiter().Totals()
	b.ReportMetric(float64(tooMany), "429s")
}

// checkBoards fails unless the last board of every game shows the game's
// final state: no update was lost on the way.
func checkBoards(b *testing.B, h *harness, chans []string) {
	h.bot.Wait()
	for _, ch := range chans {
		g, err := h.store.Get(context.Background(), ch)
		if errors.Is(err, storage.ErrNotFound) {
			continue // finished: its final scores were posted
		}
		if err != nil {
			b.Fatal(err)
		}
		m, ok := h.fake.Message(g.Messages[roleBoard])
		if !ok {
			b.Fatalf("game in %s has no board", ch)
		}
		if want := fmt.Sprintf("version %d ", g.Version); !strings.Contains(discordtest.MessageText(m), want) {
			b.Fatalf("the board of %s does not show %q:\n%s", ch, want, discordtest.MessageText(m))
		}
	}
}

// benchTables opens benchGames running games of kind with two players each.
func benchTables(b *testing.B, h *harness, kind string, players int) []string {
	users := []tester{alice, bob, carol, dave, eve}
	var chans []string
	for n := 0; n < benchGames; n++ {
		ch := fmt.Sprint(60000 + n)
		chans = append(chans, ch)
		h.command(users[0], ch, cmdLobby, subNew, map[string]any{optGame: kind, optPlayers: players})
		for _, u := range users[1:players] {
			h.command(u, ch, cmdLobby, subJoin, nil)
		}
		if res := h.command(users[0], ch, cmdLobby, subStart, map[string]any{optOrder: orderJoin}); h.game(ch).Status != "running" {
			b.Fatalf("start: %s", res.text())
		}
	}
	h.bot.Wait()
	return chans
}

func guildCommand(u tester, ch, name, sub string, opts []map[string]any) map[string]any {
	options := opts
	if sub != "" {
		options = []map[string]any{{"name": sub, "type": 1, "options": opts}}
	}
	return map[string]any{"type": 2, "guild_id": testGuild, "channel_id": ch, "member": u.member(),
		"data": map[string]any{"id": "1", "name": name, "type": 1, "options": options}}
}

// BenchmarkActions plays a free action (one Apply, one durable commit, a
// private answer and a board edit) in 100 concurrent games at 100
// interactions per second, and reports the latency from receiving the
// interaction to Discord receiving its answer.
func BenchmarkActions(b *testing.B) {
	h := newHarness(b, tinyRegistry(), Config{}, nil, nil)
	chans := benchTables(b, h, "tiny", 2)
	lat := newLatencies()
	runPaced(b, h, lat, benchRate, func(n int) map[string]any {
		return guildCommand(alice, chans[n%len(chans)], cmdFree, "", []map[string]any{{"name": optAction, "type": 3, "value": "cheer"}})
	})
	checkBoards(b, h, chans)
}

// benchmarkBoard posts the board (/game board) in 100 concurrent games of
// the given kind at rate interactions per second. With a renderer every
// request renders a fresh image: the game's cached board is dropped first,
// as when someone has just acted.
func benchmarkBoard(b *testing.B, reg *engine.Registry, render Renderer, kind string, players, rate int) {
	h := newHarness(b, reg, Config{Images: render != nil}, render, nil)
	chans := benchTables(b, h, kind, players)
	ids := make([]uint64, len(chans))
	for n, ch := range chans {
		ids[n] = h.game(ch).ID
	}
	lat := newLatencies()
	runPaced(b, h, lat, rate, func(n int) map[string]any {
		h.bot.pub.look.images.forget(ids[n%len(ids)])
		return guildCommand(alice, chans[n%len(chans)], cmdGame, subBoard, nil)
	})
}
