package imaging

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"testing"
)

func TestLeaderboardImage(t *testing.T) {
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rows := []Standing{
		{Name: "Ada", Skill: 12.3, Games: 9, Wins: 5},
		{Name: "Grace Brewster Murray Hopper, rear admiral of the navy", Skill: 4.05, Games: 4, Wins: 1},
		{Name: "Édouard 🎲\x07", Skill: -2.5, Games: 1, Wins: 0},
		{Name: "\x00", Skill: -2.8},
	}
	for i := range 30 {
		rows = append(rows, Standing{Name: fmt.Sprintf("Player %d", i), Skill: -3 - float64(i)})
	}
	got, err := r.Leaderboard("Crystal Palace · leaderboard", rows, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != boardWidth || b.Dy() != titleHeight+2*boardMargin+boardHeadH+MaxStandings*boardRowH {
		t.Fatalf("size %v: want %d rows", b, MaxStandings)
	}
	// the first row is highlighted, the second banded, the third plain
	x := boardMargin + 4
	rowY := func(i int) int { return titleHeight + boardMargin + boardHeadH + i*boardRowH + 4 }
	if a, b := img.At(x, rowY(0)), img.At(x, rowY(2)); a == b {
		t.Error("the leader's row is not highlighted")
	}
	if os.Getenv("MEEPLE_WRITE_IMAGES") != "" {
		_ = os.WriteFile("testdata/leaderboard.png", got, 0o644)
	}
	empty, err := r.Leaderboard("Around the World in 80 Days · leaderboard", nil, en(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(empty)); err != nil || cfg.Height != titleHeight+2*boardMargin+boardHeadH+boardRowH {
		t.Fatalf("empty leaderboard: %+v %v", cfg, err)
	}
}
