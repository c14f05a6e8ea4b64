package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// AckBudget is how long a handler may work before its interaction is
// deferred automatically; Discord invalidates the token after 3 s. Most
// interactions are acknowledged long before (see router.acknowledge):
// this is the safety net of the commands that answer when their work is
// done.
const AckBudget = 1500 * time.Millisecond

// AfterFunc runs f once d has passed on a clock, in a goroutine of its
// own, and returns what stops it (see Config.AfterFunc).
type AfterFunc func(d time.Duration, f func()) (stop func() bool)

// RealAfterFunc is time.AfterFunc.
func RealAfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// Message is one message Meeple sends: public or only for the interaction's user.
type Message struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Image      []byte // a PNG attached as imageName
	// Alt is the image's alt text (its attachment's description): what
	// the picture shows, for those who cannot see it. A message with alt
	// text is never an interaction's first response, which cannot carry
	// it: its interaction is deferred first.
	Alt string
	// Loose shows Image as the message's own attachment, above its
	// embeds, where Discord shows it larger (550×350 on the desktop)
	// than inside an embed (400×300); otherwise it is the first embed's
	// image.
	Loose bool
	// Card makes m a Components V2 message (Discord's IS_COMPONENTS_V2):
	// its Components are all it shows (text displays, a media gallery,
	// action rows, usually in a container), without Content or Embeds,
	// and its Image is shown where a gallery item names
	// attachment://ImageName, with the item's description as alt text.
	// Discord never lets the flag go, so a card stays a card.
	Card     bool
	Private  bool // ephemeral
	Mentions []string
}

const ImageName = "board.png"

// withImage returns m with its image shown inside its first embed, unless
// it is a loose attachment.
func (m Message) withImage() Message {
	if m.Image == nil || m.Loose || len(m.Embeds) == 0 || m.Embeds[0].Image != nil {
		return m
	}
	e := *m.Embeds[0]
	e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + ImageName}
	m.Embeds = append([]*discordgo.MessageEmbed{&e}, m.Embeds[1:]...)
	return m
}

func (m Message) files() []*discordgo.File {
	if m.Image == nil {
		return nil
	}
	return []*discordgo.File{{Name: ImageName, ContentType: "image/png", Reader: bytes.NewReader(m.Image)}}
}

// flags are m's message flags: a private message is ephemeral, and a
// public one that pings nobody is silent (Discord's SUPPRESS_NOTIFICATIONS:
// no push or desktop notification even for those who follow every
// message of the channel), so that routine posts make no phone buzz.
func (m Message) flags() discordgo.MessageFlags {
	switch {
	case m.Private:
		return discordgo.MessageFlagsEphemeral | m.form()
	case len(m.Mentions) == 0:
		return discordgo.MessageFlagsSuppressNotifications | m.form()
	}
	return m.form()
}

// form is the flag of m's form: IS_COMPONENTS_V2 for a card, else none.
func (m Message) form() discordgo.MessageFlags {
	if m.Card {
		return discordgo.MessageFlagsIsComponentsV2
	}
	return 0
}

func (m Message) allowed() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Users: m.Mentions}
}

// responseData converts m for an interaction response.
func (m Message) responseData() *discordgo.InteractionResponseData {
	m = m.withImage()
	return &discordgo.InteractionResponseData{
		Content: m.Content, Embeds: m.Embeds, Components: nonNil(m.Components), Files: m.files(),
		Flags: m.flags(), AllowedMentions: m.allowed(),
	}
}

func nonNil(c []discordgo.MessageComponent) []discordgo.MessageComponent {
	if c == nil {
		return []discordgo.MessageComponent{}
	}
	return c
}

// ack is how an interaction was first answered.
type ack int

const (
	ackNone    ack = iota
	ackMessage     // a message, or a deferred one (its @original is ours)
	ackUpdate      // a component's message was updated, or that is deferred
	ackOther       // a modal or autocomplete result
)

// Reply answers one interaction. It sends exactly one initial response
// (deferring on its own when the handler takes longer than AckBudget) and
// turns later answers into edits and follow-ups. Safe for concurrent use.
type Reply struct {
	s   *discordgo.Session
	i   *discordgo.Interaction
	log *slog.Logger

	mu      sync.Mutex
	state   ack
	private bool        // the deferred message is ephemeral
	edited  bool        // @original of a deferred message was filled
	lost    bool        // Discord no longer knows the interaction: nothing more can be sent
	stop    func() bool // stops the automatic defer
	err     error       // first error sending
	inline  Inline      // the HTTP request that delivered the interaction, if one waits (inline.go)
	// doneText tells a command that was answered by a public message
	// only that it is done, in its user's language ("" reads "Done.")
	doneText string
	sentAt   time.Time // when the initial response went out (inline.go)
	// pending keeps the record of a deferred answer (pending.go); kept
	// is closed once it was kept (or failed to be)
	pending    Pending
	pendingCtx context.Context // the interaction's, for pending's calls
	kept       chan struct{}
	after      AfterFunc
	// answered is closed once the interaction is answered or its handler
	// is done (see unblockFollowups).
	answered     chan struct{}
	answeredOnce sync.Once
}

