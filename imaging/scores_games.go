package imaging

import (
	"strings"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
)

// cpSources orders and names Crystal Palace's scoring sources.
func cpSources() ([]string, map[string]string) {
	keys := []string{"start", "prototypes", "characters", "shares", "port-tickets", "buzz-posters", "card-effects",
		"pocket-watch", "income-penalty", "objective", "buzz-rank", "black-market", "loans", "research-spaces"}
	labels := map[string]string{
		"start": "Starting VP", "prototypes": "Prototypes", "characters": "Characters", "shares": "Shares",
		"port-tickets": "Port tickets", "buzz-posters": "Buzz posters", "card-effects": "Card effects",
		"pocket-watch": "Pocket Watch", "income-penalty": "Income (red spaces)", "objective": "Nation objective",
		"buzz-rank": "Buzz track rank", "black-market": "Black Market rank", "loans": "Loans",
		"research-spaces": "Empty research spaces",
	}
	return keys, labels
}

// crystalPalaceScores draws the final scores, or the standings on the
// scoring track while the game runs.
func (r *Renderer) crystalPalaceScores(v *cp.View, names []string) ([]byte, error) {
	if err := cpCheck(v); err != nil {
		return nil, err
	}
	keys, labels := cpSources()
	sheet := &scoreSheet{title: "Crystal Palace · final scores", total: "Total VP", sources: keys, labels: labels, signed: true,
		names: r.seatNames(names, v.Players)}
	for _, p := range v.Seats {
		sheet.notes = append(sheet.notes, p.Nation)
	}
	if v.Result != nil {
		sheet.result = engine.Result{Over: v.Over, Scores: v.Result.Scores, Winners: v.Result.Winners, Breakdown: v.Result.Breakdown}
	} else {
		sheet.title = "Crystal Palace · standings"
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
func (r *Renderer) eightyDaysScores(v *eightydays.View, names []string) ([]byte, error) {
	if err := edCheck(v); err != nil {
		return nil, err
	}
	players := len(v.Players)
	sheet := &scoreSheet{
		title:   "Around the World in 80 Days · result",
		total:   "Space reached",
		sources: []string{"pounds", "rumors", "characters"},
		labels:  map[string]string{"pounds": "Pounds in hand", "rumors": "Rumor cards held", "characters": "Characters kept"},
		names:   r.seatNames(names, players),
		result:  engine.Result{Over: v.Over, Winners: v.Winners, Scores: make([]int, players)},
	}
	for seat, p := range v.Players {
		for _, pawn := range p.Pawns {
			sheet.result.Scores[seat] += pawn.Space
		}
		sheet.result.Breakdown = append(sheet.result.Breakdown, map[string]int{
			"pounds": p.Pounds, "rumors": p.Rumors, "characters": len(p.Characters),
		})
		sheet.notes = append(sheet.notes, strings.Join(edWhere(p), " · "))
	}
	for _, p := range v.Players {
		if len(p.Pawns) > 1 {
			sheet.total = "Spaces, both pawns"
		}
	}
	if !v.Over {
		sheet.title = "Around the World in 80 Days · standings"
	}
	return r.drawScores(sheet)
}
