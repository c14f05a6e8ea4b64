package bot

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/bot/discordtest"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
	"github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/present"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// realRegistry holds both real games with their embedded content.
func realRegistry(t testing.TB) *engine.Registry {
	t.Helper()
	cpc, err := crystalpalace.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	edc, err := eightydays.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return engine.NewRegistry(crystalpalace.NewRules(cpc), eightydays.NewRules(edc))
}

// plainText is the presenter meeple run uses.
func plainText(view any, words *wording.Words) (string, error) {
	return present.View(view, words, present.Style{})
}

func realRenderer(t testing.TB) *imaging.Renderer {
	t.Helper()
	r, err := imaging.New()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// seatUser maps a game's seats to the simulated users.
func seatUser(t *testing.T, g *storage.Game, users []tester) map[engine.Seat]tester {
	t.Helper()
	out := map[engine.Seat]tester{}
	for n, s := range g.Seats {
		for _, u := range users {
			if u.ID == s.User {
				out[engine.Seat(n)] = u
			}
		}
	}
	return out
}

// playWholeGame drives a game from its lobby to its final scores through
// Discord interactions only: each simulated user decides with the game's
// computer player, then acts by a board button or menu when there is one,
// else by /play; secret choices go in turn by DM text, the private form
// and /play. It checks that no secret choice shows in public before the
// rules reveal it. It reads the bot's answers in the harness's language.
func playWholeGame(t *testing.T, h *harness, ch, kind string, users []tester) {
	t.Helper()
	rules, _ := h.reg.Lookup(kind)
	title := h.say("game." + kind + ".title")
	res := h.command(users[0], ch, cmdLobby, subNew, map[string]any{optGame: kind})
	if !strings.Contains(res.text(), h.say("lobby.title", "Game", title)) {
		t.Fatalf("lobby: %s", res.text())
	}
	for _, u := range users[1:] {
		if res := h.command(u, ch, cmdLobby, subJoin, nil); !strings.Contains(res.text(), h.say("lobby.joined", "Name", u.Name)) {
			t.Fatalf("join: %s", res.text())
		}
	}
	for _, u := range users {
		h.command(u, ch, cmdGame, subPrefs, map[string]any{optSecrets: storage.SecretsDM})
	}
	started, _, _ := strings.Cut(h.say("lobby.started", "Game", title, "Seats", "\x00"), "\x00")
	if res := h.command(users[1], ch, cmdLobby, subStart, nil); !strings.Contains(res.text(), started) {
		t.Fatalf("start: %s", res.text())
	}
	g := h.game(ch)
	// what the bot says after a move, up to the move itself
	played, _, _ := strings.Cut(h.say("play.played", "ID", g.ID, "Action", "\x00"), "`")
	player, err := ai.Lookup(rules, "heuristic")
	if err != nil {
		t.Fatal(err)
	}
	who := seatUser(t, g, users)
	rng := engine.NewRNG(7)
	secretWay, steps, buttons, menus, trees, secrets := 0, 0, 0, 0, 0, 0
	var secretActions []string
	for ; steps < 5000; steps++ {
		g, st, err := h.store.Load(context.Background(), ch)
		if err != nil {
			break // archived: the game is over
		}
		prompts := st.Prompts()
		if len(prompts) == 0 {
			t.Fatalf("running game with no prompt at %q", st.Phase().Key())
		}
		p := prompts[0]
		u := who[p.Seat]
		action := player.Choose(st, p, &rng)
		if debugSteps && steps < 400 {
			t.Logf("step %d v%d P%d %s %q secret=%v", steps, g.Version, p.Seat+1, st.Phase().Key(), action, p.Secret)
		}
		if h.step != nil {
			h.step(st, p, action)
		}
		mark := h.mark()
		switch {
		case p.Secret && slices.Contains(p.Actions, action): // not a free action taken meanwhile
			secrets++
			secretActions = append(secretActions, action)
			last := len(prompts) == 1
			way := secretWay % 5
			if way == 0 && h.web != nil && h.run == nil {
				way = 1 // no gateway, so no DM typed as text: the form instead
			}
			switch way {
			case 4: // the board's picker for secret choices, privately
				board := h.board(ch)
				pickFromTree(t, h, u, ch, board.ID, mustComponent(t, board, h.say("play.tree_button")), st, p.Seat, true, action)
				trees++
			case 3: // the select menus of the DM prompt, narrowing down
				pickFromDM(t, h, u, g.ID, action)
			case 0: // DM, as free text without the verb
				_, values, _ := strings.Cut(action, " ")
				if dms := h.dm(u, values); len(dms) != 1 || !strings.Contains(dms[0].Text(), played) {
					t.Fatalf("DM %q: %+v", values, dms)
				}
			case 1: // the board's button, then the form
				board := h.board(ch)
				res := h.click(u, ch, board.ID, mustComponent(t, board, h.say("board.secret_button")))
				res = h.submit(u, ch, res.Requests[0].CustomID, action)
				if !res.privately(played) {
					t.Fatalf("form: %s", res.text())
				}
			default:
				// the answer is private; a new board may follow it publicly
				if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: action}); !res.privately(played) {
					t.Fatalf("/play %q: %s", action, res.text())
				}
			}
			if secretWay == 0 {
				// the player sees their own dice; a spectator does not
				me := h.command(u, ch, cmdGame, subMe, nil)
				_, values, _ := strings.Cut(action, " ")
				// present's words, in the reader's language
				submitted := h.say("cp.view.dice_submitted", "Dice", values)
				if !me.private() || !strings.Contains(me.text(), submitted) {
					t.Errorf("/game me after submitting %q: %s", action, me.text())
				}
				if spec := h.command(eve, ch, cmdGame, subMe, nil); strings.Contains(spec.text(), submitted) || !strings.Contains(spec.text(), h.say("me.watching")) {
					t.Errorf("a spectator's /game me shows a secret: %s", spec.text())
				}
			}
			secretWay++
			if pub := h.publicSince(mark); !last && strings.Contains(pub, action) {
				t.Fatalf("secret %q of P%d shown in public before the reveal:\n%s", action, p.Seat+1, pub)
			}
		default:
			board := h.board(ch)
			if id, ok := componentOn(t, board, action); ok && strings.HasPrefix(id, "m2:") && strings.Contains(id, ":act:") {
				buttons++
				h.click(u, ch, board.ID, id)
			} else if id, ok := componentOn(t, board, u.Name+": "); ok && p.Seat == promptSeatOf(t, id) && !strings.Contains(id, ":tree:") {
				menus++
				h.click(u, ch, board.ID, id, action)
			} else if id, ok := componentOn(t, board, h.say("play.tree_choose", "Name", u.Name)); ok && slices.Contains(treeActions(st, p.Seat, false), action) {
				trees++
				pickFromTree(t, h, u, ch, board.ID, id, st, p.Seat, false, action)
			} else if res := h.command(u, ch, cmdPlay, "", map[string]any{optAction: action}); !strings.Contains(res.text(), played) {
				t.Fatalf("/play %q: %s", action, res.text())
			}
		}
		if g2, err := h.store.Get(context.Background(), ch); err == nil && g2.Version == g.Version {
			t.Fatalf("step %d: P%d's %q was not applied (phase %q)", steps, p.Seat+1, action, st.Phase().Key())
		}
	}
	h.bot.Wait()
	if _, err := h.store.Get(context.Background(), ch); err == nil {
		t.Fatalf("game not over after %d steps", steps)
	}
	final := ""
	for _, q := range h.fake.Requests() {
		if (q.Kind == discordtest.ChannelSend || q.Kind == discordtest.Followup && !q.Ephemeral()) && q.Channel == ch && strings.Contains(q.Text(), h.say("board.final", "Game", title)) {
			final = q.Text()
		}
	}
	if !strings.Contains(final, "🏆") {
		t.Fatalf("no final scores posted")
	}
	// no secret choice in any custom_id or log line, ever
	for _, q := range h.fake.Requests() {
		for _, id := range q.CustomIDs() {
			for _, a := range secretActions {
				if strings.Contains(id, a) {
					t.Errorf("secret %q in custom_id %q", a, id)
				}
			}
		}
	}
	for _, a := range secretActions {
		if strings.Contains(h.log(), a) {
			t.Errorf("secret %q in the log", a)
		}
	}
	t.Logf("%s: %d steps (%d secret, %d by button, %d by menu, %d by the picker)", kind, steps, secrets, buttons, menus, trees)
	if kind == "crystalpalace" && trees == 0 {
		t.Error("no action went through the picker")
	}
}

