// Package interactions serves Discord's HTTP interactions endpoint: the
// address an application's "Interactions Endpoint URL" points at, to which
// Discord POSTs every interaction instead of sending it over the gateway.
//
// A request is taken only when its Ed25519 signature (X-Signature-Ed25519
// over X-Signature-Timestamp followed by the raw body) verifies with the
// application's public key, its timestamp is recent, its interaction has
// not been seen before (by this endpoint, and by the store every process
// shares when Options.FirstDelivery is set), and its body is small; anything else gets 401 (or
// 413 for a body too large) before the body is decoded. The bytes held for
// bodies not yet verified are bounded as a whole (Options.MaxUnverified): a
// request whose declared length is over the limit is refused before its
// body is read, and one that finds the budget spent waits a moment and
// then gets 503, so a flood of forged bodies costs a bounded amount of
// memory. A PING is answered
// with a PONG here; every other interaction goes to the Handler, whose
// initial response (through Answer) becomes the reply to Discord's request.
//
// It imports nothing of Meeple: the bot is reached through Handler, and
// package cmd wires the two. An Endpoint is safe for concurrent use.
package interactions

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"golang.org/x/sync/semaphore"
)

// Handler answers one interaction. It sends the initial response through
// a (Respond, or Accepted once it answered with the REST callback) and may
// go on working after that: edits and follow-ups go through the
// interaction's webhook. ctx lives as long as the endpoint, not the
// request. *bot.Bot's HandleHTTPInteraction is one.
type Handler func(ctx context.Context, i *discordgo.Interaction, a *Answer)

// Options configure an Endpoint. PublicKey and Handler are required; the
// zero value of every other field means its default.
type Options struct {
	// PublicKey is the application's public key (Developer Portal,
	// General Information), which Discord's signatures verify with.
	PublicKey ed25519.PublicKey
	Handler   Handler
	// MaxAge is how far a request's signed timestamp may be from now, in
	// either direction; an older request is refused as a replay. 0 means
	// DefaultMaxAge.
	MaxAge time.Duration
	// MaxBody is the largest body taken, in bytes; 0 means DefaultMaxBody.
	MaxBody int64
	// MaxUnverified is how many bytes of bodies whose signature has not
	// been checked yet may be held at once, over all requests; 0 means
	// DefaultMaxUnverified. A request reserves its Content-Length (MaxBody
	// when it declares none) before its body is read.
	MaxUnverified int64
	// Wait is how long a request waits for the Handler's initial response
	// before it is answered 503; 0 means DefaultWait. Discord itself gives
	// up after 3 seconds.
	Wait time.Duration
	// Timeouts bound reading and writing a request on the Server's
	// connections; the zero value means DefaultTimeouts.
	Timeouts Timeouts
	// FirstDelivery, when set, records an interaction's id in the store
	// every process shares (storage.Deliveries) and reports whether it is
	// its first delivery, so that a replayed request is refused after a
	// restart and at another process too, not only at this one while it
	// runs (a PING, which changes nothing, is not recorded). A failure
	// refuses the request with 503. ctx is the request's.
	FirstDelivery func(ctx context.Context, id string, at time.Time) (bool, error)
	// Count is told the outcome of every request ("interaction", "ping",
	// "unsigned", "forged", "stale", "replayed", "too_large", "bad_request",
	// "incomplete" (the body was cut short or too slow), "method", "busy",
	// "unrecorded" (FirstDelivery failed), "no_answer"); nil means nobody
	// listens.
	Count func(result string)
	// Now is the clock that timestamps are checked against; nil means
	// time.Now.
	Now func() time.Time
	// Logger receives refusals (at DEBUG) and failures; nil discards.
	Logger *slog.Logger
}

// Timeouts bound one connection's work (see net/http.Server).
type Timeouts struct {
	// ReadHeader is how long a request's headers may take to arrive;
	// Read the whole request, body included.
	ReadHeader, Read time.Duration
	// Write is how long, from the end of the request's headers, its
	// answer may take (it includes waiting for the Handler).
	Write time.Duration
	// Idle is how long a kept-alive connection waits for the next request.
	Idle time.Duration
}

// Defaults.
const (
	// DefaultMaxAge: Discord's requests arrive within its 3-second
	// window, so 30 s leaves room for a clock that is off a little and
	// none for a replay worth making.
	DefaultMaxAge = 30 * time.Second
	// DefaultMaxBody: an interaction carries at most the message its
	// component is on (a few kilobytes of text, embeds and components) and
	// the resolved users and channels of a command.
	DefaultMaxBody = 1 << 20
	// DefaultMaxUnverified: eight bodies of the largest size, or a few
	// thousand of the size Discord sends, at once.
	DefaultMaxUnverified = 8 * DefaultMaxBody
	// bodyWait is how long a request waits for room among the unverified
	// bodies before it gets 503: verifying a body takes well under a
	// millisecond, so room comes soon unless the endpoint is flooded.
	bodyWait = time.Second
	// DefaultWait: the bot answers or defers within 1.5 s; past Discord's
	// 3 s an answer is worthless.
	DefaultWait = 3 * time.Second
)

