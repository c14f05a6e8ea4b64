package transport

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
)

// tokenRoute matches a REST route that carries a token, in a path or in a
// whole URL quoted in an error: /interactions/{id}/{token} and
// /webhooks/{app}/{token}. An interaction token lets anyone answer,
// edit or follow up the interaction for 15 minutes, so none is logged.
var tokenRoute = regexp.MustCompile(`(/(?:interactions|webhooks)/[^/?#\s"']+/)[^/?#\s"']+`)

// redactTokens returns s with the token of every route in it replaced by
// ":token". It is the one redaction every log line of the bot goes
// through (tokenFree), and the one of routes as metric labels.
func redactTokens(s string) string {
	if !strings.Contains(s, "/interactions/") && !strings.Contains(s, "/webhooks/") {
		return s
	}
	return tokenRoute.ReplaceAllString(s, "${1}:token")
}

// tokenFree is a log handler that redacts tokens (redactTokens) in the
// message and in every string and error it is given, so that an error
// that carries a URL is safe to log whoever logs it.
type tokenFree struct{ next slog.Handler }

// WithoutTokens wraps h so that no interaction or webhook token reaches
// it: the bot's logger and Guard's go through it, and "meeple run" puts
// its whole log through it.
func WithoutTokens(h slog.Handler) slog.Handler {
	if _, ok := h.(tokenFree); ok {
		return h
	}
	return tokenFree{h}
}

func (h tokenFree) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h tokenFree) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, redactTokens(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h tokenFree) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for n, a := range as {
		clean[n] = redactAttr(a)
	}
	return tokenFree{h.next.WithAttrs(clean)}
}

func (h tokenFree) WithGroup(name string) slog.Handler { return tokenFree{h.next.WithGroup(name)} }

// redactAttr redacts a's strings and errors, in groups too.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redactTokens(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]any, len(group))
		for n, g := range group {
			clean[n] = redactAttr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, redactTokens(err.Error()))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
