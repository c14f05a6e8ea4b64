package imaging

import (
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/wording"
)

// cpSources orders and names Crystal Palace's scoring sources, in w's
// language.
func cpSources(w *wording.Words) ([]string, map[string]string) {
	keys := []string{"start", "prototypes", "characters", "shares", "port-tickets", "buzz-posters", "card-effects",
		"pocket-watch", "income-penalty", "objective", "buzz-rank", "black-market", "loans", "research-spaces"}
	labels := make(map[string]string, len(keys))
	for _, k := range keys {
		labels[k] = say(w, "cp.image.source."+strings.ReplaceAll(k, "-", "_"))
	}
	return keys, labels
}

// crystalPalaceScores draws the final scores, or the standings on the
// scoring track while the game runs.
func (r *Renderer) crystalPalaceScores(v *cp.View, w *wording.Words) ([]byte, error) {
	if err := cpCheck(v); err != nil {
		return nil, err
	}
	keys, labels := cpSources(w)
	game := say(w, "game.crystalpalace.title")
	sheet := &scoreSheet{title: say(w, "image.final_scores", "Game", game), total: say(w, "cp.image.total"), sources: keys, labels: labels, signed: true,
		names: r.seatNames(w, v.Players), w: w}
	for _, p := range v.Seats {
		sheet.notes = append(sheet.notes, itemOr(w, p.NationKey, p.Nation))
	}
	if v.Result != nil {
		sheet.result = engine.Result{Over: v.Over, Scores: v.Result.Scores, Winners: v.Result.Winners, Breakdown: v.Result.Breakdown}
	} else {
		sheet.title = say(w, "image.standings", "Game", game)
		sheet.result = engine.Result{Over: false, Scores: make([]int, v.Players)}
		for seat, p := range v.Seats {
			sheet.result.Scores[seat] = p.VP
		}
	}
	if len(sheet.result.Scores) != v.Players {
		return nil, unsupported(v)
	}
	return r.drawScores(sheet)
}

// eightyDaysScores draws the end of a race: who got home, how far the
// others got, and what they still carried.
func (r *Renderer) eightyDaysScores(v *eightydays.View, w *wording.Words) ([]byte, error) {
	if err := edCheck(v); err != nil {
		return nil, err
	}
	players := len(v.Players)
	game := say(w, "game.eightydays.title")
	sheet := &scoreSheet{
		title:   say(w, "ed.image.result", "Game", game),
		total:   say(w, "ed.image.total"),
		sources: []string{"pounds", "rumors", "characters"},
		labels: map[string]string{"pounds": say(w, "ed.image.source.pounds"), "rumors": say(w, "ed.image.source.rumors"),
			"characters": say(w, "ed.image.source.characters")},
		names:  r.seatNames(w, players),
		result: engine.Result{Over: v.Over, Winners: v.Winners, Scores: make([]int, players)},
		w:      w,
	}
	for seat, p := range v.Players {
		for _, pawn := range p.Pawns {
			sheet.result.Scores[seat] += pawn.Space
		}
		sheet.result.Breakdown = append(sheet.result.Breakdown, map[string]int{
			"pounds": p.Pounds, "rumors": p.Rumors, "characters": len(p.Characters),
		})
		sheet.notes = append(sheet.notes, strings.Join(edWhere(w, p), " · "))
	}
	for _, p := range v.Players {
		if len(p.Pawns) > 1 {
			sheet.total = say(w, "ed.image.total_pawns")
		}
	}
	if !v.Over {
		sheet.title = say(w, "image.standings", "Game", game)
	}
	return r.drawScores(sheet)
}
