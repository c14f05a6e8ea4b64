package storage

import (
	"context"
	"fmt"
	"time"
)

// RecPending is the record kind of a pending reply.
const RecPending = "pending reply"

// PendingLife is how long Discord accepts an interaction's token: a
// pending reply older than that can no longer be filled in, and is
// forgotten without a call.
const PendingLife = 15 * time.Minute

// Pending is an interaction the bot acknowledged with a deferred message
// (Discord's "thinking…") and has not answered yet. The bot keeps one
// before it defers and forgets it once the answer went out, so that a
// process that died in between leaves it behind, and the next one can
// still tell the player, through the token, whether their move was
// recorded. Token is a secret (whoever holds it may edit the message for
// PendingLife): it never appears in an error or a log line.
type Pending struct {
	ID       string    `json:"id"` // the interaction's id: the key its commit carries (Outcome.Key)
	App      string    `json:"app"`
	Token    string    `json:"token"`
	Received time.Time `json:"received"`
	Guild    string    `json:"guild,omitempty"`
	Channel  string    `json:"channel,omitempty"`
	Game     uint64    `json:"game,omitempty"` // 0 when the channel held no game
	Locale   string    `json:"locale,omitempty"`
	// Owner names the process that deferred it (a value of its own per
	// run), so that a process never takes the replies it is still
	// answering.
	Owner string `json:"owner,omitempty"`
}

// PendingReplies is what a store offers to keep the pending replies
// (see Pending), shared by every process on the store, across restarts.
type PendingReplies interface {
	// KeepPending keeps p (replacing one of the same ID); it is durable
	// when it returns.
	KeepPending(ctx context.Context, p Pending) error
	// DropPending forgets the pending reply of interaction id, if any.
	DropPending(ctx context.Context, id string) error
	// TakePending forgets, in one transaction, the pending replies take
	// accepts and returns them: of several processes taking at once,
	// each reply goes to one. A damaged record is an ErrCorrupt error.
	TakePending(ctx context.Context, take func(p Pending) bool) ([]Pending, error)
	// Committed reports whether a commit with key (Outcome.Key) was kept
	// within KeyHorizon.
	Committed(ctx context.Context, key string) (bool, error)
}

// CheckPending refuses a pending reply a store cannot keep.
func CheckPending(p Pending) error {
	if err := checkID("interaction", p.ID); err != nil {
		return fmt.Errorf("pending reply: %w", err)
	}
	if err := checkID("application", p.App); err != nil {
		return fmt.Errorf("pending reply %s: %w", p.ID, err)
	}
	if p.Token == "" || len(p.Token) > 1024 || p.Received.IsZero() {
		return fmt.Errorf("%w: pending reply %s: no token, a token too long, or no time received", ErrInvalid, p.ID)
	}
	return nil
}

// EncodePending encodes p's record, with its schema and checksum.
func EncodePending(p Pending) ([]byte, error) { return NewCodec().SealJSON(RecPending, p) }

// DecodePending decodes a record EncodePending made, stored under key (the
// interaction's id): a record that fails its checksum, or names another
// interaction, is ErrCorrupt.
func DecodePending(key string, data []byte) (Pending, error) {
	var p Pending
	if err := NewCodec().OpenJSON(RecPending, key, data, &p); err != nil {
		return p, err
	}
	if p.ID != key || CheckPending(p) != nil {
		return p, fmt.Errorf("%s record %.40s: it names another interaction, or lacks its application, token or time: %w", RecPending, key, ErrCorrupt)
	}
	return p, nil
}
