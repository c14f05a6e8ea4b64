package bot

import (
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/bot/endpoint"
)

// stormFor is how long the global 429 storms of these tests last.
const stormFor = 5 * time.Second

// 8 games play, and 32 writers post in their channels, while Discord
// answers every bot-token request with a global 429 for 5 s, half of its
// answers with X-RateLimit-Reset-After and half without: no request that
// the bot sent after it had taken in a 429 reaches Discord inside the
// window that 429 announced (one already on its way when Discord answered
// is counted apart), interactions are answered throughout, and everything
// is delivered once the storm is over.
func TestAGlobalStormIsWaitedOutByEveryGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	weatherStorm(t, h)
}

// The same with the bot behind a rate-limiting REST proxy ([discord]
// rest_base_url), which passes Discord's 429s through.
func TestAGlobalStormIsWaitedOutBehindARESTProxy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	proxy, err := discordtest.NewProxy(h.fake.URL(), 45)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	h.session = func() *discordgo.Session {
		s, _ := discordgo.New("Bot " + discordtest.Token)
		client, err := endpoint.Client(endpoint.Config{REST: proxy.URL()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		client.Timeout = 30 * time.Second
		s.Client, s.MaxRestRetries = client, 1
		return s
	}
	h.restart()
	weatherStorm(t, h)
	if !strings.Contains(h.fake.Requests()[len(h.fake.Requests())-1].Header.Get("X-Forwarded-For"), "127.0.0.1") {
		t.Error("the requests did not come through the proxy")
	}
}

// stormTrace records, through the transport's trace, which global 429s the
// bot had taken in when it let each request go.
type stormTrace struct {
	mu      sync.Mutex
	next    int
	knownAt map[string]int // request → how many global 429s were taken in before it went
	takenAt map[string]int // a 429'd request → its place among the 429s taken in
	taken   int
}

const traceHeader = "X-Meeple-Test-Request"

func newStormTrace() *stormTrace {
	return &stormTrace{knownAt: map[string]int{}, takenAt: map[string]int{}}
}

func (s *stormTrace) hooks() *transport.Trace {
	return &transport.Trace{
		Sent: func(r *http.Request) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.next++
			id := strconv.Itoa(s.next)
			r.Header.Set(traceHeader, id)
			s.knownAt[id] = s.taken
		},
		Paused: func(r *http.Request, _ time.Time) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.takenAt[r.Header.Get(traceHeader)] = s.taken
			s.taken++
		},
	}
}

// inFlight reports whether the bot sent q before it had taken in the 429
// that announced window: such a request was on its way when Discord
// answered, and no client could have held it.
func (s *stormTrace) inFlight(q, window discordtest.Request) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	known, ok := s.knownAt[q.Header.Get(traceHeader)]
	place, taken := s.takenAt[window.Header.Get(traceHeader)]
	return ok && taken && known <= place
}

// weatherStorm opens 8 games, then plays them and posts in their channels
// from 8 goroutines through a storm, and checks what reached Discord.
func weatherStorm(t *testing.T, h *harness) {
	trace := newStormTrace()
	h.bot.send.Limiter().SetTrace(trace.hooks())
	var channels []string
	for n := range 8 {
		ch := fmt.Sprint(4001 + n)
		channels = append(channels, ch)
		openTinyTable(t, h, ch, alice, bob)
	}
	h.bot.Wait()
	before := len(h.fake.Requests())
	storm := discordtest.Storm{For: stormFor, RetryAfter: 700 * time.Millisecond, ResetAfter: discordtest.ResetAfterAlternate}
	h.fake.GlobalStorm(storm)
	var wg, picks sync.WaitGroup
	var mu sync.Mutex
	posts := 0
	// the players pick (the board is edited by bot-token calls); on a busy
	// machine the picks may outlast the storm, so the posters, who start
	// when every pick is in, get a storm of their own
	picks.Add(len(channels))
	var end time.Time
	posting := make(chan struct{})
	go func() {
		picks.Wait()
		end = time.Now().Add(stormFor)
		h.fake.GlobalStorm(storm)
		close(posting)
	}()
	for _, ch := range channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, u := range []tester{alice, bob} {
				if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: "1"}); !h.says(res.text(), "play.played", "Action", "pick 1") {
					t.Errorf("%s's pick in %s during the storm: %s", u.Name, ch, res.text())
				}
			}
			picks.Done()
			<-posting
			// notices are posted until the storm is over
			var posters sync.WaitGroup
			for p := range 4 {
				posters.Add(1)
				go func() {
					defer posters.Done()
					for n := 0; n < 2 || time.Now().Before(end); n++ {
						h.bot.pub.post(ch, transport.Message{Content: fmt.Sprintf("notice %d.%d", p, n)}, 0)
						mu.Lock()
						posts++
						mu.Unlock()
					}
				}()
			}
			posters.Wait()
		}()
	}
	wg.Wait()
	h.bot.Wait()

	breaches, excused := h.fake.GlobalBreaches(trace.inFlight)
	for _, b := range breaches {
		t.Errorf("%s %s reached Discord %v into the window of %v that the 429 to %s %s opened, after the bot had taken that 429 in",
			b.Request.Method, b.Request.Path, b.Request.At.Sub(b.Window.Answered), b.Window.Until.Sub(b.Window.Answered),
			b.Window.Method, b.Window.Path)
	}
	refused, delivered := 0, 0
	for _, q := range h.fake.Requests()[before:] {
		switch {
		case q.Status == http.StatusTooManyRequests:
			refused++
		case q.Kind == discordtest.ChannelSend && q.Status == http.StatusOK && strings.HasPrefix(q.Content(), "notice"):
			delivered++
		}
	}
	trace.mu.Lock()
	taken := trace.taken
	trace.mu.Unlock()
	t.Logf("storm of %v: %d global 429s (%d taken in by the transport); requests already on their way when a 429 was answered arrived inside its window %d times; %d notices posted, %d delivered; %d requests inside a window the bot knew of",
		stormFor, refused, taken, excused, posts, delivered, len(breaches))
	// a 429 every window (0.7 s) when the bot keeps sending; on a busy
	// machine the bot sends less often, but two windows at least show
	// that the storm met it more than once
	if refused < 2 {
		t.Errorf("only %d global 429s: the storm did not meet the bot", refused)
	}
	if taken != refused {
		t.Errorf("the bot was answered %d global 429s and took in %d", refused, taken)
	}
	if delivered != posts {
		t.Errorf("%d of %d notices delivered after the storm", delivered, posts)
	}
}
