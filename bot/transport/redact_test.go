package transport

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

// TestTheLogHoldsNoToken logs, through the bot's logger, the shapes in
// which a token can reach a log line: the message, a string, an error that
// quotes a URL, an attribute given once for every line, a group.
func TestTheLogHoldsNoToken(t *testing.T) {
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		log := slog.New(WithoutTokens(h)).With("route", "/api/v9/interactions/1/secret-a/callback")
		err := fmt.Errorf("sending: %w", &url.Error{Op: "Patch", URL: "https://discord.com/api/v9/webhooks/9000/secret-b/messages/@original", Err: errors.New("connection reset")})
		log.Error("failed at /webhooks/9000/secret-c", "err", err, "path", "/api/v9/webhooks/9000/secret-d", slog.Group("g", "url", "https://x/interactions/2/secret-e/callback"))
	}
	if got := buf.String(); strings.Contains(got, "secret") || !strings.Contains(got, "connection reset") || !strings.Contains(got, "/webhooks/9000/:token/messages/@original") {
		t.Errorf("log:\n%s", got)
	}
}
