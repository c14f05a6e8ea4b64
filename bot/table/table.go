// Package table applies a player's or a computer's action to a stored
// game: under the game's lock (Locks) the Referee loads the game, checks
// that the action still fits it (the game, the revision it was offered at,
// the seat), applies it, lets the computer players answer what falls to
// them, finishes a game that ends and arms the next deadline, and stores
// all of it in one commit, retried while the store's answer is unknown.
// Its Outcome tells the bot what changed; its refusals (Refusal,
// RuleRefusal) name the message a player reads. The Thinker lets the
// searching computer players decide outside every lock.
//
// The table never talks to Discord: it imports neither discordgo nor
// bot/transport (cmd/meeple's TestImportsPointOneWay holds it to that),
// and knows nothing of words; the bot publishes its outcomes. Everything
// here is safe for concurrent use.
package table

import (
	"context"
	"fmt"
	"runtime"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/storage"
)

// Store is what the table needs of the games in storage.
type Store interface {
	Get(ctx context.Context, channel string) (*storage.Game, error)
	GetByID(ctx context.Context, id uint64) (*storage.Game, error)
	Load(ctx context.Context, channel string) (*storage.Game, engine.State, error)
	// Commit stores an interaction's whole outcome (a start, actions,
	// deadline, ending) in one transaction on the game and revision at,
	// or nothing.
	Commit(ctx context.Context, channel string, at storage.Guard, o storage.Outcome) (*storage.Game, error)
	Undo(ctx context.Context, channel string, at storage.Guard, n int) (*storage.Game, engine.State, error)
}

// DescribePanic describes a recovered value by its type and, for errors
// and runtime errors, their message; other values may hold secrets and
// are not printed.
func DescribePanic(p any) string {
	switch v := p.(type) {
	case runtime.Error:
		return v.Error()
	case error:
		return fmt.Sprintf("%T", v)
	}
	return fmt.Sprintf("%T", p)
}
