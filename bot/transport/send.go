package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Sender is the one way out to Discord. Every message, edit, DM and
// interaction answer is fitted to Discord's limits here (fit), and every
// REST call passes its limited transport, which counts the responses Discord holds
// against the bot and holds back before Discord's limit. Handlers never
// call the session themselves.
type Sender struct {
	s       *discordgo.Session
	log     *slog.Logger
	limiter *Limiter
	after   AfterFunc // the clock of interactions' automatic defers

	mu  sync.Mutex
	dms map[string]string // user → their DM channel with the bot
}

// maxDMChannels bounds the DM channel cache; past it an arbitrary entry goes.
const maxDMChannels = 4096

// NewSender sends through s, whose HTTP client it wraps in a Limiter (or
// keeps the one KeepLimits put there). now is the clock of the
// invalid-request window, after that of interactions' automatic defers;
// obs (nil: nobody) hears of every REST call.
func NewSender(s *discordgo.Session, log *slog.Logger, now func() time.Time, after AfterFunc, obs Observer) *Sender {
	g := limitSession(s, log)
	g.setClock(now)
	g.obs = obs
	return &Sender{s: s, log: log, limiter: g, after: after, dms: map[string]string{}}
}

// Session is the bot's own session, for the calls that are not messages
// (commands, the gateway, the bot's user).
func (s *Sender) Session() *discordgo.Session { return s.s }

// Limiter is the transport under every REST call of the session.
func (s *Sender) Limiter() *Limiter { return s.limiter }

// KeepLimits puts Discord's rate limits and the count of refused requests
// (see Limiter) under every REST call of s, before the bot starts: calls
// made before New, such as asking Discord for the shard count, keep the
// limits too. New does it when it was not done. log receives the transport's
// warnings.
func KeepLimits(s *discordgo.Session, log *slog.Logger) { limitSession(s, log) }

func limitSession(s *discordgo.Session, log *slog.Logger) *Limiter {
	if s.Client != nil {
		if g, ok := s.Client.Transport.(*Limiter); ok {
			return g
		}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(WithoutTokens(log.Handler()))
	g := &Limiter{log: log, now: time.Now, limit: invalidHoldBack, limits: newRateLimits(RealWall{})}
	client := http.Client{}
	if s.Client != nil {
		client = *s.Client
	}
	// the client's Timeout bounds each exchange from when its turn comes,
	// not the wait for Discord's limits: a call queued behind the pace or
	// a global 429 must not fail for having waited its turn
	g.exchange, client.Timeout = client.Timeout, 0
	g.next = client.Transport
	if g.next == nil {
		// Go's default keeps 2 idle connections a host; a busy bot talks to
		// one host from many goroutines
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 32
		g.next = t
	}
	client.Transport = g
	s.Client = &client
	return g
}

// Reply starts answering interaction i, through a session of its own
// (interactionSession). doneWords tell a command that was answered by a
// public message only that it is done, in its user's language ("" reads
// "Done.").
func (s *Sender) Reply(i *discordgo.Interaction, doneWords string) *Reply {
	r := newReply(s.interactionSession(), i, s.log, s.after)
	r.doneText = doneWords
	return r
}

// interactionSession returns a session for one interaction's calls (its
// initial response, and its webhook's edits and follow-ups). It shares the
// bot's HTTP client, and so the transport and the REST base URL, but has a rate
// limiter of its own, dropped with the interaction:
//
//   - Interaction calls are exempt from Discord's global limit, so they must
//     never wait for it. discordgo's limiter makes every request wait out a
//     global 429 that any bot-token call received, and its per-route
//     buckets are locked one request at a time: an answer would queue
//     behind bot-token work and could miss Discord's 3-second window.
//   - discordgo keys an interaction's buckets by its token (and every
//     webhook edit of every interaction by one shared key), and never frees
//     a bucket: the shared limiter would grow by one bucket an interaction.
//     Discord counts an interaction's webhook limit per token, which is what
//     a limiter per interaction keeps.
func (s *Sender) interactionSession() *discordgo.Session {
	return &discordgo.Session{
		Token: s.s.Token, UserAgent: s.s.UserAgent, Client: s.s.Client, LogLevel: s.s.LogLevel,
		MaxRestRetries: s.s.MaxRestRetries, ShouldRetryOnRateLimit: s.s.ShouldRetryOnRateLimit,
		Ratelimiter: discordgo.NewRatelimiter(),
	}
}

// Post sends m to a channel and returns the message Discord made; it
// is silent when it pings nobody (see Message.flags).
func (s *Sender) Post(channel string, m Message) (*discordgo.Message, error) {
	return s.create(channel, m, m.flags())
}

// create sends m to a channel with flags.
func (s *Sender) create(channel string, m Message, flags discordgo.MessageFlags) (*discordgo.Message, error) {
	m = Fit(m.withImage())
	send := &discordgo.MessageSend{
		Content: m.Content, Embeds: m.Embeds, Components: m.Components, Files: m.files(), AllowedMentions: m.allowed(), Flags: flags | m.form(),
	}
	if m.described() {
		return describedCall(s.s, "POST", discordgo.EndpointChannelMessages(channel), send, m)
	}
	return s.s.ChannelMessageSendComplex(channel, send)
}

// Edit replaces the text, embeds and components of a message the bot
// posted, and its image when m has one (else its attachments stay). It
// never pings.
func (s *Sender) Edit(channel, id string, m Message) error {
	m = Fit(m.withImage())
	comps, embeds := nonNil(m.Components), m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	edit := func() *discordgo.MessageEdit { // files are read once: a retry needs its own
		e := &discordgo.MessageEdit{
			Channel: channel, ID: id, Content: &m.Content, Embeds: &embeds, Components: &comps,
			AllowedMentions: &discordgo.MessageAllowedMentions{}, Files: m.files(), Attachments: m.onlyNewImage(),
		}
		if m.Card { // a card's edit keeps its flag and names no content or embeds
			e.Content, e.Embeds, e.Flags = nil, nil, m.form()
		}
		return e
	}
	send := func() error {
		if m.described() {
			_, err := describedCall(s.s, "PATCH", discordgo.EndpointChannelMessage(channel, id), edit(), m)
			return err
		}
		_, err := s.s.ChannelMessageEditComplex(edit())
		return err
	}
	err := send()
	if isArchivedThread(err) && s.unarchive(channel) == nil {
		err = send() // a game's thread Discord archived while quiet
	}
	return err
}

// RemoveComponents leaves a message the bot posted without its
// components, its text untouched.
func (s *Sender) RemoveComponents(channel, id string) error {
	none := []discordgo.MessageComponent{}
	_, err := s.s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: channel, ID: id, Components: &none})
	return err
}

