// Package terminal plays a game in a text terminal: people at one keyboard
// (several take turns, hot-seat) against the computer players, with no
// Discord. It drives any game through the engine contract alone (prompts,
// legal actions, views, rules topics, scripts), writes each view as text with
// package present and, given a Renderer, the board and player-mat PNGs the
// Discord players would see.
//
// It reads commands from an io.Reader and writes to an io.Writer, so tests
// drive it like a person would; only package cmd imports it. A Session is
// not safe for concurrent use.
package terminal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/wording"
)

// Human is the seat kind of a person at the keyboard; any other seat kind
// names a computer player ("random", "heuristic").
const Human = "human"

// Renderer draws a game's pictures in the words of w (the session's
// language, the game's names, the seats' names); *imaging.Renderer is
// one.
type Renderer interface {
	Board(view any, w *wording.Words) ([]byte, error)
	Mat(view any, w *wording.Words) ([]byte, error)
}

// Config is one terminal game.
type Config struct {
	Rules engine.Rules
	Setup engine.Setup
	// Seats says who plays each seat: Human or a computer player's name.
	Seats []string
	In    io.Reader
	Out   io.Writer
	// Color turns on ANSI colours.
	Color bool
	// Clear clears the screen before each hot-seat player's turn (a
	// terminal); without it a rule is drawn instead.
	Clear bool
	// Width is the screen's width in characters, for laying out long lists
	// of actions; 0 means 80.
	Width int
	// Echo repeats each line read, for input that is not typed at a
	// terminal (a file, a pipe, a test), so the output reads as a dialogue.
	Echo bool
	// Images is the folder the PNGs go to; Renderer draws them. With either
	// missing no pictures are written.
	Images   string
	Renderer Renderer
	// Keep is how many of the latest boards (each with its mat) stay in
	// Images; older ones are removed as new ones are drawn. 0 keeps all.
	Keep int
	// Script is the file the game's script is saved to at the end, on quit
	// and at the end of input.
	Script string
	// Words write the session's own words (help, prompts to the players);
	// nil means English. Commands and actions are typed the same in every
	// language.
	Words *locale.Printer
	// ThinkMS is the thinking budget per decision of the searching computer
	// players, in milliseconds; 0 keeps each level's own.
	ThinkMS int
}

// How actions are listed: up to maxLines one a line, more in columns
// columnGap apart across a screen of Config.Width (defaultWidth when
// unknown), at most maxRows rows of them; beyond those the player types the
// action.
const (
	maxLines     = 24
	maxRows      = 15
	columnGap    = 3
	defaultWidth = 80
)

// Session is a terminal game in progress.
type Session struct {
	cfg      Config
	state    engine.State
	players  []engine.Player // nil for human seats
	names    []string
	humans   int
	in       *bufio.Scanner
	out      io.Writer
	st       present.Style
	w        *wording.Words // the game's words in the session's language
	moves    []engine.Move
	log      []engine.Event
	undo     []snapshot
	shown    engine.Seat // the human whose private view is on screen, or Spectator
	handed   int         // events logged before the last hand-over
	version  int         // changes made to the state: actions applied and undone
	pictured int         // the version the last pictures show
	images   int         // pictures written so far, numbering the files
	drawn    [][]string  // the files of each drawing still kept, oldest first
	noMats   bool        // the game has no player mats
	phase    string
	hidden   []int    // indexes in moves of the secret choices not yet revealed
	sealed   []sealed // scripts saved with secret choices left out
	ending   bool     // the session is over: nothing is written after this save
}

// snapshot is the game just before a human's action, for undo.
type snapshot struct {
	state engine.State
	moves int
	log   int
	seat  engine.Seat
}

// errQuit ends the session at the player's request or at the end of input.
var errQuit = errors.New("quit")