// errInteractionLost: the interaction's initial response was refused as
// too late, so neither it nor its webhook can be used any more.
var errInteractionLost = errors.New("the interaction expired before it was answered")

// Expired reports whether err says that an interaction can no longer be
// answered: Discord no longer knows it (its 3 seconds passed before the
// first answer, or its token's 15 minutes before a later one).
func Expired(err error) bool {
	switch ErrorCode(err) {
	case discordgo.ErrCodeUnknownInteraction, discordgo.ErrCodeUnknownWebhook, discordgo.ErrCodeInvalidWebhookTokenProvided:
		return true
	}
	return errors.Is(err, errInteractionLost)
}

// newReply answers i through s; after is the clock of its automatic
// defer (real time when nil).
func newReply(s *discordgo.Session, i *discordgo.Interaction, log *slog.Logger, after AfterFunc) *Reply {
	if after == nil {
		after = RealAfterFunc
	}
	r := &Reply{s: s, i: i, log: log, after: after, answered: make(chan struct{})}
	if i.Type == discordgo.InteractionApplicationCommand || i.Type == discordgo.InteractionMessageComponent || i.Type == discordgo.InteractionModalSubmit {
		// held while the timer is set: one that fires at once waits
		// here until r.stop is there to be read
		r.mu.Lock()
		r.stop = after(AckBudget, r.autoDefer)
		r.mu.Unlock()
	}
	return r
}

// autoDefer defers an interaction whose handler is still working: a command
// gets a private "thinking" message, a component or modal a silent update.
func (r *Reply) autoDefer() {
	defer func() { // on the timer's goroutine: a panic here would end the process
		if p := recover(); p != nil {
			r.log.Error("recovered from a panic in an automatic defer", "channel", r.i.ChannelID, "panic", fmt.Sprintf("%T", p), "stack", string(debug.Stack()))
		}
	}()
	if r.i.Type == discordgo.InteractionApplicationCommand {
		r.DeferMessage(true)
		return
	}
	r.DeferUpdate()
}

// Finish answers an interaction its handler left unanswered (a
// component's message stays as it was; a command is told it is done),
// and forgets its pending record, if one was kept: the interaction is
// answered.
func (r *Reply) Finish() {
	r.mu.Lock()
	answered := r.state != ackNone
	r.mu.Unlock()
	switch {
	case answered:
	case r.i.Type == discordgo.InteractionApplicationCommand:
		_ = r.Message(Message{Content: r.doneWords(), Private: true})
	case r.i.Type == discordgo.InteractionMessageComponent || r.i.Type == discordgo.InteractionModalSubmit:
		r.DeferUpdate()
	}
	r.forgetPending()
}

// doneWords say that a command is done, in its user's language.
func (r *Reply) doneWords() string {
	if r.doneText == "" {
		return "Done."
	}
	return r.doneText
}

// Done stops the automatic defer; it returns the first send error.
func (r *Reply) Done() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopTimer()
	r.unblockFollowups()
	return r.err
}

// respond sends the initial response; r.mu is held. The interaction
// counts as answered only once Discord accepted a response, so that no
// edit or follow-up goes through its webhook before one: a response that
// failed leaves it unanswered (a later answer tries again), and one refused
// as too late loses it.
func (r *Reply) respond(resp *discordgo.InteractionResponse, state ack) error {
	if r.lost {
		return r.note(errInteractionLost)
	}
	err := r.callback(resp)
	switch code := ErrorCode(err); {
	case err == nil, code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged:
		r.state = state
		r.stopTimer() // answered: nothing left to defer
		r.unblockFollowups()
	case code == discordgo.ErrCodeUnknownInteraction:
		r.lost = true
	}
	return r.note(err)
}

// stopTimer stops the automatic defer, if one was set; r.mu is held.
func (r *Reply) stopTimer() {
	if r.stop != nil {
		r.stop()
	}
}

func (r *Reply) note(err error) error {
	if err != nil && r.err == nil {
		r.err = err
	}
	return err
}

// DeferMessage acknowledges with a loading message (private or public) that
// a later message call fills in, after keeping the interaction's pending
// record (see KeepPending). No-op once acknowledged.
func (r *Reply) DeferMessage(private bool) {
	r.deferMessage(private, true)
}

// deferMessage is DeferMessage; keep says whether a pending record is
// kept first (not for a defer the answer follows at once).
func (r *Reply) deferMessage(private, keep bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != ackNone {
		return
	}
	if keep {
		r.keepPending()
	}
	r.private = private
	var flags discordgo.MessageFlags
	if private {
		flags = discordgo.MessageFlagsEphemeral
	}
	_ = r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Flags: flags}}, ackMessage)
}

