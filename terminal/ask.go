package terminal

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/present"
)

// ask shows a person their view and prompt and reads commands until one
// of them is an action the game accepts.
func (s *Session) ask(p engine.Prompt) error {
	if err := s.handOver(p.Seat); err != nil {
		return err
	}
	s.show(p.Seat)
	s.listActions(p)
	for {
		s.printf("%s> ", s.st.Seat(p.Seat, s.names[p.Seat]))
		line, err := s.readLine()
		if err != nil {
			return err
		}
		action, done, err := s.command(p, line)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if action == "" {
			continue
		}
		before := snapshot{state: s.state.Clone(), moves: len(s.moves), log: len(s.log), seat: p.Seat}
		if err := s.apply(p.Seat, action); err != nil {
			s.printf("%s %s\n", s.st.Bad("✗"), reason(err))
			s.listActions(p)
			continue
		}
		if !revealedSince(s.log[before.log:]) {
			s.undo = append(s.undo, before)
		}
		return nil
	}
}

func revealedSince(events []engine.Event) bool {
	for _, e := range events {
		if e.Reveals {
			return true
		}
	}
	return false
}

// reason is the rule's words of a refusal.
func reason(err error) string {
	var rule *engine.RuleError
	if errors.As(err, &rule) {
		return rule.Reason
	}
	return err.Error()
}

// readLine reads one line; the end of input ends the session.
func (s *Session) readLine() (string, error) {
	if !s.in.Scan() {
		s.printf("\n")
		if err := s.in.Err(); err != nil {
			return "", err
		}
		s.printf("End of input.\n")
		return "", errQuit
	}
	line := strings.TrimSpace(s.in.Text())
	if s.cfg.Echo {
		s.printf("%s\n", line)
	}
	return line, nil
}

// handOver makes sure, with several people at the keyboard, that only seat
// looks at the screen before their private view appears.
func (s *Session) handOver(seat engine.Seat) error {
	if s.shown == seat {
		return nil
	}
	if s.humans > 1 {
		if s.cfg.Clear {
			s.printf("\x1b[2J\x1b[H")
		} else {
			s.printf("\n%s\n", strings.Repeat("─", 60))
		}
		s.printf("Pass the keyboard to %s and press Enter.\n", s.st.Seat(seat, s.names[seat]))
		s.shown = engine.Spectator
		if _, err := s.readLine(); err != nil {
			return err
		}
	}
	s.shown = seat
	return nil
}

// show writes seat's view of the game.
func (s *Session) show(seat engine.Seat) {
	text, err := present.View(s.state.View(seat), s.names, s.st)
	if err != nil {
		text = fmt.Sprintf("(%v)\n", err)
	}
	s.printf("\n%s", text)
}

// listActions writes the prompt's label and its numbered actions, then the
// actions allowed at any time.
func (s *Session) listActions(p engine.Prompt) {
	s.printf("%s, %s:\n", s.st.Seat(p.Seat, s.names[p.Seat]), p.Label)
	actions := s.numbered(p)
	width := len(strconv.Itoa(len(actions)))
	shown := min(len(actions), maxListed)
	free := len(actions) - len(p.Actions)
	for i := 0; i < shown; i++ {
		if i == len(p.Actions) && free > 0 {
			s.printf("  %s\n", s.st.Dim("at any time:"))
		}
		s.printf("  %*d. %s\n", width, i+1, actions[i])
	}
	if len(actions) > shown {
		s.printf("  … and %d more: type the action itself\n", len(actions)-shown)
	}
}

// numbered is the prompt's actions followed by the seat's free actions.
func (s *Session) numbered(p engine.Prompt) []string {
	return append(append([]string(nil), p.Actions...), s.state.FreeActions(p.Seat)...)
}

// command handles one typed line: a session command, a number or an
// action's text. It returns the action to apply, or done when the turn is
// over without one (undo).
func (s *Session) command(p engine.Prompt, line string) (action string, done bool, err error) {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "":
		s.listActions(p)
	case "help", "?":
		s.help()
	case "rules":
		s.rules(rest)
	case "log":
		s.showLog(rest)
	case "view", "board":
		s.show(p.Seat)
		s.listActions(p)
	case "undo":
		return "", s.takeBack(p.Seat), nil
	case "save":
		if rest == "" {
			s.printf("%s write the file name: save game.txt\n", s.st.Bad("✗"))
			break
		}
		if err := s.save(rest); err != nil {
			s.printf("%s %v\n", s.st.Bad("✗"), err)
		}
	case "quit", "exit":
		return "", false, errQuit
	default:
		if n, err := strconv.Atoi(line); err == nil {
			actions := s.numbered(p)
			if n < 1 || n > len(actions) {
				s.printf("%s there is no action %d: choose 1 to %d\n", s.st.Bad("✗"), n, len(actions))
				return "", false, nil
			}
			return actions[n-1], false, nil
		}
		return line, false, nil
	}
	return "", false, nil
}

