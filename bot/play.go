package bot

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// maxComputerMoves bounds the computer moves one human action may set off,
// so a game whose computer players never stop cannot hold a lock forever.
const maxComputerMoves = 2000

// outcome is what one accepted action, and the computer moves it set off,
// did to a game.
type outcome struct {
	game   *storage.Game // after; archived when over
	state  engine.State  // after
	rules  engine.Rules
	seat   engine.Seat // who acted (Spectator for a start or a deadline)
	action string
	secret bool // the action answered a secret prompt

	private []engine.Event // the actor's private events
	public  []engine.Event // public events, in order
	phase   bool           // a new phase or round began: post a new board image
	over    bool
	// waiting are the human seats that now have a decision they did not
	// have before: they are pinged, and sent their secret prompt.
	waiting []engine.Seat
}

// request is one attempt to act on a game.
type request struct {
	channel string
	user    string
	game    uint64 // when not 0, the game the component belonged to
	version int    // when >= 0, the state version the component was drawn for
	text    string // the action as typed or sent
	free    bool   // from /free: a free action
}

// play applies req under the game's lock, lets computer players answer the
// prompts that fall to them, finishes the game when it ends and re-arms the
// deadline. Nothing is sent to Discord here.
func (b *Bot) play(req request) (*outcome, error) {
	unlock := b.locks.lock(req.channel)
	defer unlock()
	g, st, err := b.store.Load(req.channel)
	if err != nil {
		return nil, err
	}
	switch {
	case req.game != 0 && g.ID != req.game:
		return nil, errForeign
	case g.Status != storage.StatusRunning:
		return nil, errNotRunning
	case req.version >= 0 && g.Version != req.version:
		return nil, errStaleClick
	}
	rules, err := b.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	seats := seatsOf(g, req.user)
	if len(seats) == 0 {
		return nil, errNotSeated
	}
	seat, action := resolveAction(st, seats, req.text)
	before := humanWaiting(g, st)
	secret := engine.IsSecret(st, seat, action)
	events, err := st.Apply(seat, action)
	if err != nil {
		return nil, err
	}
	out := &outcome{game: g, state: st, rules: rules, seat: seat, action: action, secret: secret}
	out.add(events)
	if err := b.commit(out, seat, action); err != nil {
		return nil, err
	}
	if err := b.settle(out, before, nil); err != nil {
		return out, err
	}
	return out, nil
}

// afterStart lets computer players open a game that has just started and
// arms the first deadline; the game's lock is held by the caller.
func (b *Bot) afterStart(g *storage.Game, st engine.State) (*outcome, error) {
	rules, err := b.games.Lookup(g.Kind)
	if err != nil {
		return nil, err
	}
	out := &outcome{game: g, state: st, rules: rules, seat: engine.Spectator, phase: true}
	if err := b.settle(out, nil, nil); err != nil {
		return out, err
	}
	b.pub.notify(out)
	return out, nil
}

// settle runs computer players (and stand-ins for the seats in standIn),
// finishes an ended game and re-arms the deadline. before are the human
// seats that were waiting before the action.
func (b *Bot) settle(out *outcome, before []engine.Seat, standIn map[engine.Seat]bool) error {
	if err := b.computerMoves(out, standIn); err != nil {
		return err
	}
	if out.state.Over() {
		res := out.state.Result()
		g, err := b.store.Finish(out.game.Channel, out.game.Version, storage.StatusFinished, &res)
		if err != nil {
			return err
		}
		out.game, out.over = g, true
		b.forget(g.Channel)
		return nil
	}
	now := humanWaiting(out.game, out.state)
	for _, s := range now {
		if !slices.Contains(before, s) {
			out.waiting = append(out.waiting, s)
		}
	}
	if len(out.waiting) == 0 && !out.game.Deadline.IsZero() && !out.game.Deadline.Before(b.cfg.Now()) {
		return nil
	}
	return b.armDeadline(out.game, len(now) > 0)
}

