package eightydays

import "github.com/meeplegames/meeple/engine"

// topicNames are the rules topics, in the order they are listed; their
// titles and texts are the messages ed.topic.<name>.title and .text.
var topicNames = [...]string{
	"overview", "goal", "moving", "backwards", "layover", "stuck", "passepartout",
	"bet", "pound", "police", "london", "variant", "content",
}

// Topics implements engine.Rulebook: the rules in short, in Meeple's words,
// as messages of the catalogues (topics.<lang>.toml).
func (r *Rules) Topics() []engine.Topic { return engine.TopicsOf("ed.topic.", topicNames[:]...) }
