package terminal

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/present"
)

// ask shows a person their view and prompt and reads commands until one
// of them is an action the game accepts.
func (s *Session) ask(p engine.Prompt) error {
	if err := s.handOver(p.Seat); err != nil {
		return err
	}
	if s.pictured != s.version {
		s.pictures() // the pictures show the game as this person decides
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
		action = canonical(s.numbered(p), action)
		before := snapshot{state: s.state.Clone(), moves: len(s.moves), log: len(s.log), seat: p.Seat}
		if err := s.apply(p.Seat, action, engine.Text{}); err != nil {
			s.printf("%s %s\n", s.st.Bad("✗"), s.w.Refusal(err))
			switch {
			case errors.Is(err, engine.ErrUnknownAction):
				s.printf("  %s\n", s.cfg.Words.T("terminal.hint_help"))
			case len(s.numbered(p)) > maxLines:
				s.printf("  %s\n", s.cfg.Words.T("terminal.hint_enter")) // a long list is not worth reprinting
			default:
				s.listActions(p)
			}
			continue
		}
		if !revealedSince(s.log[before.log:]) {
			s.undo = append(s.undo, before)
		}
		return nil
	}
}

// canonical is the listed action that typed names, in its canonical text,
// whatever its capitals and spaces: "MOVE  4" is "move 4". Text that names
// no listed action is returned with its spaces tidied, for the game to judge.
func canonical(actions []string, typed string) string {
	tidy := strings.Join(strings.Fields(typed), " ")
	for _, a := range actions {
		if strings.EqualFold(a, tidy) {
			return a
		}
	}
	return tidy
}

func revealedSince(events []engine.Event) bool {
	for _, e := range events {
		if e.Reveals {
			return true
		}
	}
	return false
}

// readLine reads one line; the end of input ends the session.
func (s *Session) readLine() (string, error) {
	if !s.in.Scan() {
		s.printf("\n")
		if err := s.in.Err(); err != nil {
			return "", err
		}
		s.printf("%s\n", s.cfg.Words.T("terminal.end_of_input"))
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
			// home, clear the screen and the scrollback, where the last
			// person's secret choice would still be
			s.printf("\x1b[H\x1b[2J\x1b[3J")
		} else {
			s.printf("\n%s\n", strings.Repeat("─", 60))
		}
		s.printf("%s\n", s.cfg.Words.T("terminal.pass", "Name", s.st.Seat(seat, s.names[seat])))
		s.shown = engine.Spectator
		if _, err := s.readLine(); err != nil {
			return err
		}
		s.shown = seat
		if s.cfg.Clear {
			s.recap() // what the cleared screen showed
		}
	}
	s.shown = seat
	return nil
}

// maxRecap is how many events a recap shows at most.
const maxRecap = 20

// recap shows the person just handed the keyboard what happened since the
// previous hand-over, which the cleared screen no longer shows.
func (s *Session) recap() {
	var lines []string
	for _, e := range s.log[min(s.handed, len(s.log)):] {
		if s.visible(e) {
			lines = append(lines, s.eventText(e))
		}
	}
	s.handed = len(s.log)
	if len(lines) == 0 {
		return
	}
	s.printf("%s\n", s.st.Dim(s.cfg.Words.T("term.recap")))
	if len(lines) > maxRecap {
		s.printf("  %s\n", s.cfg.Words.T("term.recap_more"))
		lines = lines[len(lines)-maxRecap:]
	}
	for _, l := range lines {
		s.printf("  %s\n", l)
	}
}

// show writes seat's view of the game.
func (s *Session) show(seat engine.Seat) {
	text, err := present.View(s.state.View(seat), s.w.WithSeats(s.names), s.st)
	if err != nil {
		text = fmt.Sprintf("(%v)\n", err)
	}
	s.printf("\n%s", text)
}

