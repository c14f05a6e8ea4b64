package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testDeliveries: a store remembers the interactions delivered, through a
// restart, takes each id once however many ask at once, and forgets the
// ids delivered before a prune.
func testDeliveries(t *testing.T, opener Opener) {
	s, err := opener()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now() // the store's own clock prunes deliveries older than storage.KeyHorizon
	deliver := func(s Store, id string) bool {
		t.Helper()
		first, err := s.FirstDelivery(context.Background(), id, at)
		if err != nil {
			t.Fatalf("FirstDelivery(%s): %v", id, err)
		}
		return first
	}
	if !deliver(s, "1001") || deliver(s, "1001") || !deliver(s, "1002") {
		t.Fatal("a first delivery, a second one and another id are not told apart")
	}
	if _, err := s.FirstDelivery(context.Background(), "", at); err == nil {
		t.Error("an empty interaction id was taken")
	}
	DeliveredOnce(t, []Store{s}, 8, 20)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, opener)
	if deliver(s, "1001") {
		t.Fatal("after a restart, an interaction delivered before is taken again")
	}
	if _, err := s.PruneKeys(context.Background(), at); err != nil {
		t.Fatal(err)
	}
	if deliver(s, "1002") {
		t.Fatal("a prune of older ids forgot one delivered at its bound")
	}
	if _, err := s.PruneKeys(context.Background(), at.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if !deliver(s, "1002") {
		t.Fatal("an id delivered before the prune's bound is still remembered")
	}
}

// DeliveredOnce delivers ids interactions to each of stores (several
// processes on one database, or one) from callers goroutines each, all at
// once, and checks that each id was taken as a first delivery exactly
// once.
func DeliveredOnce(t *testing.T, stores []Store, callers, ids int) {
	t.Helper()
	firsts := make([]atomic.Int32, ids)
	at := time.Now()
	var wg sync.WaitGroup
	for _, s := range stores {
		for range callers {
			wg.Go(func() {
				for i := range ids {
					first, err := s.FirstDelivery(context.Background(), fmt.Sprintf("9%05d", i), at)
					if err != nil {
						t.Error(err)
						return
					}
					if first {
						firsts[i].Add(1)
					}
				}
			})
		}
	}
	wg.Wait()
	for i := range firsts {
		if n := firsts[i].Load(); n != 1 {
			t.Errorf("interaction %d was taken as a first delivery %d times by %d stores of %d callers each", i, n, len(stores), callers)
		}
	}
}