// armDeadline sets (or clears) the game's deadline and reminder from now.
func (b *Bot) armDeadline(g *storage.Game, waiting bool) error {
	deadline, reminder, _ := gameDeadline(g)
	now := b.cfg.Now()
	updated, err := b.store.Update(g.Channel, func(r *storage.Game) error {
		r.Deadline, r.RemindAt = time.Time{}, time.Time{}
		if waiting && deadline > 0 {
			r.Deadline = now.Add(deadline)
			if reminder > 0 && reminder < deadline {
				r.RemindAt = now.Add(reminder)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.Deadline, g.RemindAt, g.Messages = updated.Deadline, updated.RemindAt, updated.Messages
	return nil
}

// computerMoves answers, one at a time, every prompt that belongs to a
// computer seat or to a seat in standIn.
func (b *Bot) computerMoves(out *outcome, standIn map[engine.Seat]bool) error {
	for n := 0; n < maxComputerMoves && !out.state.Over(); n++ {
		p, name, ok := b.computerPrompt(out, standIn)
		if !ok {
			return nil
		}
		player, err := ai.Lookup(out.rules, name)
		if err != nil {
			return err
		}
		action := ai.Decide(player, out.state, p, out.game.Setup.Seed, out.game.Version)
		secret := engine.IsSecret(out.state, p.Seat, action)
		events, err := out.state.Apply(p.Seat, action)
		if err != nil {
			// not wrapped: a computer's refused move is Meeple's failure, to
			// be logged, and its reason may quote a secret choice
			return fmt.Errorf("computer player %s of game %d refused: %s", name, out.game.ID, engine.DescribeRefusal(p.Seat, action, secret, err))
		}
		out.add(events)
		if err := b.commit(out, p.Seat, action); err != nil {
			return err
		}
	}
	if !out.state.Over() {
		if _, _, ok := b.computerPrompt(out, standIn); ok {
			return fmt.Errorf("computer players made %d moves without handing over", maxComputerMoves)
		}
	}
	return nil
}

// computerPrompt finds a prompt a computer must answer, and which computer.
func (b *Bot) computerPrompt(out *outcome, standIn map[engine.Seat]bool) (engine.Prompt, string, bool) {
	for _, p := range out.state.Prompts() {
		if int(p.Seat) >= len(out.game.Seats) {
			continue
		}
		if c := out.game.Seats[p.Seat].Computer; c != "" {
			return p, c, true
		}
		if standIn[p.Seat] {
			delete(standIn, p.Seat) // one decision per passed deadline
			return p, b.standInName(out.rules), true
		}
	}
	return engine.Prompt{}, "", false
}

// standInName is the computer player that acts for an absent player.
func (b *Bot) standInName(rules engine.Rules) string {
	if b.cfg.Computer != "" {
		if _, err := ai.Lookup(rules, b.cfg.Computer); err == nil {
			return b.cfg.Computer
		}
	}
	if cp, ok := rules.(engine.ComputerPlayers); ok {
		if names := cp.ComputerPlayerNames(); len(names) > 0 {
			return names[0]
		}
	}
	return "random"
}

// commit stores one applied action with the state after it.
func (b *Bot) commit(out *outcome, seat engine.Seat, action string) error {
	snap, err := out.state.Encode()
	if err != nil {
		return fmt.Errorf("encode state of game %d: %w", out.game.ID, err)
	}
	v, err := b.store.Append(out.game.Channel, out.game.Version, storage.Entry{Seat: seat, Action: action, At: b.cfg.Now()}, snap)
	if err != nil {
		return err
	}
	out.game.Version = v
	return nil
}

func (o *outcome) add(events []engine.Event) {
	for _, e := range events {
		switch {
		case e.Private:
			if e.Seat == o.seat {
				o.private = append(o.private, e)
			}
		default:
			o.public = append(o.public, e)
			if e.Kind == engine.EventPhase {
				o.phase = true
			}
		}
	}
}

// revealed reports whether anything hidden became public.
func (o *outcome) revealed() bool {
	for _, e := range o.public {
		if e.Reveals {
			return true
		}
	}
	return false
}

// seatsOf returns the seats user holds.
func seatsOf(g *storage.Game, user string) []engine.Seat {
	var out []engine.Seat
	for n, s := range g.Seats {
		if s.User == user && user != "" {
			out = append(out, engine.Seat(n))
		}
	}
	return out
}

// humanWaiting lists the seats held by people that have an open prompt.
func humanWaiting(g *storage.Game, st engine.State) []engine.Seat {
	var out []engine.Seat
	for _, p := range st.Prompts() {
		if int(p.Seat) < len(g.Seats) && g.Seats[p.Seat].User != "" && !slices.Contains(out, p.Seat) {
			out = append(out, p.Seat)
		}
	}
	return out
}

// promptsOf returns seat's open prompts.
func promptsOf(st engine.State, seat engine.Seat) []engine.Prompt {
	var out []engine.Prompt
	for _, p := range st.Prompts() {
		if p.Seat == seat {
			out = append(out, p)
		}
	}
	return out
}

// canonical joins the words of text with single spaces.
func canonical(text string) string { return strings.Join(strings.Fields(text), " ") }

// resolveAction picks which of the user's seats acts and completes a short
// form: "6 5 3 1" answers a prompt whose actions all read "dice …". Open
// prompts come first; then a secret choice made and still revisable.
func resolveAction(st engine.State, seats []engine.Seat, text string) (engine.Seat, string) {
	text = canonical(text)
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{promptsOf, revisableOf} {
		for _, seat := range seats {
			if slices.Contains(st.FreeActions(seat), text) {
				return seat, text
			}
			for _, p := range choices(st, seat) {
				if slices.Contains(p.Actions, text) {
					return seat, text
				}
				if w := commonVerb(p.Actions); w != "" && !strings.HasPrefix(text, w+" ") && text != w {
					return seat, w + " " + text
				}
			}
		}
	}
	for _, choices := range []func(engine.State, engine.Seat) []engine.Prompt{promptsOf, revisableOf} {
		for _, seat := range seats {
			if len(choices(st, seat)) > 0 {
				return seat, text
			}
		}
	}
	return seats[0], text
}

// revisableOf returns the secret prompt seat has answered and may still
// change (see engine.Revisable), or nothing.
func revisableOf(st engine.State, seat engine.Seat) []engine.Prompt {
	if p, ok := engine.Revision(st, seat); ok {
		return []engine.Prompt{p}
	}
	return nil
}

// choicesOf returns seat's open prompts and its revisable secret choice.
func choicesOf(st engine.State, seat engine.Seat) []engine.Prompt {
	return append(promptsOf(st, seat), revisableOf(st, seat)...)
}

// commonVerb is the first word every action shares, or "".
func commonVerb(actions []string) string {
	if len(actions) == 0 {
		return ""
	}
	w, _, _ := strings.Cut(actions[0], " ")
	for _, a := range actions[1:] {
		if v, _, _ := strings.Cut(a, " "); v != w {
			return ""
		}
	}
	return w
}
