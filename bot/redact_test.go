package bot

import (
	"errors"
	"github.com/meeplegames/meeple/bot/transport"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
)

// cutOff fails, as a network failure, every request through an
// interaction's token or webhook while it is on.
type cutOff struct {
	on   atomic.Bool
	next http.RoundTripper
}

func (c *cutOff) RoundTrip(r *http.Request) (*http.Response, error) {
	if c.on.Load() && transport.IsInteractionCall(r.URL.Path) {
		return nil, errors.New("connection reset by peer")
	}
	return c.next.RoundTrip(r)
}

// TestNoFailedSendLogsItsToken plays a short game while every answer
// through an interaction's token fails, each way it can (the network,
// Discord's errors, a 429), first for every such request and then for
// the webhook's alone (edits, follow-ups, reads of @original): no token
// reaches the log.
func TestNoFailedSendLogsItsToken(t *testing.T) {
	t.Parallel()
	failures := map[string]*discordtest.Failure{
		"network":             nil,
		"server error":        &discordtest.ServerError,
		"unknown interaction": {Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownInteraction, Message: "Unknown interaction"},
		"unknown webhook":     {Status: http.StatusNotFound, Code: discordgo.ErrCodeUnknownWebhook, Message: "Unknown Webhook"},
		"invalid token":       {Status: http.StatusUnauthorized, Code: 50027, Message: "Invalid Webhook Token"},
		"rate limited":        new(discordtest.RateLimited(10*time.Millisecond, 3)),
	}
	scopes := map[string]func(discordtest.Request) bool{
		"every token request": func(q discordtest.Request) bool { return q.Token != "" },
		"the webhook's":       func(q discordtest.Request) bool { return q.Token != "" && q.Kind != discordtest.Callback },
	}
	tokens := regexp.MustCompile(`tok\d+`)
	for name, failure := range failures {
		for scope, match := range scopes {
			t.Run(name+" on "+scope, func(t *testing.T) {
				h := newHarness(t, tinyRegistry(), Config{}, nil, plainText)
				cut := &cutOff{}
				h.session = func() *discordgo.Session {
					s := h.fake.NewSession()
					cut.next = s.Client.Transport
					s.Client.Transport = cut
					return s
				}
				h.restart()
				h.unanswered = true
				h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
				h.command(bob, chTiny, cmdLobby, subJoin, nil)
				if failure == nil {
					cut.on.Store(true)
				} else {
					h.fake.Fail(match, *failure)
				}
				h.command(alice, chTiny, cmdLobby, subStart, nil)
				h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 2"})
				h.command(bob, chTiny, cmdGame, subBoard, nil)
				h.command(carol, chTiny, cmdGame, subRules, nil)
				h.autocomplete(bob, chTiny, cmdPlay, "", map[string]any{optAction: ""}, optAction)
				h.command(bob, chTiny, cmdPlay, "", map[string]any{optAction: "pick 1"})
				cut.on.Store(false)
				h.fake.ClearFailures()
				h.bot.Wait()
				if leaked := tokens.FindAllString(h.log(), -1); len(leaked) > 0 {
					t.Errorf("tokens %v in the log:\n%s", leaked, h.log())
				}
				if log := h.log(); !strings.Contains(log, "failed") && !strings.Contains(log, "expired") && !strings.Contains(log, "refused") {
					t.Errorf("no failure was logged, so no failure path ran:\n%s", h.log())
				}
			})
		}
	}
}