// DM sends m to user's DM channel, opening it on first use.
func (s *Sender) DM(user string, m Message) (*discordgo.Message, error) {
	s.mu.Lock()
	ch, ok := s.dms[user]
	s.mu.Unlock()
	if !ok {
		c, err := s.s.UserChannelCreate(user)
		if err != nil {
			return nil, err
		}
		ch = c.ID
		s.mu.Lock()
		if len(s.dms) >= maxDMChannels {
			for u := range s.dms {
				delete(s.dms, u)
				break
			}
		}
		s.dms[user] = ch
		s.mu.Unlock()
	}
	return s.create(ch, m, 0) // a DM is for its reader: it notifies them
}

// Discord's limits on what a message holds (in characters).
const (
	MaxContent          = 2000
	maxEmbeds           = 10
	MaxEmbedTitle       = 256
	MaxEmbedDescription = 4096
	maxEmbedFields      = 25
	maxFieldName        = 256
	MaxEmbedField       = 1024
	maxFooter           = 2048
	MaxEmbedTotal       = 6000
	MaxRows             = 5
	maxRowButtons       = 5
	MaxLabel            = 80  // a button's label
	maxOptionText       = 100 // a select option's label, value and description
	MaxSelectOptions    = 25
	maxPlaceholder      = 150
	maxModalTitle       = 45
	maxInputLabel       = 45
	maxInputHolder      = 100
	MaxChoices          = 25 // autocomplete choices
	maxChoiceText       = 100
	MaxCustomID         = 100 // a component's custom_id
)

