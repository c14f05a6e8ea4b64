package boltdb_test

import "github.com/meeplegames/meeple/storage/storetest"

// race is the contract suite's tiny dice game.
type race = storetest.Race
