package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/rating"
	"github.com/meeplegames/meeple/storage"
)

func TestPlayersVoteToEndAGameAfterAResignation(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob, carol)
	h.command(alice, chTiny, cmdPlay, "", map[string]any{optAction: "pick 3"}) // a secret choice
	mark := h.mark()

	// carol resigns in the secret phase; the resignation offers a vote
	res := h.command(carol, chTiny, cmdGame, subResign, nil)
	ids := res.Requests[0].CustomIDs()
	if res.private() || len(ids) != 1 || !h.says(res.text(), "seats.resigned") {
		t.Fatalf("carol's resignation: %s %v", res.text(), ids)
	}
	resignation, _ := h.fake.Original(res.Token)
	id := h.game(chTiny).ID

	if res := h.command(eve, chTiny, cmdGame, subEnd, nil); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("a spectator's vote: %s", res.text())
	}
	if res := h.command(carol, chTiny, cmdGame, subEnd, nil); !res.private() || !h.says(res.text(), "refuse.not_seated") {
		t.Errorf("the resigned player's vote: %s", res.text())
	}
	// two people are left: both must vote
	res = h.command(bob, chTiny, cmdGame, subEnd, nil)
	want := fmt.Sprintf("<@%s> votes to end game #%d here, with no winner: 1 of the 2 votes needed (more than half of the 2 people at the table). <@%s>, you can vote too.", bob.ID, id, alice.ID)
	if res.private() || !strings.HasPrefix(res.text(), want+"\n") || len(res.Requests[0].CustomIDs()) != 1 {
		t.Fatalf("bob's vote:\n%s\nwant\n%s", res.text(), want)
	}
	if got := notified(t, res.Requests[0]); !slices.Equal(got, []string{alice.ID}) {
		t.Errorf("bob's vote notifies %v, want alice", got)
	}
	if res := h.command(bob, chTiny, cmdGame, subEnd, nil); !res.private() || !h.says(res.text(), "vote.already") {
		t.Errorf("bob votes twice: %s", res.text())
	}
	if g := h.game(chTiny); g.Status != storage.StatusRunning || !slices.Equal(g.EndVotes, []string{bob.ID}) {
		t.Fatalf("after one vote: %s, votes %v", g.Status, g.EndVotes)
	}

	h.restart() // the vote is kept with the game
	res = h.click(alice, chTiny, resignation, ids[0])
	if res.private() || !strings.Contains(res.text(), fmt.Sprintf("Game #%d ends by its players' vote (<@%s> and <@%s>: 2 of 2 people). Nobody wins", id, bob.ID, alice.ID)) ||
		!h.says(res.text(), "vote.ratings_left") {
		t.Fatalf("alice's vote: %s", res.text())
	}
	g, err := h.store.GetByID(context.Background(), id)
	if err != nil || g.Status != storage.StatusFinished || !g.EndedByVote || g.Result == nil || len(g.Result.Winners) != 0 || len(g.Result.Scores) != len(g.Seats) {
		t.Fatalf("the game after the vote: %+v, %v", g, err)
	}
	public := h.publicSince(mark)
	if !h.says(public, "board.final_vote") || strings.Contains(public, "🏆") || strings.Contains(public, "pick 3") {
		t.Errorf("the end as the channel saw it:\n%s", public)
	}
	if res := h.command(alice, chTiny, cmdGame, subEnd, nil); !res.private() {
		t.Errorf("a vote after the end: %s", res.text())
	}

	// recorded: a game played and not won; rated as a tie of alice and
	// bob above carol, who left
	for _, u := range []tester{alice, bob} {
		st, err := h.store.Stats(context.Background(), u.ID)
		if err != nil || len(st) != 1 || st[0].Played != 1 || st[0].Won != 0 {
			t.Errorf("%s's statistics: %+v, %v", u.Name, st, err)
		}
	}
	m := rating.DefaultModel()
	out, err := m.Rate([][]rating.Rating{{m.New()}, {m.New()}, {m.New()}}, []int{1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	board := h.command(eve, chTiny, cmdGame, subBoardTop, map[string]any{optGame: "tiny"}).text()
	for i, u := range []tester{alice, bob, carol} {
		line := fmt.Sprintf("<@%s> — skill %.1f, 1 game, 0 won", u.ID, out[i][0].Ordinal())
		if !strings.Contains(board, line) {
			t.Errorf("the leaderboard lacks %q:\n%s", line, board)
		}
	}
}

func TestAVoteToEndNeedsAMajority(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob, carol)
	id := h.game(chTiny).ID
	res := h.command(alice, chTiny, cmdGame, subEnd, nil)
	if !h.says(res.text(), "vote.cast", "Votes", 1, "Needed", 2, "Count", 3) {
		t.Fatalf("alice's vote: %s", res.text())
	}
	// a vote stops counting when its voter leaves the table
	h.command(alice, chTiny, cmdGame, subResign, nil)
	res = h.command(bob, chTiny, cmdGame, subEnd, nil)
	if !h.says(res.text(), "vote.cast", "Votes", 1, "Needed", 2, "Count", 2) {
		t.Fatalf("bob's vote after alice left: %s", res.text())
	}
	// a button of another game is refused
	cid := componentID(storage.Guard{Game: id + 1}, verbEndVote, "")
	board := h.board(chTiny)
	if res := h.click(carol, chTiny, board.ID, cid); !res.private() || !h.says(res.text(), "refuse.foreign") {
		t.Errorf("a foreign vote button: %s", res.text())
	}
	res = h.command(carol, chTiny, cmdGame, subEnd, nil)
	if !h.says(res.text(), "vote.ended") || !strings.Contains(res.text(), "2 of 2 people") {
		t.Fatalf("carol's vote: %s", res.text())
	}
	if g, _ := h.store.GetByID(context.Background(), id); !g.EndedByVote || g.Status != storage.StatusFinished {
		t.Fatalf("not ended: %+v", g)
	}
}

// voteElsewhere is the bot's store with, once, another process's vote to
// end the game landing right after the bot loaded the game.
type voteElsewhere struct {
	Store
	voter string
	once  sync.Once
}

func (v *voteElsewhere) Load(ctx context.Context, channel string) (*storage.Game, engine.State, error) {
	g, st, err := v.Store.Load(ctx, channel)
	v.once.Do(func() {
		if _, err := v.Store.Update(ctx, channel, g.ID, func(r *storage.Game) error {
			r.EndVotes = append(r.EndVotes, v.voter)
			return nil
		}); err != nil {
			panic(err)
		}
	})
	return g, st, err
}

func TestAVoteTakenElsewhereMeanwhileCounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob, carol)
	id := h.game(chTiny).ID
	h.wrap = func(s Store) Store { return &voteElsewhere{Store: s, voter: bob.ID} }
	h.restart()
	// bob's vote lands in another process while alice's is counted: with
	// hers it makes 2 of 3, so hers ends the game
	res := h.command(alice, chTiny, cmdGame, subEnd, nil)
	if !h.says(res.text(), "vote.ended") {
		t.Fatalf("alice's vote after bob's elsewhere: %s", res.text())
	}
	g, _ := h.store.GetByID(context.Background(), id)
	if !g.EndedByVote || !slices.Contains(g.EndVotes, bob.ID) || !slices.Contains(g.EndVotes, alice.ID) {
		t.Fatalf("the votes stored: %v (ended by vote: %v)", g.EndVotes, g.EndedByVote)
	}
}
