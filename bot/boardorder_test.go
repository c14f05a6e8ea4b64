package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/discordtest"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/shard"
	"github.com/meeplegames/meeple/bot/table"
)

// TestABoardEndsShowingItsGamesLatestVersion runs two processes (two bots,
// one of each of two shards, on one store) that change one game in turn:
// the first's publisher reads the game, then stalls while the second
// changes it again and shows its newer board; the first's older board
// lands last. The board must still end showing the latest version.
func TestABoardEndsShowingItsGamesLatestVersion(t *testing.T) {
	t.Parallel()
	cfg := Config{Deadline: time.Hour, NoReminder: true, Shards: shard.Set{IDs: []int{0}, Count: 2}}
	h := newHarness(t, tinyRegistry(), cfg, nil, nil)
	slow := &stallAfterLoad{}
	h.wrap = func(s Store) Store { slow.Store = s; return slow }
	h.restart()
	openTinyTable(t, h, chTiny, alice, bob)

	b2 := otherProcess(t, h, cfg, shard.Set{IDs: []int{1}, Count: 2})
	t.Cleanup(b2.Close)
	h.bot.Wait()
	v := h.game(chTiny).Version

	cheer := func(b *Bot, u tester) *table.Outcome {
		out, err := b.timers.ref.Play(context.Background(), table.Request{Channel: chTiny, User: u.ID, Text: "cheer"})
		if err != nil {
			t.Fatalf("%s's cheer: %v", u.Name, err)
		}
		return out
	}
	first := cheer(h.bot, alice) // version v+1
	loaded, release := slow.arm()
	h.bot.pub.notify(first)
	<-loaded                      // the first process has read version v+1 to draw it
	b2.pub.notify(cheer(b2, bob)) // version v+2, shown at once
	b2.Wait()
	if got := boardFooter(t, h); !strings.Contains(got, fmt.Sprintf("version %d ", v+2)) {
		t.Fatalf("the second process's board: %q, want version %d", got, v+2)
	}
	close(release)
	h.bot.Wait()
	if got := boardFooter(t, h); !strings.Contains(got, fmt.Sprintf("version %d ", v+2)) {
		t.Fatalf("the board ends with %q; want the game's version %d", got, v+2)
	}
}

// boardFooter is the footer of chTiny's board message as Discord has it.
func boardFooter(t *testing.T, h *harness) string {
	t.Helper()
	m, ok := h.fake.Message(h.game(chTiny).Messages[roleBoard])
	if !ok {
		t.Fatalf("no board in %s", chTiny)
	}
	text := discordtest.MessageText(m)
	i := strings.LastIndex(text, "\n-# ")
	if i < 0 {
		t.Fatalf("the board has no footer: %s", text)
	}
	return text[i+len("\n-# "):]
}