// pickFromDM makes action with the select menus of u's latest DM prompt
// for game id, one pick at a time.
func pickFromDM(t *testing.T, h *harness, u tester, game uint64, action string) {
	t.Helper()
	h.bot.Wait()
	g, err := h.store.GetByID(context.Background(), game)
	if err != nil {
		t.Fatal(err)
	}
	msgID := ""
	for _, q := range h.fake.Requests() {
		if q.Kind == discordtest.DirectMessage && q.User == u.ID && strings.Contains(q.Text(), "<#"+g.Channel+">") && len(q.CustomIDs()) == 1 {
			msgID = q.Message
		}
	}
	if msgID == "" {
		t.Fatalf("no DM prompt with a menu for %s", u.Name)
	}
	for picks := 0; picks < 10; picks++ {
		m, _ := h.fake.Message(msgID)
		var menu *discordgo.SelectMenu
		for _, row := range m.Components {
			if ar, ok := row.(*discordgo.ActionsRow); ok && len(ar.Components) == 1 {
				menu, _ = ar.Components[0].(*discordgo.SelectMenu)
			}
		}
		if menu == nil {
			t.Fatalf("DM prompt without a menu: %s", discordtest.MessageText(m))
		}
		value := ""
		for _, o := range menu.Options {
			if o.Value == action || strings.HasPrefix(action, o.Value+" ") {
				value = o.Value
			}
		}
		if value == "" {
			t.Fatalf("no option leads to %q: %+v", action, menu.Options)
		}
		res := h.click(u, "", msgID, menu.CustomID, value)
		if strings.Contains(res.text(), h.say("play.played", "ID", game, "Action", action)) {
			return
		}
	}
	t.Fatalf("could not pick %q from the DM menus", action)
}

