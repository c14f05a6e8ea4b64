package eightydays

import "github.com/meeplegames/meeple/engine"

// Unasked implements engine.Unasked: a prompt with one possible answer (a
// forced discard at the Police, a turn whose only move is back), and a
// choice between two drawn cards that are the same card, answered with the
// first.
func (s *State) Unasked(p engine.Prompt) (string, engine.Text, bool) {
	if p.Kind == PromptKeep && len(p.Actions) == 2 && len(s.Drawn) == 2 &&
		s.rules.content.Cards[s.Drawn[0]].ID == s.rules.content.Cards[s.Drawn[1]].ID {
		return p.Actions[0], engine.Say("ed.unasked.same_cards"), true
	}
	return engine.OnlyAnswer(p)
}
