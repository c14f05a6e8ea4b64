package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// digestsTo counts the digest DMs each user got since mark.
func digestsTo(h *harness, mark int) map[string]int {
	h.bot.Wait()
	out := map[string]int{}
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.DirectMessage && q.Status < 300 && strings.HasPrefix(q.Content(), h.say("digest.header")) {
			out[q.User]++
		}
	}
	return out
}

// A digest goes once a day at the hour the user chose in their time zone,
// when a game waits on them: not twice, not after a restart, and not to
// one who did not ask or on whom nothing waits.
func TestDailyDigest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	// 15:00 in Berlin is 14:00 UTC; the clock starts at 12:00 UTC
	res := h.command(alice, chTiny, cmdGame, subPrefs, map[string]any{optTimeZone: "Europe/Berlin", optDigestAt: 15})
	if !res.privatelySays(h, "prefs.digest_on", "Hour", 15, "Zone", "Europe/Berlin") {
		t.Fatalf("prefs: %s", res.text())
	}
	h.command(carol, chTiny, cmdGame, subPrefs, map[string]any{optDigest: true}) // nothing waits on carol
	openTinyTable(t, h, chTiny, alice, bob)
	mark := h.mark()
	h.bot.CheckDeadlines(h.clock.Now())
	if got := digestsTo(h, mark); len(got) != 0 {
		t.Fatalf("digests before their hour: %v", got)
	}
	h.clock.Advance(2*time.Hour + 30*time.Second)
	h.bot.CheckDeadlines(h.clock.Now())
	h.bot.CheckDeadlines(h.clock.Now())
	h.restart()
	h.clock.Advance(30 * time.Minute)
	h.bot.CheckDeadlines(h.clock.Now())
	got := digestsTo(h, mark)
	if got[alice.ID] != 1 || len(got) != 1 {
		t.Fatalf("digests on the day: %v, want one for alice", got)
	}
	for _, q := range h.fake.Requests()[mark:] {
		if q.Kind == discordtest.DirectMessage && strings.HasPrefix(q.Content(), h.say("digest.header")) && len(q.Msg.Embeds) == 0 {
			t.Errorf("the digest lists no game: %s", q.Text())
		}
	}
	mark = h.mark()
	h.clock.Advance(24 * time.Hour)
	h.bot.CheckDeadlines(h.clock.Now())
	if got := digestsTo(h, mark); got[alice.ID] != 1 || len(got) != 1 {
		t.Errorf("digests the next day: %v, want one for alice", got)
	}
}

// A digest claims its day on the stored preferences, not on the copy the
// hourly scan read: what changed since (a reliability count, a choice made
// with /game prefs) stays, and a day already claimed sends nothing.
func TestADigestKeepsWhatChangedSinceTheScan(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.command(alice, chTiny, cmdGame, subPrefs, map[string]any{optDigest: true})
	openTinyTable(t, h, chTiny, alice, bob)
	scanned, err := h.store.UserPrefs(context.Background(), alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.UpdateUserPrefs(context.Background(), alice.ID, func(p *storage.UserPrefs) error {
		p.HeadsUp = true // changed after the scan read its copy
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mark := h.mark()
	h.bot.digests.sendOne(context.Background(), alice.ID, scanned, "2026-11-29")
	h.bot.digests.sendOne(context.Background(), alice.ID, scanned, "2026-11-29")
	if got := digestsTo(h, mark); got[alice.ID] != 1 {
		t.Errorf("digests for one day from two sends: %v, want one", got)
	}
	prefs, err := h.store.UserPrefs(context.Background(), alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !prefs.HeadsUp || prefs.DigestSent != "2026-11-29" {
		t.Errorf("after the digest: heads-up %v, day %q; want the later change kept and the day claimed", prefs.HeadsUp, prefs.DigestSent)
	}
}
