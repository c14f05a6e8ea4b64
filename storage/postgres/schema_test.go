package postgres

import (
	"testing"

	"github.com/meeplegames/meeple/storage"
)

// A new game record schema in storage needs a step in migrations() (and
// gameSchema updated), so that older builds refuse the database.
func TestGameRecordSchemaHasAStep(t *testing.T) {
	if got := storage.GameSchema(); got != gameSchema {
		t.Fatalf("storage writes game records of schema %d, the PostgreSQL schema was written for %d: "+
			"add a step to migrations() (a comment is enough) and set gameSchema", got, gameSchema)
	}
}
