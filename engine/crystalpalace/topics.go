package crystalpalace

import (
	"slices"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// topicNames are the rules topics, in the order they are listed; their
// titles and texts are the messages cp.topic.<name>.title and .text.
var topicNames = [...]string{
	"overview", "phases", "phase 1", "phase 2", "phase 3",
	"patent office", "british museum", "bank of england", "westminster",
	"reform club", "london times", "port of london", "waterloo station",
	"assistants", "black market", "phase 4", "phase 5", "phase 6", "phase 7",
	"newspapers", "loans", "market", "buzz", "income", "pocket watch", "end scoring",
}

// Topics implements engine.Rulebook: short summaries of the rules, in
// Meeple's own words, with the notation to type, as messages of the
// catalogues (topics.<lang>.toml).
// A location's topic reads its action spaces from the content ({{.Spaces}}),
// so that what each costs or gives at each player count cannot drift from
// the rules the game plays.
func (r *Rules) Topics() []engine.Topic {
	topics := engine.TopicsOf("cp.topic.", topicNames[:]...)
	for i := range topics {
		for l := range r.c.Locations {
			if strings.EqualFold(r.c.Locations[l].Name, topics[i].Name) {
				topics[i].Text.Args = []engine.Arg{engine.Nested("Spaces", r.spacesText(locKind(l), r.MinPlayers()))}
			}
		}
	}
	return topics
}

// spacesText says what location l's action spaces give or cost, in the
// order dice take them, from players up: one sentence for each run of
// player counts whose spaces are the same (cp.spaces.line), each ending
// with the next run's ({{.Next}}).
func (r *Rules) spacesText(l locKind, players int) engine.Text {
	if players > r.MaxPlayers() {
		return engine.Text{}
	}
	actions := r.sides[players][l].Actions
	to := players
	for to < r.MaxPlayers() && slices.Equal(r.sides[to+1][l].Actions, actions) {
		to++
	}
	args := []engine.Arg{engine.Num("From", players), engine.Num("To", to), engine.Nested("Next", r.spacesText(l, to+1))}
	for _, a := range actions {
		args = append(args, engine.Part(engine.Nested("", spaceText(a))))
	}
	return engine.Say("cp.spaces.line", args...)
}

// spaceText says what action space a gives or costs: "+1 newspaper",
// "a cost of 2 £", "nothing".
func spaceText(a ActionSpace) engine.Text {
	var parts []engine.Arg
	switch {
	case a.Pounds < 0:
		parts = append(parts, engine.Amount("cp.spaces.pay", -a.Pounds))
	case a.Pounds > 0:
		parts = append(parts, engine.Amount("unit.pounds", a.Pounds))
	}
	if a.Newspapers != 0 {
		parts = append(parts, engine.Amount("unit.newspapers", a.Newspapers))
	}
	if a.Buzz != 0 {
		parts = append(parts, engine.Amount("unit.buzz", a.Buzz))
	}
	if parts == nil {
		return engine.Say("cp.spaces.none")
	}
	return engine.Text{ID: "cp.effects", Args: parts}
}