// Fit returns m shortened to Discord's limits: long texts are clipped,
// surplus embeds, fields, rows and options dropped, and components whose
// custom_id Discord would refuse left out. Every text the bot sends passes
// here, so no answer fails for its length.
func Fit(m Message) Message {
	m.Alt = Clip(m.Alt, MaxAltText)
	if m.Card {
		return fitCard(m)
	}
	m.Content = Clip(m.Content, MaxContent)
	if len(m.Embeds) > maxEmbeds {
		m.Embeds = m.Embeds[:maxEmbeds]
	}
	budget := MaxEmbedTotal
	embeds := make([]*discordgo.MessageEmbed, 0, len(m.Embeds))
	for _, e := range m.Embeds {
		if e == nil {
			continue
		}
		c := *e
		c.Title = clipBudget(c.Title, MaxEmbedTitle, &budget)
		c.Description = clipBudget(c.Description, MaxEmbedDescription, &budget)
		if c.Footer != nil {
			f := *c.Footer
			f.Text = clipBudget(f.Text, maxFooter, &budget)
			c.Footer = &f
		}
		if len(c.Fields) > maxEmbedFields {
			c.Fields = c.Fields[:maxEmbedFields]
		}
		fields := make([]*discordgo.MessageEmbedField, 0, len(c.Fields))
		for _, f := range c.Fields {
			if f == nil || budget < 2 {
				continue
			}
			g := *f
			g.Name = OrNone(clipBudget(g.Name, maxFieldName, &budget))
			g.Value = OrNone(clipBudget(g.Value, MaxEmbedField, &budget))
			fields = append(fields, &g)
		}
		c.Fields = fields
		embeds = append(embeds, &c)
	}
	if m.Embeds != nil {
		m.Embeds = embeds
	}
	m.Components = fitRows(m.Components)
	return m
}

// clipBudget clips s to n characters and to what is left of budget, and
// takes its length from budget.
func clipBudget(s string, n int, budget *int) string {
	s = Clip(s, min(n, max(*budget, 0)))
	*budget -= utf8.RuneCountInString(s)
	return s
}

// fitRows keeps at most five rows of at most five buttons or one select
// menu, each with texts within Discord's limits and a valid custom_id.
func fitRows(rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	if rows == nil {
		return nil
	}
	out := []discordgo.MessageComponent{}
	seen := map[string]bool{} // custom_ids are unique in a message
	for _, row := range rows {
		ar, ok := asRow(row)
		if !ok || len(out) == MaxRows {
			continue
		}
		var comps []discordgo.MessageComponent
		menu := false // a select menu is alone in its row
		for _, c := range ar.Components {
			switch c := c.(type) {
			case discordgo.Button:
				if menu || len(comps) == maxRowButtons || !validCustomID(c.CustomID, seen) {
					continue
				}
				c.Label = Clip(c.Label, MaxLabel)
				comps = append(comps, c)
			case discordgo.SelectMenu:
				if len(comps) > 0 || !validCustomID(c.CustomID, seen) {
					continue
				}
				c.Placeholder = Clip(c.Placeholder, maxPlaceholder)
				c.Options = fitOptions(c.Options)
				if len(c.Options) == 0 {
					continue
				}
				comps, menu = append(comps, c), true
			}
		}
		if len(comps) > 0 {
			out = append(out, discordgo.ActionsRow{Components: comps})
		}
	}
	return out
}

func asRow(c discordgo.MessageComponent) (discordgo.ActionsRow, bool) {
	switch r := c.(type) {
	case discordgo.ActionsRow:
		return r, true
	case *discordgo.ActionsRow:
		return *r, r != nil
	}
	return discordgo.ActionsRow{}, false
}

func validCustomID(id string, seen map[string]bool) bool {
	n := utf8.RuneCountInString(id)
	if n == 0 || n > MaxCustomID || seen[id] {
		return false
	}
	seen[id] = true
	return true
}

// fitOptions keeps 25 options whose value fits (a clipped value would
// mean another choice); labels and descriptions are clipped.
func fitOptions(opts []discordgo.SelectMenuOption) []discordgo.SelectMenuOption {
	var out []discordgo.SelectMenuOption
	values := map[string]bool{}
	for _, o := range opts {
		if len(out) == MaxSelectOptions {
			break
		}
		if n := utf8.RuneCountInString(o.Value); n == 0 || n > maxOptionText || values[o.Value] {
			continue
		}
		values[o.Value] = true
		o.Label = Clip(o.Label, maxOptionText)
		o.Description = Clip(o.Description, maxOptionText)
		out = append(out, o)
	}
	return out
}

// fitForm shortens a modal's title, labels and placeholders.
func fitForm(data *discordgo.InteractionResponseData) *discordgo.InteractionResponseData {
	d := *data
	d.Title = Clip(d.Title, maxModalTitle)
	rows := make([]discordgo.MessageComponent, 0, len(d.Components))
	for _, row := range d.Components {
		ar, ok := asRow(row)
		if !ok {
			continue
		}
		comps := make([]discordgo.MessageComponent, 0, len(ar.Components))
		for _, c := range ar.Components {
			if in, ok := c.(discordgo.TextInput); ok {
				in.Label = Clip(in.Label, maxInputLabel)
				in.Placeholder = Clip(in.Placeholder, maxInputHolder)
				c = in
			}
			comps = append(comps, c)
		}
		rows = append(rows, discordgo.ActionsRow{Components: comps})
	}
	d.Components = rows
	return &d
}

