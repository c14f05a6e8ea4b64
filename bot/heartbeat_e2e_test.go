package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// Bot.Run keeps its gateway connection alive with heartbeats: at a short
// interval many are sent and acknowledged, and the connection is never
// dropped for a missing acknowledgement.
func TestRunHeartbeatsKeepTheConnection(t *testing.T) {
	t.Parallel()
	// a fake whose HELLO asks for a heartbeat every two seconds: the bot
	// gives a connection up when an acknowledgement is half an interval
	// late, and a machine at a load of 12 running the race detector has
	// come near half of one second
	h := servedWithHeartbeats(t, 2*time.Second)
	waitUntil(t, "four heartbeats", func() bool { return h.fake.Gateway().Heartbeats >= 4 })
	if st := h.fake.Gateway(); st.Connections != 1 || st.Identifies != 1 || st.Resumes != 0 {
		t.Errorf("the connection did not last through its heartbeats: %+v", st)
	}
	if res := h.command(alice, chTiny, cmdGame, subRules, nil); !res.private() || res.text() == "" {
		t.Errorf("an interaction after the heartbeats: %s", res.text())
	}
}

// A connection that stops acknowledging heartbeats while it stays open
// (a "zombied" connection) is given up after one acknowledgement goes
// missing, not after discordgo's five: the bot connects again and resumes
// its session, and interactions reach it again.
func TestAZombieConnectionIsReplacedAfterOneMissedAck(t *testing.T) {
	t.Parallel()
	// an interval long enough that a busy machine does not make an
	// acknowledgement a second late
	h := servedWithHeartbeats(t, 2*time.Second)
	waitUntil(t, "three heartbeats", func() bool { return h.fake.Gateway().Heartbeats >= 3 })
	h.fake.MuteHeartbeats()
	waitUntil(t, "the session resumed on a new connection", func() bool { return h.fake.Gateway().Resumes >= 1 })
	// one beat goes unanswered before the bot gives up; a second may be
	// on its way meanwhile, and on a loaded machine a third before the
	// reconnection is through; discordgo alone waits for five
	if st := h.fake.Gateway(); st.Unanswered > 3 || st.Connections != 2 {
		t.Errorf("heartbeats left unanswered before reconnecting: %d (connections %d), want at most 3", st.Unanswered, st.Connections)
	}
	if !strings.Contains(h.log(), "a heartbeat went unacknowledged") {
		t.Errorf("the reconnection was not logged:\n%s", h.log())
	}
	if res := h.command(alice, chTiny, cmdGame, subRules, nil); !res.private() || res.text() == "" {
		t.Errorf("an interaction after the reconnection: %s", res.text())
	}
}

// servedWithHeartbeats is a bot served by Bot.Run on a fake whose HELLO
// asks for a heartbeat every interval.
func servedWithHeartbeats(t *testing.T, interval time.Duration) *harness {
	t.Helper()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	h.close()
	h.fake = discordtest.NewServer(discordtest.Options{HeartbeatInterval: interval})
	t.Cleanup(h.fake.Close)
	h.open()
	serveOverGateway(t, h)
	return h
}