// DefaultTimeouts suit an endpoint behind a reverse proxy or on the open
// internet: a slow client cannot hold a connection for long.
var DefaultTimeouts = Timeouts{ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 10 * time.Second, Idle: 60 * time.Second}

// Endpoint is the interactions endpoint, an http.Handler.
type Endpoint struct {
	opts Options
	ctx  context.Context // handed to the Handler; ended by Close
	stop context.CancelFunc
	log  *slog.Logger

	bodies *semaphore.Weighted // bytes of unverified bodies held

	mu     sync.Mutex
	seen   map[string]time.Time // interaction ids taken, with when
	pruned time.Time            // when seen was last cleared of old ids
}

// ParsePublicKey reads an application's public key as the Developer
// Portal shows it: 64 hexadecimal digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("a public key is %d hexadecimal digits (Developer Portal, General Information)", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// New returns an endpoint configured by o.
func New(o Options) (*Endpoint, error) {
	if len(o.PublicKey) != ed25519.PublicKeySize {
		return nil, errors.New("interactions: the application's public key is required")
	}
	if o.Handler == nil {
		return nil, errors.New("interactions: a handler is required")
	}
	if o.MaxAge <= 0 {
		o.MaxAge = DefaultMaxAge
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxUnverified <= 0 {
		o.MaxUnverified = DefaultMaxUnverified
	}
	if o.MaxUnverified < o.MaxBody {
		o.MaxUnverified = o.MaxBody
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.Timeouts == (Timeouts{}) {
		o.Timeouts = DefaultTimeouts
	}
	if o.Count == nil {
		o.Count = func(string) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Endpoint{opts: o, ctx: ctx, stop: stop, log: o.Logger, bodies: semaphore.NewWeighted(o.MaxUnverified), seen: map[string]time.Time{}}, nil
}

// Server returns an http.Server that serves the endpoint on addr with the
// configured timeouts. Shut it down with Shutdown (requests in flight get
// their answers), then Close the endpoint.
func (e *Endpoint) Server(addr string) *http.Server {
	t := e.opts.Timeouts
	return &http.Server{
		Addr: addr, Handler: e, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle,
		MaxHeaderBytes: 16 << 10, ErrorLog: slog.NewLogLogger(e.log.Handler(), slog.LevelDebug),
	}
}

// Close ends the context handlers were given.
func (e *Endpoint) Close() { e.stop() }

// errRefused is why a request was refused, with the status it gets.
type errRefused struct {
	status int
	result string
	reason string
}

func (r errRefused) Error() string { return r.reason }

// ServeHTTP takes one request from Discord.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i, err := e.read(w, r)
	var refused errRefused
	if errors.As(err, &refused) {
		e.log.Debug("interactions endpoint refused a request", "status", refused.status, "reason", refused.reason, "remote", r.RemoteAddr)
		e.opts.Count(refused.result)
		if refused.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", http.MethodPost)
		}
		http.Error(w, http.StatusText(refused.status), refused.status)
		return
	}
	if i.Type == discordgo.InteractionPing {
		e.opts.Count("ping")
		writeJSON(w, []byte(`{"type":1}`))
		return
	}
	e.opts.Count("interaction")
	e.answer(w, i)
}

// read checks a request and decodes its interaction.
func (e *Endpoint) read(w http.ResponseWriter, r *http.Request) (*discordgo.Interaction, error) {
	if r.Method != http.MethodPost {
		return nil, errRefused{http.StatusMethodNotAllowed, "method", "method " + r.Method}
	}
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	stamp := r.Header.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || stamp == "" {
		return nil, errRefused{http.StatusUnauthorized, "unsigned", "no signature or no timestamp"}
	}
	body, err := e.verified(w, r, stamp, sig)
	if err != nil {
		return nil, err
	}
	at, err := strconv.ParseInt(stamp, 10, 64)
	now := e.opts.Now()
	if age := now.Sub(time.Unix(at, 0)); err != nil || age > e.opts.MaxAge || age < -e.opts.MaxAge {
		return nil, errRefused{http.StatusUnauthorized, "stale", "timestamp " + stamp + " is outside the accepted window"}
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil || i.ID == "" {
		return nil, errRefused{http.StatusBadRequest, "bad_request", "not an interaction"}
	}
	if !e.firstTime(i.ID, now) {
		return nil, errRefused{http.StatusUnauthorized, "replayed", "interaction " + i.ID + " was delivered before"}
	}
	if e.opts.FirstDelivery != nil && i.Type != discordgo.InteractionPing { // a PING changes nothing
		first, err := e.opts.FirstDelivery(r.Context(), i.ID, now)
		if err != nil {
			e.log.Warn("interactions endpoint: the store could not record a delivery; the request is refused", "err", err)
			return nil, errRefused{http.StatusServiceUnavailable, "unrecorded", "the store could not record the delivery"}
		}
		if !first {
			return nil, errRefused{http.StatusUnauthorized, "replayed", "interaction " + i.ID + " was delivered before (the store knows it)"}
		}
	}
	return &i, nil
}

// verified reads r's body and checks its signature, holding room for the
// body among the unverified ones while it does. The signed message is
// built in the one buffer the body is read into.
func (e *Endpoint) verified(w http.ResponseWriter, r *http.Request, stamp string, sig []byte) ([]byte, error) {
	tooLarge := errRefused{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body over %d bytes", e.opts.MaxBody)}
	size := r.ContentLength
	if size > e.opts.MaxBody {
		return nil, tooLarge
	}
	if size < 0 { // not declared: room for the largest
		size = e.opts.MaxBody
	}
	room := int64(len(stamp)) + size
	wait, cancel := context.WithTimeout(r.Context(), bodyWait)
	err := e.bodies.Acquire(wait, room)
	cancel()
	if err != nil {
		return nil, errRefused{http.StatusServiceUnavailable, "busy", "too many bodies waiting for their signature to be checked"}
	}
	defer e.bodies.Release(room)
	buf := bytes.NewBuffer(make([]byte, 0, room+bytes.MinRead))
	buf.WriteString(stamp)
	_, err = buf.ReadFrom(http.MaxBytesReader(w, r.Body, e.opts.MaxBody))
	var over *http.MaxBytesError
	if errors.As(err, &over) {
		return nil, tooLarge
	}
	if err != nil { // cut short, or too slow (a slowloris): not a malformed request
		return nil, errRefused{http.StatusBadRequest, "incomplete", "the body did not arrive whole: " + err.Error()}
	}
	if !ed25519.Verify(e.opts.PublicKey, buf.Bytes(), sig) {
		return nil, errRefused{http.StatusUnauthorized, "forged", "the signature does not verify"}
	}
	return buf.Bytes()[len(stamp):], nil
}

// firstTime records an interaction id and reports whether it is new. Ids
// are kept for twice the accepted age: a request older than that is
// refused by its timestamp.
func (e *Endpoint) firstTime(id string, now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, dup := e.seen[id]; dup {
		return false
	}
	if now.Sub(e.pruned) > e.opts.MaxAge/4 { // a walk every few seconds, not every request
		e.pruned = now
		for old, at := range e.seen {
			if now.Sub(at) > 2*e.opts.MaxAge {
				delete(e.seen, old)
			}
		}
	}
	e.seen[id] = now
	return true
}

// answer runs the Handler and replies to the request with its initial
// response, or 202 when it answered through the REST callback.
func (e *Endpoint) answer(w http.ResponseWriter, i *discordgo.Interaction) {
	a := &Answer{respond: make(chan pending), accepted: make(chan struct{}), gone: make(chan struct{})}
	handled := make(chan struct{})
	go func() {
		defer close(handled)
		e.opts.Handler(e.ctx, i, a)
	}()
	wait := time.NewTimer(e.opts.Wait)
	defer wait.Stop()
	defer close(a.gone)
	select {
	case p := <-a.respond:
		p.written <- writeJSON(w, p.body)
	case <-a.accepted:
		w.WriteHeader(http.StatusAccepted)
	case <-handled:
		e.noAnswer(w, i, "the handler returned without answering")
	case <-wait.C:
		e.noAnswer(w, i, "no answer within "+e.opts.Wait.String())
	}
}

func (e *Endpoint) noAnswer(w http.ResponseWriter, i *discordgo.Interaction, why string) {
	e.opts.Count("no_answer")
	e.log.Warn("interactions endpoint: "+why, "channel", i.ChannelID, "kind", kindName(i.Type))
	http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
}

// kindName names an interaction's type for the log; discordgo's String
// knows no autocomplete.
func kindName(t discordgo.InteractionType) string {
	if t == discordgo.InteractionApplicationCommandAutocomplete {
		return "ApplicationCommandAutocomplete"
	}
	return t.String()
}

// writeJSON writes body as the request's 200 reply and flushes it.
func writeJSON(w http.ResponseWriter, body []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}

// ErrGone: the request no longer waits for an answer (it was answered,
// or it gave up).
var ErrGone = errors.New("interactions: the request no longer waits for an answer")

// Answer is the reply to the request that delivered one interaction.
// Respond and Accepted are safe to call from any goroutine; only the
// first of them counts.
type Answer struct {
	respond  chan pending
	accepted chan struct{}
	gone     chan struct{}
}

type pending struct {
	body    []byte
	written chan error
}

// Respond writes resp as the reply and returns once it is written. It
// fails with ErrGone when the request was answered already or gave up.
func (a *Answer) Respond(resp *discordgo.InteractionResponse) error {
	body, err := json.Marshal(resp)
	if err != nil {
		return fmt.Errorf("interactions: %w", err)
	}
	p := pending{body: body, written: make(chan error, 1)}
	select {
	case a.respond <- p:
		return <-p.written
	case <-a.gone:
		return ErrGone
	}
}

// Accepted replies 202 with no body: the initial response went through
// the REST callback. It does nothing once the request was answered.
func (a *Answer) Accepted() {
	select {
	case a.accepted <- struct{}{}:
	case <-a.gone:
	}
}