// DeferUpdate acknowledges a component or modal without a visible change.
func (r *Reply) DeferUpdate() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != ackNone {
		return
	}
	_ = r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, ackUpdate)
}

// Message sends m: as the first response, as the content of a deferred
// message, or as a follow-up. A deferred message keeps the privacy chosen
// when it was deferred, so a public message after a private defer goes out
// as a follow-up instead. After a deferred update, m is a follow-up, as
// private as m: a refusal of a click acknowledged early reaches only its
// player.
func (r *Reply) Message(m Message) error {
	m = Fit(m)
	if m.described() || m.Card { // a card: discordgo's response always names content
		r.deferMessage(m.Private, false) // the answer follows at once
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.state == ackNone:
		err := r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: m.responseData()}, ackMessage)
		r.edited = r.edited || err == nil // the first message is complete: later ones follow it
		return err
	case r.state == ackMessage && !r.edited && r.private == m.Private:
		r.edited = true
		return r.note(r.editOriginal(m))
	case r.state == ackMessage && !r.edited && r.private:
		// a public message after a private "thinking…": say so privately, post publicly
		r.edited = true
		done := r.doneWords()
		if _, err := r.s.InteractionResponseEdit(r.i, &discordgo.WebhookEdit{Content: &done}); err != nil {
			return r.note(err)
		}
	}
	_, err := r.createFollowup(m)
	return r.note(err)
}

// createFollowup posts m as a follow-up of the interaction.
func (r *Reply) createFollowup(m Message) (*discordgo.Message, error) {
	m = m.withImage()
	params := &discordgo.WebhookParams{
		Content: m.Content, Embeds: m.Embeds, Components: m.Components, Files: m.files(),
		Flags: m.flags(), AllowedMentions: m.allowed(),
	}
	if m.described() {
		return describedCall(r.s, "POST", discordgo.EndpointWebhookToken(r.i.AppID, r.i.Token)+"?wait=true", params, m)
	}
	return r.s.FollowupMessageCreate(r.i, true, params)
}

// Update replaces the message the component was on with m (m.Private is
// ignored). A command has no such message, so update sends m instead.
func (r *Reply) Update(m Message) error {
	if r.i.Type == discordgo.InteractionApplicationCommand {
		return r.Message(m)
	}
	m = Fit(m)
	if m.Card {
		r.DeferUpdate() // discordgo's response always names content, which a card refuses
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m.Private = false
	if r.state == ackNone {
		data := m.responseData()
		data.Flags = m.form()
		data.Attachments = m.onlyNewImage()
		return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: data}, ackUpdate)
	}
	return r.note(r.editOriginal(m))
}

// editOriginal edits the interaction's first response into m: through
// describedCall when m carries what discordgo's types cannot (alt text,
// the card flag), else through discordgo.
func (r *Reply) editOriginal(m Message) error {
	if m.raw() {
		_, err := describedCall(r.s, "PATCH", discordgo.EndpointWebhookMessage(r.i.AppID, r.i.Token, "@original"), WebhookEdit(m), m)
		return err
	}
	_, err := r.s.InteractionResponseEdit(r.i, WebhookEdit(m))
	return err
}

// Modal opens a form; it must be the first response.
func (r *Reply) Modal(data *discordgo.InteractionResponseData) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: fitForm(data)}, ackOther)
}

// Choices answers an autocomplete request.
func (r *Reply) Choices(cs []*discordgo.ApplicationCommandOptionChoice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.respond(&discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult, Data: &discordgo.InteractionResponseData{Choices: fitChoices(cs)}}, ackOther)
}

// WebhookEdit is the edit that makes a message m through an interaction's
// webhook. A card's edit names neither content nor embeds; its flag, which
// discordgo's WebhookEdit lacks, describedCall adds.
func WebhookEdit(m Message) *discordgo.WebhookEdit {
	m = m.withImage()
	comps := nonNil(m.Components)
	e := &discordgo.WebhookEdit{Components: &comps, Files: m.files(), AllowedMentions: m.allowed()}
	if !m.Card {
		embeds := m.Embeds
		if embeds == nil {
			embeds = []*discordgo.MessageEmbed{}
		}
		e.Content, e.Embeds = &m.Content, &embeds
	}
	e.Attachments = m.onlyNewImage()
	return e
}

// onlyNewImage is the attachments list of an edit that replaces the
// message's image with m's: only the new upload, which files[0] refers to
// by id "0". Nil (attachments stay) when m has no image.
func (m Message) onlyNewImage() *[]*discordgo.MessageAttachment {
	if m.Image == nil {
		return nil
	}
	keep := []*discordgo.MessageAttachment{{ID: "0", Filename: ImageName}}
	return &keep
}

// Original fetches the message the first response created.
func (r *Reply) Original() (*discordgo.Message, error) {
	return r.s.InteractionResponse(r.i)
}