// New checks the configuration and sets up the game.
func New(cfg Config) (*Session, error) {
	if cfg.Rules == nil || cfg.In == nil || cfg.Out == nil {
		return nil, errors.New("terminal: rules, input and output are required")
	}
	if cfg.Keep < 0 {
		return nil, fmt.Errorf("keep %d pictures: want 0 (all) or more", cfg.Keep)
	}
	if len(cfg.Seats) != cfg.Setup.Players {
		return nil, fmt.Errorf("%d seats given for %d players", len(cfg.Seats), cfg.Setup.Players)
	}
	state, err := cfg.Rules.New(cfg.Setup)
	if err != nil {
		return nil, err
	}
	if cfg.Words == nil {
		words, err := locale.New()
		if err != nil {
			return nil, err
		}
		cfg.Words = words.For(locale.English)
	}
	s := &Session{
		cfg: cfg, state: state,
		in: bufio.NewScanner(cfg.In), out: cfg.Out, st: present.Style{Color: cfg.Color},
		shown: engine.Spectator, phase: state.Phase().Key(),
		w: wording.ForRules(cfg.Words, cfg.Rules, nil),
	}
	s.in.Buffer(make([]byte, 0, 4096), 1<<20)
	for i, kind := range cfg.Seats {
		kind = strings.TrimSpace(kind)
		name := fmt.Sprintf("P%d", i+1)
		if kind == Human {
			s.humans++
			s.players = append(s.players, nil)
		} else {
			p, err := ai.LookupThinking(cfg.Rules, kind, cfg.ThinkMS)
			if err != nil {
				return nil, err
			}
			s.players = append(s.players, p)
			name += " " + kind
		}
		s.names = append(s.names, name)
	}
	return s, nil
}

// Play runs the game to its end, to quit or to the end of input, and saves
// the script.
func Play(cfg Config) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	return s.Run()
}

// Run plays the session.
func (s *Session) Run() error {
	s.intro()
	s.pictures()
	for !s.state.Over() {
		err := s.step()
		s.ending = err != nil
		if errors.Is(err, errQuit) {
			return s.save("")
		}
		if err != nil {
			// keep what was played, for a bug report
			if saveErr := s.save(""); saveErr != nil {
				return errors.Join(err, saveErr)
			}
			return err
		}
	}
	s.finish()
	err := s.save("")
	s.waitToLeave()
	return err
}

// waitToLeave tells the people at the keyboard that the game is over and
// waits for Enter (or quit), so that a line typed next goes to nobody's
// shell by mistake.
func (s *Session) waitToLeave() {
	if s.humans == 0 {
		return
	}
	s.printf("%s\n", s.cfg.Words.T("terminal.leave"))
	if s.in.Scan() && s.cfg.Echo {
		s.printf("%s\n", strings.TrimSpace(s.in.Text()))
	}
}

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

func (s *Session) intro() {
	opts := options(s.cfg.Setup)
	s.printf("%s%s\n", s.cfg.Words.T("term.game", "Game", s.st.Bold(s.title()), "Count", s.cfg.Setup.Players, "Seed", s.cfg.Setup.Seed),
		ifAny(" ("+strings.Join(opts, ", ")+")", len(opts) > 0))
	for i, name := range s.names {
		who := s.cfg.Words.T("terminal.you")
		if s.players[i] != nil {
			who = s.cfg.Words.T("terminal.computer")
		} else if s.humans > 1 {
			who = s.cfg.Words.T("terminal.person")
		}
		s.printf("  %s: %s\n", s.st.Seat(engine.Seat(i), name), who)
	}
	if s.humans > 0 {
		s.printf("%s\n", s.cfg.Words.T("terminal.intro"))
	}
	if s.cfg.Images != "" && s.cfg.Renderer != nil {
		if s.cfg.Keep > 0 {
			s.printf("%s\n", s.cfg.Words.T("term.pictures_kept", "Dir", s.cfg.Images, "Count", s.cfg.Keep))
		} else {
			s.printf("%s\n", s.cfg.Words.T("term.pictures", "Dir", s.cfg.Images))
		}
	}
}

