package bot

import (
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// Bot.Run keeps its gateway connection alive with heartbeats: at a short
// interval many are sent and acknowledged, and the connection is never
// dropped for a missing acknowledgement.
func TestRunHeartbeatsKeepTheConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	// the same bot, on a fake whose HELLO asks for a heartbeat every
	// 200 ms: short, yet discordgo drops a connection only after five
	// intervals without an acknowledgement (1 s), which a busy machine
	// running the race detector can come near at shorter intervals
	h.close()
	h.fake = discordtest.NewServer(discordtest.Options{HeartbeatInterval: 200 * time.Millisecond})
	t.Cleanup(h.fake.Close)
	h.open()
	serveOverGateway(t, h)
	waitUntil(t, "ten heartbeats", func() bool { return h.fake.Gateway().Heartbeats >= 10 })
	if st := h.fake.Gateway(); st.Connections != 1 || st.Identifies != 1 || st.Resumes != 0 {
		t.Errorf("the connection did not last through its heartbeats: %+v", st)
	}
	if res := h.command(alice, chTiny, cmdGame, subRules, nil); !res.private() || res.text() == "" {
		t.Errorf("an interaction after the heartbeats: %s", res.text())
	}
}