// listActions writes the prompt's label and its numbered actions, then the
// actions allowed at any time. A short list takes a line per action, with
// what the action does when the game says it; a long one is laid out in
// columns, cut at maxRows rows, and actions of one word (pass) are never cut.
func (s *Session) listActions(p engine.Prompt) {
	s.printf("%s, %s:\n", s.st.Seat(p.Seat, s.names[p.Seat]), s.w.Label(p))
	actions := s.numbered(p)
	width := len(strconv.Itoa(len(actions)))
	entries := make([]string, len(actions))
	for i, a := range actions {
		entries[i] = fmt.Sprintf("%*d. %s", width, i+1, a)
	}
	if len(actions) <= maxLines {
		s.describedLines(p, actions, entries)
		return
	}
	if d, describes := s.state.(engine.Describer); describes {
		// a long list that says what each choice does: as many of its
		// first choices as fit maxRows lines, each with its description,
		// and every one-word choice (pass), then the free actions
		_, pad := s.fit(entries[:len(p.Actions)])
		var shown []string
		var example string
		rows, hidden := 0, 0
		for i, a := range p.Actions {
			line := s.described(d, p.Seat, a, entries[i], pad)
			n := strings.Count(line, "\n") + 1
			if strings.Contains(a, " ") && (hidden > 0 || rows+n > maxRows) {
				if hidden == 0 {
					example = a
				}
				hidden++
				continue
			}
			shown, rows = append(shown, line), rows+n
		}
		for _, line := range shown {
			s.printf("  %s\n", line)
		}
		if hidden > 0 {
			s.printf("  %s\n", s.cfg.Words.T("term.more_actions", "Count", hidden, "Example", example))
		}
		if free := entries[len(p.Actions):]; len(free) > 0 {
			s.printf("  %s\n", s.st.Dim(s.cfg.Words.T("terminal.any_time")))
			s.grid(free)
		}
		return
	}
	cols, _ := s.fit(entries)
	var turn, free []string
	for i, a := range actions {
		switch {
		case i >= len(p.Actions):
			free = append(free, entries[i])
		case i < maxRows*cols || !strings.Contains(a, " "):
			turn = append(turn, entries[i])
		}
	}
	s.grid(turn)
	if hidden := len(p.Actions) - len(turn); hidden > 0 {
		s.printf("  %s\n", s.cfg.Words.T("term.more_actions", "Count", hidden, "Example", actions[maxRows*cols]))
	}
	if len(free) > 0 {
		s.printf("  %s\n", s.st.Dim(s.cfg.Words.T("terminal.any_time")))
		s.grid(free)
	}
}

// describedLines writes one action a line, each followed by its description.
func (s *Session) describedLines(p engine.Prompt, actions, entries []string) {
	d, describes := s.state.(engine.Describer)
	_, pad := s.fit(entries)
	for i, a := range actions {
		if i == len(p.Actions) {
			s.printf("  %s\n", s.st.Dim(s.cfg.Words.T("terminal.any_time")))
		}
		line := entries[i]
		if describes {
			line = s.described(d, p.Seat, a, line, pad)
		}
		s.printf("  %s\n", line)
	}
}

// described is entry followed by what action does, in a column of its own
// from pad on, wrapped under itself to the screen's width.
func (s *Session) described(d engine.Describer, seat engine.Seat, action, entry string, pad int) string {
	what := s.w.Say(d.Describe(seat, action))
	if what == "" {
		return entry
	}
	indent := pad + columnGap
	text := wrap(what, max(s.width()-2-indent, 20))
	text = strings.ReplaceAll(text, "\n", "\n  "+strings.Repeat(" ", indent))
	return entry + strings.Repeat(" ", indent-utf8.RuneCountInString(entry)) + s.st.Dim(text)
}

// fit is how many columns of the entries fit the screen's width, and the
// width of a column.
func (s *Session) fit(entries []string) (cols, cell int) {
	for _, e := range entries {
		cell = max(cell, utf8.RuneCountInString(e))
	}
	return max(1, (s.width()-2+columnGap)/(cell+columnGap)), cell
}