// title is the game's title in the session's language.
func (s *Session) title() string {
	if id := "game." + s.cfg.Rules.Name() + ".title"; s.cfg.Words.Has(id) {
		return s.cfg.Words.T(id)
	}
	return s.cfg.Rules.Title()
}

// options are the setup's options as sorted name=value pairs.
func options(setup engine.Setup) []string {
	var opts []string
	for k, v := range setup.Options {
		opts = append(opts, k+"="+v)
	}
	sort.Strings(opts)
	return opts
}

func ifAny(s string, ok bool) string {
	if ok {
		return s
	}
	return ""
}

// step lets one seat act: an answer that needs no asking at once (as the
// bot gives it), then a computer at once, a person after asking.
func (s *Session) step() error {
	prompts := s.state.Prompts()
	if len(prompts) == 0 {
		return errors.New("the game is not over but waits for nobody")
	}
	for _, p := range prompts {
		if action, why, ok := engine.UnaskedAnswer(s.state, p); ok {
			return s.apply(p.Seat, action, why)
		}
	}
	for _, p := range prompts {
		if s.players[p.Seat] != nil {
			action := ai.Decide(s.players[p.Seat], s.state, p, s.cfg.Setup.Seed, len(s.moves))
			return s.apply(p.Seat, action, engine.Text{})
		}
	}
	return s.ask(prompts[0])
}

// apply performs seat's action and reports what happened; unasked, when
// set, is why the action was given without asking.
func (s *Session) apply(seat engine.Seat, action string, unasked engine.Text) error {
	secret := engine.IsSecret(s.state, seat, action)
	events, err := s.state.Apply(seat, action)
	if err == nil && !unasked.IsZero() {
		events = engine.NoteUnasked(events, seat, unasked)
	}
	if err != nil {
		if s.players[seat] != nil {
			// a bug report, read by whoever is at the keyboard: a secret
			// choice shows only its verb
			return fmt.Errorf("computer player %s: %s", s.names[seat], engine.DescribeRefusal(seat, action, secret, err))
		}
		return err
	}
	if secret {
		s.hidden = append(s.hidden, len(s.moves))
	}
	s.moves = append(s.moves, engine.Move{Seat: seat, Action: action})
	s.version++
	revealed := false
	for _, e := range events {
		if e.Reveals {
			s.undo = nil // nothing hidden may be taken back once seen
			revealed = true
		}
		s.log = append(s.log, e)
		if s.visible(e) {
			s.printf("  %s\n", s.eventText(e))
		}
	}
	if revealed && len(s.hidden) > 0 {
		s.hidden = nil
		s.reveal()
	}
	if s.state.Phase().Key() != s.phase || hasKind(events, engine.EventPhase) {
		s.phase = s.state.Phase().Key()
		s.pictures()
	}
	return nil
}

// visible reports whether e may be printed now: public events, and private
// ones only to their seat when that person is at the keyboard.
func (s *Session) visible(e engine.Event) bool {
	return !e.Private || (e.Seat >= 0 && e.Seat == s.shown && s.players[e.Seat] == nil)
}

func (s *Session) eventText(e engine.Event) string {
	text := s.w.Event(e)
	switch e.Kind {
	case engine.EventPhase:
		return s.st.Bold("— " + text + " —")
	case engine.EventEnd:
		return s.st.Good(text)
	}
	if e.Seat >= 0 {
		return s.st.Seat(e.Seat, text)
	}
	return text
}

func hasKind(events []engine.Event, kind string) bool {
	for _, e := range events {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// State is the game as it stands.
func (s *Session) State() engine.State { return s.state }

// Moves are the actions applied so far, in order.
func (s *Session) Moves() []engine.Move { return append([]engine.Move(nil), s.moves...) }

// Config is the session's configuration.
func (s *Session) Config() Config { return s.cfg }
