package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/meeplegames/meeple/rating"
	"github.com/meeplegames/meeple/storage"
)

// finishTiny plays a started one-round tiny game to its end: each user
// picks and then moves as given ("3", "2"), in seat order.
func finishTiny(t *testing.T, h *harness, ch string, picks map[tester]string, moves []tester, move map[tester]string) {
	t.Helper()
	for u, p := range picks {
		if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: "pick " + p}); !h.says(res.text(), "play.played") {
			t.Fatalf("%s's pick: %s", u.Name, res.text())
		}
	}
	for _, u := range moves {
		board := h.board(ch)
		h.click(u, ch, board.ID, mustComponent(t, board, "move "+move[u]))
	}
	if _, err := h.store.Get(context.Background(), ch); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("game in %s not over: %v", ch, err)
	}
}

func TestRatingsFromResultsSurviveARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	// game 1: alice 3+2 beats bob 1+1
	openTinyTable(t, h, chTiny, alice, bob)
	finishTiny(t, h, chTiny, map[tester]string{alice: "3", bob: "1"}, []tester{alice, bob}, map[tester]string{alice: "2", bob: "1"})
	// game 2: bob hands his seat to carol mid-game; the seat wins
	openTinyTable(t, h, "3002", alice, bob)
	h.command(alice, "3002", cmdPlay, "", map[string]any{optAction: "pick 1"})
	if res := h.command(bob, "3002", cmdGame, subReplace, map[string]any{optSeat: 2, optUser: carol.ID}); res.private() {
		t.Fatalf("bob hands over: %s", res.text())
	}
	finishTiny(t, h, "3002", map[tester]string{carol: "3"}, []tester{alice, carol}, map[tester]string{alice: "1", carol: "2"})

	// what the ladder must say: game 1 rates alice over bob; in game 2
	// bob left (ranked last) and carol came in late (not rated)
	m := rating.DefaultModel()
	g1, _ := m.Rate([][]rating.Rating{{m.New()}, {m.New()}}, nil)
	g2, _ := m.Rate([][]rating.Rating{{g1[0][0]}, {g1[1][0]}}, nil)
	alicePlays, bobPlays := g2[0][0], g2[1][0]

	stats := h.command(alice, chTiny, cmdGame, subStats, nil)
	skill := fmt.Sprintf("skill %.1f (μ %.1f, σ %.1f) over 2 games, 1 won", alicePlays.Ordinal(), alicePlays.Mu, alicePlays.Sigma)
	want := fmt.Sprintf("**All games:** %s · favourite game Tiny Game\n**Tiny Game:** %s\n"+
		"**Deadlines on this server:** 4 decisions in time, 0 missed, 0 seats handed over\n\n**This server:** 0 games going, 0 abandoned, 2 Tiny Game finished", skill, skill)
	if !strings.Contains(stats.text(), want) {
		t.Fatalf("alice's stats lack %q:\n%s", want, stats.text())
	}
	if res := h.command(carol, chTiny, cmdGame, subStats, nil); !strings.Contains(res.text(), h.say("stats.unrated")) || !h.says(res.text(), "stats.record", "Count", 1, "Wins", 1) {
		t.Errorf("carol's stats: %s", res.text())
	}
	board := h.command(eve, chTiny, cmdGame, subBoardTop, map[string]any{optGame: "tiny"})
	wantBoard := fmt.Sprintf("1. <@%s> — skill %.1f, 2 games, 1 won\n2. <@%s> — skill %.1f, 2 games, 0 won", alice.ID, alicePlays.Ordinal(), bob.ID, bobPlays.Ordinal())
	if board.private() || !strings.Contains(board.text(), wantBoard) || strings.Contains(board.text(), carol.ID) {
		t.Fatalf("leaderboard:\n%s\nwant:\n%s", board.text(), wantBoard)
	}
	if got := notified(t, board.Requests[0]); len(got) != 0 {
		t.Errorf("the leaderboard notifies %v", got)
	}
	if res := h.command(eve, chTiny, cmdGame, subBoardTop, map[string]any{optGame: "chess"}); !res.private() || !h.says(res.text(), "refuse.unknown_game") {
		t.Errorf("an unknown game's leaderboard: %s", res.text())
	}

	h.restart() // recomputed from the stored results: the same numbers
	if again := h.command(eve, chTiny, cmdGame, subBoardTop, map[string]any{optGame: "tiny"}); again.text() != board.text() {
		t.Errorf("after a restart the leaderboard reads\n%s\nnot\n%s", again.text(), board.text())
	}
}

func TestLeaderboardImage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{Images: true}, realRenderer(t), nil)
	openTinyTable(t, h, chTiny, alice, bob)
	finishTiny(t, h, chTiny, map[tester]string{alice: "3", bob: "1"}, []tester{alice, bob}, map[tester]string{alice: "2", bob: "1"})
	res := h.command(eve, chTiny, cmdGame, subBoardTop, nil)
	var img []byte
	for _, q := range res.Requests {
		for _, f := range q.Files {
			if strings.HasSuffix(f.Name, ".png") {
				img = f.Data
			}
		}
	}
	if !h.says(res.text(), "ratings.title", "Game", h.say("ratings.all_games")) || len(img) == 0 {
		t.Fatalf("leaderboard without its image: %s", res.text())
	}
	if dir := os.Getenv("MEEPLE_WRITE_IMAGES"); dir != "" {
		_ = os.WriteFile(dir+"/leaderboard-bot.png", img, 0o644)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(img))
	if err != nil || cfg.Width < 600 || cfg.Height < 200 {
		t.Fatalf("leaderboard image %+v, %v", cfg, err)
	}
}
