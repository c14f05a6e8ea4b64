package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/meeplegames/meeple/bot/interactions"
)

// A signed /lobby add-computer delivered again to a process that
// restarted (or to another process on the same store: its endpoint is as
// new to it) is refused as a replay, because the store remembers the ids
// delivered: the lobby lists one computer, not two.
func TestAReplayIsRefusedAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, tinyRegistry(), Config{NoGateway: true}, nil, nil)
	var replays atomic.Int32
	process := func() *endpointRun {
		return serveOverEndpointWith(t, h, func(o *interactions.Options) {
			o.FirstDelivery = func(ctx context.Context, id string, at time.Time) (bool, error) {
				return h.store.FirstDelivery(ctx, id, at)
			}
			o.Count = func(result string) {
				if result == "replayed" {
					replays.Add(1)
				}
			}
		})
	}
	process()
	h.command(alice, chTiny, cmdLobby, subNew, map[string]any{optGame: "tiny"})
	add := map[string]any{"type": 2, "guild_id": h.guildID(), "channel_id": chTiny, "member": alice.member(),
		"data": map[string]any{"id": "1", "name": cmdLobby, "type": 1, "options": []map[string]any{{"name": subAddAI, "type": 1}}}}
	h.send(add) // /lobby add-computer; gives it an id and a token
	computers := func() int {
		n := 0
		for _, s := range h.game(chTiny).Seats {
			if s.Computer != "" {
				n++
			}
		}
		return n
	}
	if n := computers(); n != 1 {
		t.Fatalf("%d computers after adding one", n)
	}
	h.restart()
	web := process()
	h.clock.Advance(2 * time.Second)
	// the same request signed anew, as one who recorded it can
	body, err := json.Marshal(add)
	if err != nil {
		t.Fatal(err)
	}
	stamp := strconv.FormatInt(h.clock.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, web.srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(appKey, append([]byte(stamp), body...))))
	resp, err := web.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h.bot.Wait()
	if n := computers(); resp.StatusCode != http.StatusUnauthorized || n != 1 || replays.Load() != 1 {
		t.Fatalf("after the replay: answered %d, %d computers, %d refused as replays; want 401, 1 and 1", resp.StatusCode, n, replays.Load())
	}
}
