package discordtest

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestMessagesEditsAndFailures(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s := srv.NewSession()

	m, err := s.ChannelMessageSendComplex("42", &discordgo.MessageSend{Content: "hello",
		Files: []*discordgo.File{{Name: "a.png", ContentType: "image/png", Reader: strings.NewReader("png")}}})
	if err != nil {
		t.Fatal(err)
	}
	text := "edited"
	if _, err := s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: "42", ID: m.ID, Content: &text}); err != nil {
		t.Fatal(err)
	}
	got, ok := srv.Message(m.ID)
	if !ok || got.Content != "edited" || len(got.Attachments) != 1 {
		t.Errorf("message after edit: %+v", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Kind != ChannelSend || len(reqs[0].Files) != 1 || string(reqs[0].Files[0].Data) != "png" {
		t.Errorf("recorded: %+v", reqs)
	}

	// a user refusing DMs gets Discord's 50007
	srv.RefuseDMs("7")
	ch, err := s.UserChannelCreate("7")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.ChannelMessageSend(ch.ID, "psst")
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Errorf("DM to a closed inbox: %v", err)
	}

	// a 429 once: discordgo waits and retries
	srv.Fail(func(q Request) bool { return q.Kind == MessageEdit }, RateLimited(10*time.Millisecond, 1))
	if _, err := s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: "42", ID: m.ID, Content: &text}); err != nil {
		t.Errorf("edit after a 429: %v", err)
	}
	// a 500 every time
	srv.Fail(func(q Request) bool { return q.Kind == ChannelSend }, ServerError)
	if _, err := s.ChannelMessageSend("42", "x"); !errors.As(err, &rest) || rest.Response.StatusCode != http.StatusInternalServerError {
		t.Errorf("send during an outage: %v", err)
	}
}

func TestOnlyDiscordIsRewritten(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	if _, err := srv.Client().Get("https://example.com/"); err == nil {
		t.Error("a request to another host went through")
	}
}

func TestAGlobal429HoldsBackEveryRoute(t *testing.T) {
	t.Parallel()
	srv := NewServer(Options{})
	defer srv.Close()
	s := srv.NewSession()
	const wait = 300 * time.Millisecond
	srv.Fail(func(q Request) bool { return q.Kind == ChannelSend && q.Channel == "1" }, GloballyRateLimited(wait, 1))
	start := time.Now()
	if _, err := s.ChannelMessageSend("1", "x"); err != nil {
		t.Fatalf("send after a global 429: %v", err)
	}
	// the first try was refused, and retried after the wait
	first := srv.Requests()[0]
	if first.Status != http.StatusTooManyRequests {
		t.Fatalf("the first send answered %d", first.Status)
	}
	// discordgo now waits before a request on any route, then sends it
	if _, err := s.ChannelMessageSend("2", "y"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 3 || reqs[2].At.Sub(start) < wait {
		t.Errorf("a request on another route went %v after the global 429 asked for %v", reqs[len(reqs)-1].At.Sub(start), wait)
	}
}
