package imaging

import (
	"fmt"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

// cachedLayers is how many static layers and parts of them r holds.
func cachedLayers(r *Renderer) (backgrounds, pieces int) {
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	return len(r.bgs), len(r.pieces)
}

// Boards of different Crystal Palace games with the same player count share
// their static layers: one background per layout geometry (the rows'
// heights, which follow the cards on display), whatever the game's flyers,
// posters, conditions and texts, and one panel per location and height.
func TestCrystalPalaceGamesShareBackgrounds(t *testing.T) {
	rules := cpRules(t)
	for n := 2; n <= 5; n++ {
		r, err := New() // a cache of its own, with room for every layout
		if err != nil {
			t.Fatal(err)
		}
		r.bgLimit = 1 << 30
		layouts, panels := map[string]bool{}, map[string]bool{}
		games := map[string]int{}
		for seed := uint64(1); seed <= 20; seed++ {
			p := position{fmt.Sprintf("share-%d-%d", n, seed), rules, engine.Setup{Players: n, Seed: seed}, int(seed % 4 * 8)}
			v := p.playOut(t).View(engine.Spectator).(*cp.View)
			if _, err := r.Board(v, en(nil)); err != nil {
				t.Fatal(err)
			}
			m := &canvas{r: r, fs: newFaceSet(r.fonts), w: en(nil)}
			l := m.newCPLayout(v, r.seatNames(en(nil), v.Players))
			layout := fmt.Sprint(l.height, l.locRect, l.rightBox)
			layouts[layout] = true
			games[layout]++
			for i, rect := range l.locRect {
				panels[fmt.Sprint(i, rect.Dy())] = true
			}
		}
		bgs, pieces := cachedLayers(r)
		if bgs > len(layouts) {
			t.Errorf("%d players: 20 games cached %d backgrounds, want at most %d (one per layout)", n, bgs, len(layouts))
		}
		if pieces > len(panels) {
			t.Errorf("%d players: 20 games cached %d panels, want at most %d (one per location and height)", n, pieces, len(panels))
		}
		shared := 0
		for _, k := range games {
			shared = max(shared, k)
		}
		t.Logf("%d players: %d layouts (up to %d games on one), %d backgrounds, %d panels", n, len(layouts), shared, bgs, pieces)
	}
}

// The 80 Days track comes from the content, not the game's seed, so every
// game with the same number of travellers shares one background.
func TestEightyDaysGamesShareBackgrounds(t *testing.T) {
	rules := edRules(t)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	r.bgLimit = 1 << 30 // room for every layout
	for n := 2; n <= 6; n++ {
		for seed := uint64(1); seed <= 10; seed++ {
			p := position{fmt.Sprintf("share-ed-%d-%d", n, seed), rules, engine.Setup{Players: n, Seed: seed}, int(seed % 3 * 5)}
			if _, err := r.Board(p.playOut(t).View(engine.Spectator), en(nil)); err != nil {
				t.Fatal(err)
			}
		}
		if bgs, _ := cachedLayers(r); bgs != n-1 {
			t.Errorf("after 10 games each of 2 to %d travellers: %d backgrounds cached, want %d", n, bgs, n-1)
		}
	}
}

// BenchmarkCrystalPalaceBoardManyGames renders the boards of 40 different
// 4-player games in turn, as a bot hosting many games does: what the cache
// of static layers saves when games differ.
func BenchmarkCrystalPalaceBoardManyGames(b *testing.B) {
	rules := cpRules(b)
	var views []any
	for seed := uint64(1); seed <= 40; seed++ {
		p := position{fmt.Sprintf("many-%d", seed), rules, engine.Setup{Players: 4, Seed: seed}, int(seed % 4 * 8)}
		views = append(views, p.playOut(b).View(engine.Spectator))
	}
	r, err := NewWith(Options{LayerCache: 256 << 20}) // room for the layouts of 40 games
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	benchImage(b, func() ([]byte, error) {
		i++
		return r.Board(views[i%len(views)], en(nil))
	})
}