func (s *Session) help() {
	s.printf(`Commands:
  <number>        the action with that number
  <action>        an action in the game's words, e.g. %s
  view            show the game again
  rules [topic]   the rules in short; without a topic, the list of topics
  log [all]       what happened lately (all: since the start)
  undo            take back your last action, unless something hidden was revealed since
  save FILE       write the game's script to FILE (meeple replay reads it)
  quit            save the script and leave
`, s.example())
}

func (s *Session) example() string {
	if ps := s.state.Prompts(); len(ps) > 0 && len(ps[0].Actions) > 0 {
		return strconv.Quote(ps[0].Actions[len(ps[0].Actions)-1])
	}
	return "the text of a listed action"
}

func (s *Session) rules(topic string) {
	book, ok := s.cfg.Rules.(engine.Rulebook)
	if !ok {
		s.printf("%s has no rules summary\n", s.cfg.Rules.Title())
		return
	}
	topics := book.Topics()
	topic = strings.ToLower(topic)
	for _, t := range topics {
		if topic != "" && (t.Name == topic || strings.ToLower(t.Title) == topic) {
			s.printf("%s\n%s\n", s.st.Bold(t.Title), wrap(t.Text, 76))
			return
		}
	}
	if topic != "" {
		s.printf("%s no topic %q. ", s.st.Bad("✗"), topic)
	}
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	s.printf("Topics: %s\n", strings.Join(names, ", "))
}

// wrap breaks text into lines of at most width characters.
func wrap(text string, width int) string {
	var b, line strings.Builder
	for _, w := range strings.Fields(text) {
		if line.Len() > 0 && line.Len()+1+len([]rune(w)) > width {
			b.WriteString(line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	b.WriteString(line.String())
	return b.String()
}

func (s *Session) showLog(arg string) {
	var lines []string
	for _, e := range s.log {
		if !e.Private || e.Seat == s.shown {
			lines = append(lines, s.eventText(e))
		}
	}
	if arg != "all" && len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	if len(lines) == 0 {
		s.printf("Nothing has happened yet.\n")
	}
	for _, l := range lines {
		s.printf("  %s\n", l)
	}
}

// takeBack undoes seat's last action and what the computers did after it.
func (s *Session) takeBack(seat engine.Seat) bool {
	if len(s.undo) == 0 {
		s.printf("%s nothing to undo: there is no action of yours since something hidden was revealed\n", s.st.Bad("✗"))
		return false
	}
	last := s.undo[len(s.undo)-1]
	if last.seat != seat {
		s.printf("%s %s has played since your last action\n", s.st.Bad("✗"), s.names[last.seat])
		return false
	}
	s.undo = s.undo[:len(s.undo)-1]
	s.state = last.state
	s.moves = s.moves[:last.moves]
	s.log = s.log[:last.log]
	s.phase = s.state.Phase()
	s.printf("Undone: back to before your last action.\n")
	return true
}

// save writes the game's script to path, or to the configured file.
func (s *Session) save(path string) error {
	if path == "" {
		path = s.cfg.Script
	}
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := engine.WriteScript(f, s.cfg.Rules.Name(), s.cfg.Setup, s.moves); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	s.printf("Script saved to %s (%d actions): meeple replay -game %s -script %s\n", path, len(s.moves), s.cfg.Rules.Name(), path)
	return nil
}

// finish shows the end of the game.
func (s *Session) finish() {
	s.shown = engine.Spectator
	s.show(engine.Spectator)
	res := s.state.Result()
	var winners []string
	for _, w := range res.Winners {
		winners = append(winners, s.st.Seat(w, s.names[w]))
	}
	s.printf("%s %s\n", s.st.Bold("Game over."), ifAny("Winner: "+strings.Join(winners, ", "), len(winners) > 0))
	for seat, score := range res.Scores {
		s.printf("  %s: %d\n", s.st.Seat(engine.Seat(seat), s.names[seat]), score)
	}
	s.scoresPicture()
}