// grid writes entries in columns, down then across.
func (s *Session) grid(entries []string) {
	cols, cell := s.fit(entries)
	rows := (len(entries) + cols - 1) / cols
	for r := 0; r < rows; r++ {
		var line strings.Builder
		for k := r; k < len(entries); k += rows {
			line.WriteString(entries[k])
			line.WriteString(strings.Repeat(" ", cell-utf8.RuneCountInString(entries[k])+columnGap))
		}
		s.printf("  %s\n", strings.TrimRight(line.String(), " "))
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
			s.printf("%s %s\n", s.st.Bad("✗"), s.cfg.Words.T("term.save_name"))
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
				s.printf("%s %s\n", s.st.Bad("✗"), s.cfg.Words.T("terminal.no_action", "N", n, "Count", len(actions)))
				return "", false, nil
			}
			return actions[n-1], false, nil
		}
		return line, false, nil
	}
	return "", false, nil
}

func (s *Session) help() {
	s.printf("%s\n", s.cfg.Words.T("terminal.help", "Example", s.example()))
}

func (s *Session) example() string {
	if ps := s.state.Prompts(); len(ps) > 0 && len(ps[0].Actions) > 0 {
		return strconv.Quote(ps[0].Actions[len(ps[0].Actions)-1])
	}
	return s.cfg.Words.T("terminal.example")
}

// rules shows the rules topic typed (by name, or by title in the
// session's language), or lists the topics: all of them, or those whose
// words mention what was typed.
func (s *Session) rules(topic string) {
	p, game := s.cfg.Words, s.title()
	book, ok := s.cfg.Rules.(engine.Rulebook)
	if !ok {
		s.printf("%s\n", p.T("topics.none", "Game", game))
		return
	}
	topics := book.Topics()
	if t, ok := s.w.Topic(topics, topic); ok {
		s.printf("%s\n%s\n", s.st.Bold(s.w.Say(t.Title)), wrap(s.w.Say(t.Text), s.width()-4))
		return
	}
	topic = strings.ToLower(strings.Join(strings.Fields(topic), " "))
	var names, mentions []string
	for _, t := range topics {
		names = append(names, t.Name)
		if topic != "" && strings.Contains(strings.ToLower(s.w.Say(t.Title)+" "+s.w.Say(t.Text)), topic) {
			mentions = append(mentions, t.Name)
		}
	}
	// the games have topics of their own: a miss lists this game's
	all := p.T("topics.all", "Game", game, "Topics", strings.Join(names, ", "))
	switch {
	case topic == "":
		s.printf("%s\n", wrap(p.T("topics.list", "Topics", strings.Join(names, ", ")), s.width()-4))
	case len(mentions) > 0:
		s.printf("%s\n", wrap(p.T("topics.mentions", "Topic", topic, "Mentions", strings.Join(mentions, ", "), "All", all), s.width()-4))
	default:
		s.printf("%s %s\n", s.st.Bad("✗"), wrap(p.T("topics.missing", "Topic", topic, "All", all), s.width()-6))
	}
}

// width is the screen's width in characters.
func (s *Session) width() int {
	if s.cfg.Width <= 0 {
		return defaultWidth
	}
	return s.cfg.Width
}

// wrap breaks text into lines of at most width characters, at plain
// spaces only: a no-break space (French sets one before : ; ! ?) holds.
func wrap(text string, width int) string {
	var b, line strings.Builder
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		if line.Len() > 0 && utf8.RuneCountInString(line.String())+1+utf8.RuneCountInString(w) > width {
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
		s.printf("%s\n", s.cfg.Words.T("log.empty"))
	}
	for _, l := range lines {
		s.printf("  %s\n", l)
	}
}

