package engine

import (
	"fmt"
	"sort"
	"strings"
)

// Player is a computer player: given a state and one of its prompts, it
// returns one of the prompt's legal actions. rng makes its choices
// reproducible.
type Player interface {
	Choose(s State, p Prompt, rng *RNG) string
}

// ComputerPlayers is implemented by Rules that ship computer players of
// their own, besides the generic random one.
type ComputerPlayers interface {
	// ComputerPlayer returns the named player ("heuristic", …).
	ComputerPlayer(name string) (Player, bool)
	// ComputerPlayerNames lists the names ComputerPlayer knows.
	ComputerPlayerNames() []string
}

// Registry is the set of games a program offers, by name. It is built once
// in main and read-only afterwards, so it is safe for concurrent use.
type Registry struct {
	byName map[string]Rules
	names  []string
}

// NewRegistry returns a registry of the given games.
func NewRegistry(games ...Rules) *Registry {
	r := &Registry{byName: map[string]Rules{}}
	for _, g := range games {
		r.byName[g.Name()] = g
		r.names = append(r.names, g.Name())
	}
	sort.Strings(r.names)
	return r
}

// Lookup returns the game with the given name.
func (r *Registry) Lookup(name string) (Rules, error) {
	if g, ok := r.byName[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(r.names, ", "))
}

// Names lists the games' names in order.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Topic is a short summary of one part of a game's rules, looked up by name
// ("loans", "phase 3", "police"): the text of /game rules and the terminal's
// rules command. Its title and text are data for the wording layer, so a
// topic reads in each reader's language; its name is typed, the same in
// every language.
type Topic struct {
	Name  string // lookup key, lower case, the same in every language
	Title Text
	Text  Text // a few sentences in Meeple's own words
}

// TopicsOf are the topics named names whose titles and texts are the
// messages prefix+key+".title" and prefix+key+".text", key being the name
// with "_" for spaces: TopicsOf("cp.topic.", "phase 3") reads
// "cp.topic.phase_3.title".
func TopicsOf(prefix string, names ...string) []Topic {
	out := make([]Topic, len(names))
	for i, name := range names {
		key := prefix + strings.ReplaceAll(name, " ", "_")
		out[i] = Topic{Name: name, Title: Say(key + ".title"), Text: Say(key + ".text")}
	}
	return out
}

// Rulebook is implemented by Rules that offer rules summaries.
type Rulebook interface {
	Topics() []Topic
}
