package bot

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/storage"
)

// botTokenCall reports whether a request counts against the bot token's
// global rate limit: everything but interaction answers (the callback and
// the interaction's webhook).
func botTokenCall(q discordtest.Request) bool {
	switch q.Kind {
	case discordtest.Callback, discordtest.Followup, discordtest.OriginalEdit, discordtest.FollowupEdit, discordtest.WebhookGet:
		return false
	}
	return true
}

// maxCallsPerDecision is the REST budget: bot-token calls per decision
// over a whole game.
const maxCallsPerDecision = 0.5

// checkRESTBudget fails when the whole game just played in ch (the only
// game of the harness) cost more than maxCallsPerDecision bot-token calls
// per decision, from its lobby to its final scores.
func checkRESTBudget(t *testing.T, h *harness, kind string) {
	t.Helper()
	g, err := h.store.GetByID(context.Background(), 1)
	if err != nil || g.Status != storage.StatusFinished {
		t.Fatalf("the game: %v %+v", err, g)
	}
	decisions := len(g.Log)
	calls, byKind := 0, map[string]int{}
	for _, q := range h.fake.Requests() {
		if botTokenCall(q) && q.Kind != discordtest.Commands {
			calls++
			byKind[string(q.Kind)]++
		}
	}
	var kinds []string
	for k, n := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	per := float64(calls) / float64(decisions)
	t.Logf("%s, %d players: %d bot-token REST calls for %d decisions = %.2f a decision (%s)", kind, len(g.Seats), calls, decisions, per, strings.Join(kinds, ", "))
	if per > maxCallsPerDecision {
		t.Errorf("%.2f REST calls a decision, budget %.1f", per, maxCallsPerDecision)
	}
}