// fitChoices keeps 25 autocomplete choices whose name and value fit.
func fitChoices(cs []*discordgo.ApplicationCommandOptionChoice) []*discordgo.ApplicationCommandOptionChoice {
	out := []*discordgo.ApplicationCommandOptionChoice{}
	for _, c := range cs {
		if len(out) == MaxChoices {
			break
		}
		v, _ := c.Value.(string)
		if c.Name == "" || utf8.RuneCountInString(c.Name) > maxChoiceText || utf8.RuneCountInString(v) > maxChoiceText {
			continue
		}
		out = append(out, c)
	}
	return out
}

// OrNone is s, or a dash when s is blank: Discord refuses an embed field
// with no text.
func OrNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// Clip shortens s to n characters, ending it with an ellipsis.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Discord bans the IP, for an hour, of a bot that receives 10,000 invalid
// responses (401, 403 and 429) in ten minutes. The transport counts them in a
// sliding ten-minute window and holds back at half that.
const (
	invalidWindow   = 10 * time.Minute
	invalidHoldBack = 5000
)

// Discord accepts 50 bot-token requests a second from a bot, counted as
// they arrive. The transport sends at most paceBurst at once and paceRate a
// second after that: at most 40 in any second as they leave, and under
// 50 as they arrive even when some are delayed on the way by up to about
// a quarter of a second (a busy machine, a slow connection) and bunch up
// with later ones (interaction answers are not counted).
const (
	paceRate     = 35
	paceBurst    = 5
	paceInterval = time.Second / paceRate
)

// errHoldingBack: the transport refused to send a request because too many
// recent requests were refused by Discord.
var errHoldingBack = errors.New("holding back: too many requests refused by Discord in the last ten minutes")

// Limiter is the HTTP transport under the session, so that no request of
// the process escapes it. It keeps Discord's rate limits (rateLimits: the
// global limit, each route's bucket, a steady pace), counts the invalid
// responses Discord holds against the bot (401, 403, and 429 other than a
// shared resource's), logs them without their URL's tokens, and while the
// count of the last ten minutes is at its limit it refuses every request
// but interaction answers without sending it.
type Limiter struct {
	next   http.RoundTripper
	log    *slog.Logger
	now    func() time.Time // the bot's clock, for the invalid-request window
	limit  int
	limits *rateLimits
	// exchange bounds one request's exchange with Discord, from when the
	// limits let it go to its body's close (0: unbounded)
	exchange time.Duration
	// obs hears of every call (observe.go); queued counts the bot-token
	// calls waiting for Discord's limits
	obs    Observer
	queued atomic.Int64

	mu       sync.Mutex
	invalid  []time.Time // when each invalid response of the window came, oldest first
	holding  bool
	tooMany  int // 429s received since the start
	requests int // requests sent since the start
}

// RoundTrip sends r when Discord's limits allow, unless the transport holds
// back.
func (g *Limiter) RoundTrip(r *http.Request) (*http.Response, error) {
	if !IsInteractionCall(r.URL.Path) && g.full() {
		return nil, errHoldingBack
	}
	t, err := g.admitted(r)
	if err != nil {
		return nil, err
	}
	send, bound := g.bounded(r)
	resp, err := g.next.RoundTrip(send)
	if err != nil {
		resp = nil
	}
	bound(resp)
	resp = g.limits.release(t, r, resp)
	g.seen(r, resp, err)
	g.mu.Lock()
	g.requests++
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		g.tooMany++
	}
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	padResetAfter(resp.Header)
	// The transport keeps the global limit itself, for bot-token calls only;
	// discordgo would hold every call of the session behind it,
	// interaction answers too, which Discord's global limit does not bind.
	resp.Header.Del("X-RateLimit-Global")
	if invalidResponse(resp) {
		g.count(r, resp)
	}
	return resp, nil
}

// bounded returns r with the transport's exchange time running from now, and
// the function that ends that time with the response's body (at once
// without a response).
func (g *Limiter) bounded(r *http.Request) (*http.Request, func(*http.Response)) {
	if g.exchange <= 0 {
		return r, func(*http.Response) {}
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.exchange)
	return r.WithContext(ctx), func(resp *http.Response) {
		if resp == nil {
			cancel()
			return
		}
		resp.Body = cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	}
}

// cancelOnClose is a response body whose request's context ends when it
// is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// resetMargin is added to a bucket's X-RateLimit-Reset-After before
// discordgo reads it: discordgo drops its fraction of a millisecond and
// starts the wait after the response arrived, so on a close call its next
// request could reach Discord a moment before the bucket refills, and
// Discord would count the 429 against the bot.
const resetMargin = 0.05 // seconds

