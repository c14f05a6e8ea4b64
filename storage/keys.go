package storage

import (
	"context"
	"time"
)

// KeyHorizon is how long a store keeps the key of an interaction it
// committed (Outcome.Key), so that a retry finds it: Discord's
// interaction tokens live 15 minutes and the bot retries a commit within
// seconds, so an hour keeps every retry that can happen, with room for
// the clocks of several processes to disagree by minutes. A store forgets
// older keys as it commits (see PruneEvery). A replay later still than
// that is refused all the same, by the guard: the revision it carries has
// moved on.
const KeyHorizon = time.Hour

// PruneEvery is how often a store forgets the keys older than KeyHorizon,
// as part of a commit.
const PruneEvery = 10 * time.Minute

// KeyPruner is what a store offers to forget interaction keys.
type KeyPruner interface {
	// PruneKeys forgets the keys of commits kept before keptBefore, the
	// interactions delivered before it (see Deliveries) and the pending
	// replies received before it (see PendingReplies), and returns
	// how many commit keys it forgot. A key kept at or after keptBefore
	// stays.
	PruneKeys(ctx context.Context, keptBefore time.Time) (int, error)
}

// Deliveries is what a store offers to remember the interactions
// delivered to the bot, so that one delivered again (a signed request
// replayed to the HTTP endpoint) is refused whichever process it reaches,
// before or after a restart: every process asks the same store. A store
// keeps each id for KeyHorizon, far longer than a request's signature is
// accepted, and forgets older ones as it prunes keys.
type Deliveries interface {
	// FirstDelivery records interaction id as delivered at at and
	// reports whether this is its first delivery: false when the store
	// holds it already. Of several callers with one id, at once or not,
	// one gets true. It is durable when it returns.
	FirstDelivery(ctx context.Context, id string, at time.Time) (bool, error)
}
