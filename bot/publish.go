package bot

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// publisher sends what the public must see after a game changes: the board
// message (edited, or posted anew with an image after a phase), pings, the
// secret prompts by DM and the final scores. One goroutine per game at a
// time works through the changes in order, coalescing board edits; no lock
// of a game's state is held while it talks to Discord.
type publisher struct {
	b       *Bot
	mu      sync.Mutex
	pending map[string]*pubJob // work not yet started, by channel
	running map[string]bool    // channels with a worker
	wg      sync.WaitGroup
}

// pubJob is the work waiting for one channel.
type pubJob struct {
	pending []*outcome
	final   *outcome // the game ended
	gone    *storage.Game
	by      string // who abandoned it
}

func newPublisher(b *Bot) *publisher {
	return &publisher{b: b, pending: map[string]*pubJob{}, running: map[string]bool{}}
}

// notify queues the public side of an outcome.
func (p *publisher) notify(out *outcome) {
	p.queue(out.game.Channel, func(j *pubJob) {
		if out.over {
			j.final = out
			return
		}
		j.pending = append(j.pending, out)
	})
}

// abandoned announces that a game was abandoned.
func (p *publisher) abandoned(g *storage.Game, by string) {
	p.queue(g.Channel, func(j *pubJob) { j.gone, j.by = g, by })
}

// queue adds work for channel and starts its worker unless one runs.
func (p *publisher) queue(channel string, add func(j *pubJob)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := p.pending[channel]
	if j == nil {
		j = &pubJob{}
		p.pending[channel] = j
	}
	add(j)
	if !p.running[channel] {
		p.running[channel] = true
		p.wg.Add(1)
		go p.run(channel)
	}
}

// run publishes channel's work, oldest first, until none is left; work
// queued meanwhile is coalesced into one pass.
func (p *publisher) run(channel string) {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		j := p.pending[channel]
		delete(p.pending, channel)
		if j == nil {
			delete(p.running, channel)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		p.b.publishOnce(channel, *j)
	}
}

func (p *publisher) wait() { p.wg.Wait() }

func (b *Bot) publishOnce(channel string, work pubJob) {
	if work.gone != nil {
		b.postPublic(channel, msg{Content: fmt.Sprintf("Game #%d was abandoned by %s.", work.gone.ID, work.by)}, work.gone.ID)
		return
	}
	var newPhase bool
	var waiting []engine.Seat
	for _, o := range work.pending {
		newPhase = newPhase || o.phase
		for _, s := range o.waiting {
			if !slices.Contains(waiting, s) {
				waiting = append(waiting, s)
			}
		}
		b.recent.add(channel, o.public)
	}
	if work.final != nil {
		b.recent.add(channel, work.final.public)
		b.publishFinal(work.final)
		b.images.forget(work.final.game.ID)
		return
	}
	g, st, err := b.store.Load(channel)
	if errors.Is(err, storage.ErrNotFound) {
		return // the game ended meanwhile; its final pass says so
	}
	if err != nil {
		b.log.Error("loading a game to publish failed", "channel", channel, "err", err)
		return
	}
	if g.Status != storage.StatusRunning {
		return
	}
	b.updateBoard(g, st, newPhase)
	still := humanWaiting(g, st)
	var ping []engine.Seat
	for _, s := range waiting {
		if slices.Contains(still, s) {
			ping = append(ping, s)
		}
	}
	b.pingSeats(g, st, ping, "")
	b.sendSecretPrompts(g, st, ping)
}

// updateBoard edits the board message, or posts a new one with the board
// image when a phase began or there is none yet.
func (b *Bot) updateBoard(g *storage.Game, st engine.State, newPhase bool) {
	board := b.boardMessage(g, st)
	old := g.Messages[roleBoard]
	if old != "" && !newPhase && g.Messages[rolePhase] == st.Phase() {
		_, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{
			Channel: g.Channel, ID: old, Content: &board.Content, Embeds: &board.Embeds, Components: &board.Components,
			AllowedMentions: &discordgo.MessageAllowedMentions{},
		})
		if err == nil {
			return
		}
		if !isUnknownMessage(err) {
			b.log.Warn("editing the board failed", "game", g.ID, "err", err)
			return
		}
		// the board message was deleted: post a new one
	}
	board.Image = b.boardImage(g, st)
	if board.Image == nil {
		board.Embeds[0].Image = nil
	}
	m, err := b.sendChannel(g.Channel, board)
	if err != nil {
		b.log.Warn("posting the board failed", "game", g.ID, "err", err)
		return
	}
	if old != "" {
		none := []discordgo.MessageComponent{}
		if _, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: g.Channel, ID: old, Components: &none}); err != nil && !isUnknownMessage(err) {
			b.log.Warn("retiring the old board failed", "game", g.ID, "err", err)
		}
	}
	phase := st.Phase()
	if _, err := b.store.Update(g.Channel, func(r *storage.Game) error {
		setMessage(r, roleBoard, m.ID)
		setMessage(r, rolePhase, phase)
		return nil
	}); err != nil && !errors.Is(err, storage.ErrNotFound) {
		b.log.Warn("saving the board message id failed", "game", g.ID, "err", err)
	}
}

