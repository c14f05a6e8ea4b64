package discordtest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/endpoint"
)

// burst has processes sessions (as several bot processes sharing one
// token would) each post one message to each of channels channels at once,
// with REST going to base.
func burst(t *testing.T, base string, processes, channels int) {
	t.Helper()
	var wg sync.WaitGroup
	for p := range processes {
		s, _ := discordgo.New("Bot " + Token)
		if err := endpoint.Apply(s, endpoint.Config{REST: base}); err != nil {
			t.Fatal(err)
		}
		for c := range channels {
			wg.Go(func() {
				ch := fmt.Sprint(40000 + p*channels + c)
				if _, err := s.ChannelMessageSend(ch, "hello"); err != nil {
					t.Errorf("process %d, channel %s: %v", p, ch, err)
				}
			})
		}
	}
	wg.Wait()
}

// TestProxyKeepsProcessesWithinTheGlobalLimit shows why several processes
// need a shared REST proxy: three of them sending 40 messages each at once
// go over Discord's 50 a second together and meet global 429s, while the
// same burst through the proxy stays within the limit with none.
func TestProxyKeepsProcessesWithinTheGlobalLimit(t *testing.T) {
	t.Parallel()
	const processes, channels = 3, 40
	direct := NewServer(Options{})
	defer direct.Close()
	burst(t, direct.URL(), processes, channels)
	if _, refused := direct.GlobalPeak(); refused == 0 {
		t.Errorf("without a proxy, %d requests at once met no global 429; the test shows nothing", processes*channels)
	}

	fake := NewServer(Options{})
	defer fake.Close()
	proxy, err := NewProxy(fake.URL(), GlobalLimit-5)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	burst(t, proxy.URL(), processes, channels)
	peak, refused := fake.GlobalPeak()
	if refused != 0 || peak > GlobalLimit {
		t.Errorf("through the proxy: %d global 429s, at most %d requests in a second (limit %d)", refused, peak, GlobalLimit)
	}
	if proxy.Held() == 0 {
		t.Error("the proxy held no request back")
	}
	sent := 0
	for _, q := range fake.Requests() {
		if q.Kind == ChannelSend && q.Status == 200 {
			sent++
		}
	}
	if sent != processes*channels {
		t.Errorf("%d messages delivered, want %d", sent, processes*channels)
	}
	t.Logf("through the proxy: peak %d a second, %d held back, 0 refused", peak, proxy.Held())
}
