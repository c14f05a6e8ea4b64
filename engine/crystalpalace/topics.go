package crystalpalace

import "github.com/meeplegames/meeple/engine"

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
func (r *Rules) Topics() []engine.Topic { return engine.TopicsOf("cp.topic.", topicNames[:]...) }