// boardImage renders the public board, or returns nil (images off, or the
// render failed: the text board still goes out).
func (b *Bot) boardImage(g *storage.Game, st engine.State) []byte {
	if !b.cfg.Images {
		return nil
	}
	png, err := b.images.board(g, st)
	if err != nil {
		b.log.Warn("rendering the board failed", "game", g.ID, "err", err)
		return nil
	}
	return png
}

func (b *Bot) sendChannel(channel string, m msg) (*discordgo.Message, error) {
	m = m.withImage()
	return b.s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
		Content: m.Content, Embeds: m.Embeds, Components: m.Components, Files: m.files(), AllowedMentions: m.allowed(),
	})
}

func (b *Bot) postPublic(channel string, m msg, game uint64) {
	if _, err := b.sendChannel(channel, m); err != nil {
		b.log.Warn("posting to the channel failed", "game", game, "err", err)
	}
}

// pingSeats mentions, in one message, the users of seats who have a new
// decision and did not opt out of pings. prefix replaces the default text.
func (b *Bot) pingSeats(g *storage.Game, st engine.State, seats []engine.Seat, prefix string) {
	var users, parts []string
	for _, s := range seats {
		u := g.Seats[s].User
		if u == "" {
			continue
		}
		prefs, err := b.settings.UserPrefs(u)
		if err != nil {
			b.log.Warn("reading preferences failed", "game", g.ID, "err", err)
			continue
		}
		label := promptLabel(st, s)
		if !prefs.PingOnTurn {
			continue
		}
		users = append(users, u)
		parts = append(parts, fmt.Sprintf("<@%s> (%s)", u, label))
	}
	if len(users) == 0 {
		return
	}
	if prefix == "" {
		prefix = "Your move"
	}
	m, err := b.sendChannel(g.Channel, msg{Content: prefix + ": " + strings.Join(parts, ", "), Mentions: users})
	if err != nil {
		b.log.Warn("posting to the channel failed", "game", g.ID, "err", err)
		return
	}
	// one turn notice per channel: the previous one goes (kept in memory only)
	if old := b.recent.swapPing(g.Channel, m.ID); old != "" {
		if err := b.s.ChannelMessageDelete(g.Channel, old); err != nil && !isUnknownMessage(err) {
			b.log.Warn("deleting an old turn notice failed", "game", g.ID, "err", err)
		}
	}
}

func promptLabel(st engine.State, seat engine.Seat) string {
	var labels []string
	for _, p := range promptsOf(st, seat) {
		if !slices.Contains(labels, p.Label) {
			labels = append(labels, p.Label)
		}
	}
	return strings.Join(labels, "; ")
}

// publishFinal retires the board and posts the final scores.
func (b *Bot) publishFinal(out *outcome) {
	g, st := out.game, out.state
	if old := g.Messages[roleBoard]; old != "" {
		board := b.boardMessage(g, st)
		none := []discordgo.MessageComponent{}
		if _, err := b.s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: g.Channel, ID: old, Content: &board.Content, Embeds: &board.Embeds, Components: &none,
			AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil && !isUnknownMessage(err) {
			b.log.Warn("retiring the board failed", "game", g.ID, "err", err)
		}
	}
	m := b.scoresMessage(g, st, true)
	if b.cfg.Images {
		png, err := b.images.render(func() ([]byte, error) { return b.render.Scores(st.View(engine.Spectator), seatNames(g)) })
		if err != nil {
			b.log.Warn("rendering the scores failed", "game", g.ID, "err", err)
		}
		m.Image = png
	}
	var users []string
	for _, s := range g.Seats {
		if s.User != "" {
			users = append(users, s.User)
		}
	}
	m.Mentions = users
	b.postPublic(g.Channel, m, g.ID)
}

func isUnknownMessage(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeUnknownMessage
}

func isCannotDM(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser
}

// seatNames are the seats' display names for images.
func seatNames(g *storage.Game) []string {
	out := make([]string, len(g.Seats))
	for n, s := range g.Seats {
		out[n] = s.Name
		if out[n] == "" {
			out[n] = fmt.Sprintf("P%d", n+1)
		}
	}
	return out
}
