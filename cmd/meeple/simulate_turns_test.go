package main

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

func simulateJSON(t *testing.T, args ...string) simulateSummary {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(t.Context(), append([]string{"simulate"}, args...), os.Getenv, &out, &errs); code != 0 {
		t.Fatalf("simulate %v: exit %d: %s", args, code, errs.String())
	}
	var sum simulateSummary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

func TestSimulateCountsEightyDaysGamesEndingWithinATurnLimit(t *testing.T) {
	t.Parallel()
	random := simulateJSON(t, "-game", "eightydays", "-players", "4", "-games", "40", "-ai", "random", "-max-turns", "1000")
	if random.Finished+random.Stalled != 40 || random.MaxTurns != 1000 {
		t.Fatalf("summary %+v", random)
	}
	if random.Finished == 0 || random.Stalled == 0 {
		t.Fatalf("random travellers: %d finished, %d stalled; want some of each", random.Finished, random.Stalled)
	}
	if random.MeanTurns <= 0 || random.MeanTurns > 1000 {
		t.Fatalf("mean_turns %v of games that ended within 1000 turns", random.MeanTurns)
	}
	heuristic := simulateJSON(t, "-game", "eightydays", "-players", "4", "-games", "40", "-ai", "heuristic", "-max-turns", "1000")
	if heuristic.Stalled != 0 || heuristic.Finished != 40 || heuristic.MeanTurns < 20 || heuristic.MeanTurns > 400 {
		t.Fatalf("heuristic summary %+v", heuristic)
	}
	// without a turn limit the step limit still applies
	capped := simulateJSON(t, "-game", "eightydays", "-players", "2", "-games", "5", "-ai", "random", "-max-steps", "10")
	if capped.Stalled != 5 || capped.MaxSteps != 10 {
		t.Fatalf("10-step games: %+v", capped)
	}
}
