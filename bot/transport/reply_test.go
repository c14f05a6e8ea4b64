package transport

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The automatic defer runs on a timer's goroutine, outside the handler's
// recover: a panic there is logged, and the process goes on.
func TestAPanicInTheAutomaticDeferIsRecovered(t *testing.T) {
	t.Parallel()
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	// no session: sending the defer panics
	r := newReply(nil, &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, ChannelID: "1"}, log, nil)
	r.Done()
	r.autoDefer()
	if !strings.Contains(logged.String(), "recovered from a panic in an automatic defer") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("the panic was not logged with its stack:\n%s", logged.String())
	}
}
