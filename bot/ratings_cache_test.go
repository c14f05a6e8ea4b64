package bot

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/meeplegames/meeple/rating"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/storage/boltdb"
)

// countedArchive counts the reads of the whole archive.
type countedArchive struct {
	*boltdb.Store
	reads atomic.Int32
}

func (c *countedArchive) Archive(ctx context.Context, after uint64, limit int) ([]*storage.Game, error) {
	if after == 0 {
		c.reads.Add(1)
	}
	return c.Store.Archive(ctx, after, limit)
}

// records lists every player's record in every scope of the test's games.
func records(l *rating.Ladder) map[rating.Scope]map[string]rating.Record {
	out := map[rating.Scope]map[string]rating.Record{}
	for _, scope := range []rating.Scope{{}, {Kind: "tiny"}, {Guild: testGuild}, {Guild: testGuild, Kind: "tiny"}} {
		out[scope] = map[string]rating.Record{}
		for _, u := range []tester{alice, bob, carol} {
			if r, ok := l.Record(scope, u.ID); ok {
				out[scope][u.ID] = r
			}
		}
	}
	return out
}

func TestRatingsAreCachedUntilAGameEnds(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	finishTiny(t, h, chTiny, map[tester]string{alice: "3", bob: "1"}, []tester{alice, bob}, map[tester]string{alice: "2", bob: "1"})

	archive := &countedArchive{Store: h.store}
	book := &ratingBook{archive: archive, model: rating.DefaultModel()}
	var wg sync.WaitGroup
	ladders := make([]*rating.Ladder, 8)
	for i := range ladders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, _, err := book.ladder(context.Background())
			if err != nil {
				t.Error(err)
			}
			ladders[i] = l
		}()
	}
	wg.Wait()
	for _, l := range ladders[1:] {
		if l != ladders[0] {
			t.Fatal("concurrent calls computed different ladders")
		}
	}
	if n := archive.reads.Load(); n != 1 {
		t.Fatalf("the archive was read %d times for one set of results", n)
	}
	before := records(ladders[0])

	// carol beats alice in a second game
	openTinyTable(t, h, "3002", alice, carol)
	finishTiny(t, h, "3002", map[tester]string{alice: "1", carol: "3"}, []tester{alice, carol}, map[tester]string{alice: "1", carol: "2"})
	after, _, err := book.ladder(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := archive.reads.Load(); n != 2 || after == ladders[0] {
		t.Fatalf("a new result: %d reads, ladder replaced %v", n, after != ladders[0])
	}
	got := records(after)
	if reflect.DeepEqual(got, before) || got[rating.Scope{}][alice.ID].Games != 2 || got[rating.Scope{}][carol.ID].Wins != 1 {
		t.Fatalf("the new result is not in the ladder: %+v", got[rating.Scope{}])
	}
	if again, _, _ := book.ladder(context.Background()); again != after || archive.reads.Load() != 2 {
		t.Fatal("the ladder was computed again without a new result")
	}

	h.restart() // a new process computes the same ladder from the stored results
	fresh := &ratingBook{archive: h.store, model: rating.DefaultModel()}
	l, _, err := fresh.ladder(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(records(l), got) {
		t.Fatalf("after a restart:\n%+v\nnot\n%+v", records(l), got)
	}
}

func TestStatsOnAnotherServerShowTheOverallRecord(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{}, nil, nil)
	openTinyTable(t, h, chTiny, alice, bob)
	finishTiny(t, h, chTiny, map[tester]string{alice: "3", bob: "1"}, []tester{alice, bob}, map[tester]string{alice: "2", bob: "1"})
	h.guild = "7001"
	res := h.command(alice, "3005", cmdGame, subStats, nil).text()
	if !strings.Contains(res, h.say("stats.none_here")) || !h.says(res, "stats.every_server") || !h.says(res, "stats.record", "Count", 1, "Wins", 1) {
		t.Fatalf("alice's stats on another server:\n%s", res)
	}
}