// promptSeatOf reads the seat a board select menu is for.
func promptSeatOf(t *testing.T, id string) engine.Seat {
	c, err := parseCustomID(id)
	if err != nil {
		t.Fatal(err)
	}
	var seat int
	fmt.Sscan(c.Arg, &seat)
	return engine.Seat(seat)
}

func TestCrystalPalaceOverDiscord(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a whole game")
	}
	h := newHarness(t, realRegistry(t), Config{Images: true}, realRenderer(t), plainText)
	playWholeGame(t, h, "8001", "crystalpalace", []tester{alice, bob, carol, dave})
	checkImages(t, h)
	checkRESTBudget(t, h, "crystalpalace")
}

func TestEightyDaysOverDiscord(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a whole game")
	}
	h := newHarness(t, realRegistry(t), Config{}, nil, plainText)
	playWholeGame(t, h, "8002", "eightydays", []tester{alice, bob, carol, dave})
	checkRESTBudget(t, h, "eightydays")
}

// checkImages decodes every PNG the bot uploaded.
func checkImages(t *testing.T, h *harness) {
	t.Helper()
	n := 0
	for _, q := range h.fake.Requests() {
		for _, f := range q.Files {
			if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil || f.ContentType != "image/png" {
				t.Errorf("upload %s is not a PNG: %v", f.Name, err)
			}
			n++
		}
	}
	if n < 2 {
		t.Errorf("only %d images uploaded", n)
	}
}

const debugSteps = false

// BenchmarkBoardImage answers /game board, which renders the Crystal
// Palace board as a PNG and uploads it, in 100 concurrent 4-player games at
// 100 interactions per second.
func BenchmarkBoardImage(b *testing.B) {
	for _, rate := range []int{benchRate, 25} {
		b.Run(fmt.Sprintf("%d-per-s", rate), func(b *testing.B) {
			benchmarkBoard(b, realRegistry(b), realRenderer(b), "crystalpalace", 4, rate)
		})
	}
}

// BenchmarkBoardText is BenchmarkBoardImage with images off.
func BenchmarkBoardText(b *testing.B) {
	benchmarkBoard(b, realRegistry(b), nil, "crystalpalace", 4, benchRate)
}

// BenchmarkPlay plays 100 concurrent 4-player Crystal Palace games with
// images on, 100 interactions per second: each interaction is the next
// decision of a game (secret dice included) sent with /play, so board
// images are rendered and posted after every phase, as in real play, while
// the answers go out. It reports the latency of the answers.
func BenchmarkPlay(b *testing.B) {
	reg := realRegistry(b)
	h := newHarness(b, reg, Config{Images: true}, realRenderer(b), nil)
	chans := benchTables(b, h, "crystalpalace", 4)
	rules, _ := reg.Lookup("crystalpalace")
	player, _ := ai.Lookup(rules, "heuristic")
	users := map[string]tester{alice.ID: alice, bob.ID: bob, carol.ID: carol, dave.ID: dave}
	rng := engine.NewRNG(1)
	lat := newLatencies()
	before, ids := map[string]int{}, map[string]uint64{}
	for _, ch := range chans {
		g := h.game(ch)
		before[ch], ids[ch] = g.Version, g.ID
	}
	began := time.Now()
	runPaced(b, h, lat, benchRate, func(n int) map[string]any {
		ch := chans[n%len(chans)]
		g, st, err := h.store.Load(context.Background(), ch)
		if err != nil || len(st.Prompts()) == 0 {
			return guildCommand(alice, ch, cmdGame, subScores, nil) // that game is over
		}
		p := st.Prompts()[0]
		action := player.Choose(st, p, &rng)
		return guildCommand(users[g.Seats[p.Seat].User], ch, cmdPlay, "", []map[string]any{{"name": optAction, "type": 3, "value": action}})
	})
	decisions := 0
	for _, ch := range chans {
		if g, err := h.store.GetByID(context.Background(), ids[ch]); err == nil {
			decisions += g.Version - before[ch]
		}
	}
	reportRESTCalls(b, h, began, decisions)
	checkBoards(b, h, chans)
}
