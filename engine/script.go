package engine

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Move is one line of a game script: a seat and the canonical action it took.
type Move struct {
	Seat   Seat
	Action string
	Line   int // line number in the script it was read from; 0 when not read from a file
}

// String formats the move as a script line, seats numbered from 1: "P2: move 14".
func (m Move) String() string {
	return fmt.Sprintf("P%d: %s", int(m.Seat)+1, m.Action)
}

// ParseMove reads one script line of the form "P<seat>: <action>", seat
// numbered from 1.
func ParseMove(line string) (Move, error) {
	head, action, ok := strings.Cut(line, ":")
	head = strings.TrimSpace(head)
	action = strings.Join(strings.Fields(action), " ")
	if !ok || len(head) < 2 || (head[0] != 'P' && head[0] != 'p') {
		return Move{}, fmt.Errorf("want \"P<seat>: <action>\", got %q", line)
	}
	n, err := strconv.Atoi(head[1:])
	if err != nil || n < 1 {
		return Move{}, fmt.Errorf("bad seat %q: seats are P1, P2, …", head)
	}
	if action == "" {
		return Move{}, fmt.Errorf("no action after %q", head+":")
	}
	return Move{Seat: Seat(n - 1), Action: action}, nil
}

// ReadScript reads a game script: one move per line, blank lines and lines
// starting with # ignored (as is anything after a # on a line).
func ReadScript(r io.Reader) ([]Move, error) {
	var moves []Move
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := ParseMove(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		m.Line = n
		moves = append(moves, m)
	}
	return moves, sc.Err()
}

// WriteScript writes moves as a script that ReadScript reads back, after a
// header comment naming the game, player count, seed and options.
func WriteScript(w io.Writer, game string, setup Setup, moves []Move) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# game %s players %d seed %d", game, setup.Players, setup.Seed)
	for _, k := range sortedKeys(setup.Options) {
		fmt.Fprintf(bw, " %s=%s", k, setup.Options[k])
	}
	fmt.Fprintln(bw)
	for _, m := range moves {
		fmt.Fprintln(bw, m.String())
	}
	return bw.Flush()
}

// ScriptHeader reads the header comment WriteScript writes ("# game G players
// N seed S k=v …"). ok is false when the line is not such a header.
func ScriptHeader(line string) (game string, setup Setup, ok bool) {
	f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "#"))
	if len(f) < 6 || f[0] != "game" || f[2] != "players" || f[4] != "seed" {
		return "", Setup{}, false
	}
	players, err1 := strconv.Atoi(f[3])
	seed, err2 := strconv.ParseUint(f[5], 10, 64)
	if err1 != nil || err2 != nil {
		return "", Setup{}, false
	}
	setup = Setup{Players: players, Seed: seed}
	for _, kv := range f[6:] {
		k, v, found := strings.Cut(kv, "=")
		if !found {
			return "", Setup{}, false
		}
		if setup.Options == nil {
			setup.Options = map[string]string{}
		}
		setup.Options[k] = v
	}
	return f[1], setup, true
}
