package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/discordtest"
)

// TestShutdownHasADeadline stops Run while Discord never answers the
// requests that follow a game's start (its board): Run returns once
// ShutdownWait has passed, rather than wait for Discord, and logs what it
// cut short.
func TestShutdownHasADeadline(t *testing.T) {
	h := newHarness(t, tinyRegistry(), Config{NoGateway: true}, nil, plainText)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- h.bot.Run(ctx) }()
	waitUntil(t, "command registration", func() bool { return countKind(h.fake, discordtest.Commands) == 1 })
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	h.command(bob, chTiny, cmdLobby, subJoin, nil)
	caught, release := h.fake.Hold(func(q discordtest.Request) bool { return q.Kind != discordtest.Callback })
	var wg sync.WaitGroup
	defer wg.Wait()
	defer release()
	wg.Go(func() { h.command(alice, chTiny, cmdLobby, subStart, nil) })
	<-caught
	cancel()
	h.clock.WaitForTimer(DefaultShutdownWait)
	h.clock.Advance(DefaultShutdownWait)
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run waited for Discord past its shutdown deadline")
	}
	if log := h.log(); !strings.Contains(log, "cut short") || !strings.Contains(log, "board_updates=1") {
		t.Errorf("the log does not say what was cut short:\n%s", log)
	}
}