// takeBack undoes seat's last action and what the computers did after it.
func (s *Session) takeBack(seat engine.Seat) bool {
	if len(s.undo) == 0 {
		acted := slices.ContainsFunc(s.moves, func(m engine.Move) bool { return m.Seat == seat })
		why := "term.undo_none"
		if acted {
			why = "term.undo_revealed"
		}
		s.printf("%s %s\n", s.st.Bad("✗"), s.cfg.Words.T(why))
		return false
	}
	last := s.undo[len(s.undo)-1]
	if last.seat != seat {
		s.printf("%s %s\n", s.st.Bad("✗"), s.cfg.Words.T("term.undo_other", "Name", s.names[last.seat]))
		return false
	}
	s.undo = s.undo[:len(s.undo)-1]
	s.state = last.state
	s.moves = s.moves[:last.moves]
	s.hidden = slices.DeleteFunc(s.hidden, func(i int) bool { return i >= last.moves })
	s.log = s.log[:last.log]
	s.phase = s.state.Phase().Key()
	s.version++
	s.handed = min(s.handed, len(s.log))
	s.printf("%s\n", s.cfg.Words.T("terminal.undone"))
	return true
}

// save writes the game's script to path, or to the configured file, as
// the person at the keyboard may read it: without the other seats'
// unrevealed secret choices (see redacted).
func (s *Session) save(path string) error {
	if path == "" {
		path = s.cfg.Script
	}
	if path == "" {
		return nil
	}
	moves, left, seats, err := s.redacted(s.shown)
	if err != nil {
		return err
	}
	note := ""
	if left > 0 {
		note = leftOutNote(left, seats, !s.ending)
	}
	if err := s.writeScript(path, moves, note); err != nil {
		return err
	}
	s.sealed = slices.DeleteFunc(s.sealed, func(sv sealed) bool { return sv.path == path })
	if left > 0 && !s.ending {
		s.sealed = append(s.sealed, sealed{path: path, moves: slices.Clone(s.moves)})
	}
	// the path and the command stay whole on their lines, to be copied
	s.printf("%s\n  %s\n", s.cfg.Words.T("term.saved", "Path", path, "Count", len(moves)), s.replayCommand(path))
	if left > 0 {
		id := "term.left_out"
		if s.ending {
			id = "term.left_out_end"
		}
		note := wrap(s.cfg.Words.T(id, "Count", left, "Seats", strings.Join(seats, ", ")), s.width()-2)
		s.printf("  %s\n", s.st.Dim(strings.ReplaceAll(note, "\n", "\n  ")))
	}
	return nil
}

// writeScript writes moves as a script to path, followed by note.
func (s *Session) writeScript(path string, moves []engine.Move, note string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = engine.WriteScript(f, s.cfg.Rules.Name(), s.cfg.Setup, moves)
	if err == nil {
		_, err = f.WriteString(note)
	}
	return errors.Join(err, f.Close())
}

// replayCommand is the command line that replays the script at path: the
// script's header names the setup, but "meeple replay" reads it from flags.
func (s *Session) replayCommand(path string) string {
	setup := s.cfg.Setup
	cmd := fmt.Sprintf("meeple replay -game %s -players %d -seed %d", s.cfg.Rules.Name(), setup.Players, setup.Seed)
	if opts := options(setup); len(opts) > 0 {
		cmd += " -options " + strings.Join(opts, ",")
	}
	return cmd + " -script " + quoteArg(path)
}

// quoteArg quotes a shell argument when it holds anything but plain characters.
func quoteArg(arg string) string {
	if arg != "" && strings.Trim(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=,:") == "" {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
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
	// the scores are in the view just shown
	s.printf("%s %s\n", s.st.Bold(s.cfg.Words.T("terminal.game_over")), ifAny(s.cfg.Words.T("terminal.winners", "Names", strings.Join(winners, ", "), "Count", len(winners)), len(winners) > 0))
	s.scoresPicture()
}
