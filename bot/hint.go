package bot

import (
	"context"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"math"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/storage"
)

// hintPlayer is the computer player whose suggestion /game hint gives.
const hintPlayer = "strong"

// hint answers /game hint: privately, the strong computer's suggestion for
// the asker's current decision, what it does and how it fared in the
// search against the next best. Only a table that allowed hints in its
// lobby may ask (such games are not rated); each hint is counted for the
// final scores. The search sees only the asker's seat's observation.
func (gh *gameHandler) hint(ctx context.Context, r *transport.Reply, in *interaction, g *storage.Game, st engine.State) error {
	if !g.Hints {
		return refuseWith("hint.off")
	}
	var prompt engine.Prompt
	found := false
	for _, s := range table.SeatsOf(g, userOf(in.Interaction).ID) {
		if ps := table.PromptsOf(st, s); len(ps) > 0 {
			prompt, found = ps[0], true
			break
		}
	}
	if !found {
		return refuseWith("hint.no_decision")
	}
	rules, err := gh.games.Lookup(g.Kind)
	if err != nil {
		return err
	}
	player, err := ai.LookupThinking(rules, hintPlayer, gh.think.Budget())
	search, ok := player.(ai.Search)
	if err != nil || !ok {
		return refuseWith("hint.none")
	}
	r.DeferMessage(true) // thinking takes up to a second
	choice, ok := gh.think.Suggest(search, st, prompt, g)
	if !ok {
		return errClosing
	}
	if _, err := gh.store.Update(ctx, g.Channel, g.ID, func(r *storage.Game) error {
		for len(r.HintsTaken) < len(r.Seats) {
			r.HintsTaken = append(r.HintsTaken, 0)
		}
		r.HintsTaken[prompt.Seat]++
		return nil
	}); err != nil {
		return err
	}
	words := gameWords(in.tr, gh.games, g.Kind)
	text := in.tr.T("hint.answer", "Action", choice.Action, "What", transport.OrNone(describe(words, st, prompt.Seat, choice.Action)), "Worth", percent(choice.Worth))
	if choice.RunnerUp != "" {
		text += "\n" + in.tr.T("hint.next", "Action", choice.RunnerUp, "Worth", percent(choice.Runner))
	}
	return r.Message(transport.Message{Content: text, Private: true})
}

// percent writes a worth from 0 to 1 as a whole percentage.
func percent(w float64) int {
	if math.IsNaN(w) {
		return 100 // the only answer
	}
	return int(math.Round(100 * w))
}