func padResetAfter(h http.Header) {
	v := h.Get("X-RateLimit-Reset-After")
	if v == "" {
		return
	}
	after, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return
	}
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after+resetMargin, 'f', 3, 64))
}

func invalidResponse(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return true
	case http.StatusTooManyRequests:
		return !strings.EqualFold(resp.Header.Get("X-RateLimit-Scope"), "shared")
	}
	return false
}

// setClock sets the clock of the invalid-request window.
func (g *Limiter) setClock(now func() time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.now = now
}

// SetWall sets the clock Discord's rate limits are kept on (tests hold it
// still or make it jump).
func (g *Limiter) SetWall(w Wall) {
	g.limits.mu.Lock()
	defer g.limits.mu.Unlock()
	g.limits.wall = w
}

// Exchange is how long one request's exchange with Discord may take once
// the limits let it go (the session's HTTP timeout, taken over).
func (g *Limiter) Exchange() time.Duration { return g.exchange }

// SetExchange sets Exchange; tests set it before the calls they time.
func (g *Limiter) SetExchange(d time.Duration) { g.exchange = d }

// HoldBackAt sets how many invalid responses in ten minutes make the
// transport hold back (5,000 unless a test sets it).
func (g *Limiter) HoldBackAt(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit = n
}

// count records one invalid response.
func (g *Limiter) count(r *http.Request, resp *http.Response) {
	g.mu.Lock()
	now := g.now()
	g.expireLocked(now)
	g.invalid = append(g.invalid, now)
	total := len(g.invalid)
	startHolding := total >= g.limit && !g.holding
	g.holding = g.holding || startHolding
	g.mu.Unlock()
	level := slog.LevelDebug
	if total%100 == 1 {
		level = slog.LevelWarn
	}
	route := r.Method + " " + redactTokens(r.URL.Path)
	if startHolding {
		g.log.Warn("holding back: Discord refused too many requests in the last ten minutes; no bot-token request goes out until the count falls (interaction answers still do)",
			"status", resp.StatusCode, "route", route, "invalid_last_10m", total, "limit", g.limit, "discord_bans_at", 10000, "holding_back", true)
		return
	}
	g.log.Log(context.Background(), level, "Discord refused a request", "status", resp.StatusCode, "route", route,
		"invalid_last_10m", total, "holding_back", false)
}

// expireLocked drops the invalid responses older than the window.
func (g *Limiter) expireLocked(now time.Time) {
	n := 0
	for n < len(g.invalid) && now.Sub(g.invalid[n]) >= invalidWindow {
		n++
	}
	if n > 0 {
		g.invalid = append(g.invalid[:0], g.invalid[n:]...)
	}
}

// full reports whether the invalid responses of the last ten minutes
// reached the limit.
func (g *Limiter) full() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.holding {
		return false
	}
	g.expireLocked(g.now())
	if len(g.invalid) < g.limit {
		g.holding = false
		g.log.Info("sending to Discord again: invalid responses back under the limit", "invalid_last_10m", len(g.invalid), "limit", g.limit)
		return false
	}
	return true
}

// Totals returns how many requests were sent and how many were answered
// 429 since the start.
func (g *Limiter) Totals() (requests, tooMany int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.requests, g.tooMany
}

// InvalidCount returns the invalid responses of the last ten minutes.
func (g *Limiter) InvalidCount() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.expireLocked(g.now())
	return len(g.invalid)
}

// IsInteractionCall reports whether a REST path answers an interaction
// (exempt from the global limit, and never held back: the player waits).
func IsInteractionCall(path string) bool {
	return strings.Contains(path, "/interactions/") || strings.Contains(path, "/webhooks/")
}

// ErrorCode returns the Discord error code of a REST error, or 0.
func ErrorCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

func IsUnknownMessage(err error) bool { return ErrorCode(err) == discordgo.ErrCodeUnknownMessage }

func IsCannotDM(err error) bool {
	return ErrorCode(err) == discordgo.ErrCodeCannotSendMessagesToThisUser
}

// DescribeError is a short description of a failed send for the log,
// without the interaction tokens a URL may carry.
func DescribeError(err error) string {
	if code := ErrorCode(err); code != 0 {
		return fmt.Sprintf("Discord error %d", code)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		path := ue.URL
		if u, perr := url.Parse(ue.URL); perr == nil {
			path = u.Path
		}
		return ue.Op + " " + redactTokens(path) + ": " + redactTokens(ue.Err.Error())
	}
	return err.Error()
}
