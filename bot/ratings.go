package bot

import (
	"cmp"
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strings"
	"sync"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/rating"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// leaderboardSize is how many players /game leaderboard lists.
const leaderboardSize = 10

// archiveStore pages through every finished game, and counts the games
// so that the ratings can tell when the archive grew.
type archiveStore interface {
	Archive(ctx context.Context, after uint64, limit int) ([]*storage.Game, error)
	Counts(ctx context.Context) (active, total int, err error)
}

// leaderboardRenderer draws leaderboard images; *imaging.Renderer does.
type leaderboardRenderer interface {
	Leaderboard(title string, rows []imaging.Standing, w *wording.Words) ([]byte, error)
}

// boardsOf returns the renderer's leaderboard drawing when images are on
// and it can draw them, else nil.
func boardsOf(render Renderer, imagesOn bool) leaderboardRenderer {
	if lr, ok := render.(leaderboardRenderer); ok && imagesOn {
		return lr
	}
	return nil
}

// ratingBook computes ratings from the stored results, so that what it
// shows is always what the archive says: a restart, an import or a
// migration gives the same numbers. It keeps the last ladder it computed
// and computes again only when the archive holds another number of games.
// Game ids are given when a game is created, not when it finishes, so the
// highest archived id would miss an older game finishing late; the count
// of archived games grows with every game that ends, in this process or in
// another one sharing the database. A ratingBook is safe for concurrent
// use; the ladders it returns are never changed afterwards.
type ratingBook struct {
	archive archiveStore
	model   rating.Model

	mu       sync.Mutex
	archived int    // games in the archive when cached was computed
	cached   *rated // nil until the first call
}

// rated is a ladder and the latest display name of every player in it.
type rated struct {
	ladder *rating.Ladder
	names  map[string]string
}

// ladder returns the ratings of every finished game, replayed in the
// order the games finished, from the cache when no game ended since.
func (rb *ratingBook) ladder(ctx context.Context) (*rating.Ladder, map[string]string, error) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	active, total, err := rb.archive.Counts(ctx)
	if err != nil {
		return nil, nil, err
	}
	if rb.cached == nil || total-active != rb.archived {
		// counted before reading: a game ending meanwhile is read now and
		// read again on the next call
		l, names, err := rb.replay(ctx)
		if err != nil {
			return nil, nil, err
		}
		rb.cached, rb.archived = &rated{l, names}, total-active
	}
	return rb.cached.ladder, rb.cached.names, nil
}

// archivePage is how many games one read of the archive returns.
const archivePage = 500

// replay rates every finished game, in the order they finished, and
// returns the ladder with the latest display name of every player.
func (rb *ratingBook) replay(ctx context.Context) (*rating.Ladder, map[string]string, error) {
	var games []*storage.Game
	for after := uint64(0); ; {
		page, err := rb.archive.Archive(ctx, after, archivePage)
		if err != nil {
			return nil, nil, err
		}
		if len(page) == 0 {
			break
		}
		games = append(games, page...)
		after = page[len(page)-1].ID
	}
	slices.SortStableFunc(games, func(a, b *storage.Game) int {
		return cmp.Or(a.Finished.Compare(b.Finished), cmp.Compare(a.ID, b.ID))
	})
	l := rating.NewLadder(rb.model)
	names := map[string]string{}
	for _, g := range games {
		res, ok := ratedResult(g)
		if !ok {
			continue
		}
		l.Apply(res)
		for _, s := range g.Seats {
			if s.User != "" && s.Name != "" {
				names[s.User] = s.Name
			}
		}
	}
	return l, names, nil
}

// ratedResult reads a finished game as the ladder needs it: each seat's
// place (winners first; then by score, equal scores tying) and everyone
// who held it, from its handovers. Abandoned games and games that allowed
// hints are not rated.
func ratedResult(g *storage.Game) (rating.Result, bool) {
	if g.Status != storage.StatusFinished || g.Result == nil || len(g.Result.Scores) != len(g.Seats) || g.Hints {
		return rating.Result{}, false
	}
	res := rating.Result{Kind: g.Kind, Guild: g.Guild, ByVote: g.EndedByVote, Seats: make([]rating.Seat, len(g.Seats))}
	won := func(s int) bool { return slices.Contains(g.Result.Winners, engine.Seat(s)) }
	for s := range g.Seats {
		place := 1
		if !won(s) {
			for o := range g.Seats {
				if won(o) || g.Result.Scores[o] > g.Result.Scores[s] {
					place++
				}
			}
		}
		res.Seats[s].Place = place
	}
	// Each seat's holders: its first holder, then whoever each handover
	// gave it to; all but the last left it.
	first := firstHolders(g)
	for s := range g.Seats {
		res.Seats[s].Holders = []rating.Holder{{Player: first[s].User}}
	}
	for _, h := range g.Handovers {
		holders := res.Seats[h.Seat].Holders
		holders[len(holders)-1].Left = true
		res.Seats[h.Seat].Holders = append(holders, rating.Holder{Player: h.To.User})
	}
	return res, true
}

// summary describes a player on a server (every server when guild is
// "") in a few lines: their skill,
// games and wins over every game and per kind of game, their favourite
// game, and their skill over every server.
// The lines are in p's language.
func (rb *ratingBook) summary(ctx context.Context, p *locale.Printer, games *engine.Registry, guild, user string) (string, error) {
	l, _, err := rb.ladder(ctx)
	if err != nil {
		return "", err
	}
	all, ok := l.Record(rating.Scope{Guild: guild}, user)
	if !ok && guild == "" {
		return p.T("stats.none_anywhere") + "\n", nil
	}
	if !ok {
		text := p.T("stats.none_here") + "\n"
		if r, ok := l.Record(rating.Scope{}, user); ok {
			text += p.T("stats.every_server", "Record", recordText(p, r)) + "\n"
		}
		return text, nil
	}
	var sb strings.Builder
	sb.WriteString(p.T("stats.all_games", "Record", recordText(p, all)))
	if fav, ok := l.Favourite(guild, user); ok {
		sb.WriteString(p.T("stats.favourite", "Game", kindTitle(p, games, fav)))
	}
	sb.WriteString("\n")
	for _, kind := range games.Names() {
		if r, ok := l.Record(rating.Scope{Guild: guild, Kind: kind}, user); ok {
			fmt.Fprintf(&sb, "**%s:** %s\n", kindTitle(p, games, kind), recordText(p, r))
		}
	}
	if r, ok := l.Record(rating.Scope{}, user); ok && r.Games != all.Games {
		sb.WriteString(p.T("stats.every_server", "Record", recordText(p, r)) + "\n")
	}
	return sb.String(), nil
}

// recordText is a record in a line: skill, games and wins.
func recordText(p *locale.Printer, r rating.Record) string {
	return p.T("stats.record", "Skill", skillText(p, r), "Count", r.Games, "Wins", r.Wins)
}

// skillText shows a record's conservative skill, or says it has none yet.
func skillText(p *locale.Printer, r rating.Record) string {
	if r.Rated == 0 {
		return p.T("stats.unrated")
	}
	return fmt.Sprintf("%s (μ %s, σ %s)", p.Decimal(r.Rating.Ordinal(), 1), p.Decimal(r.Rating.Mu, 1), p.Decimal(r.Rating.Sigma, 1))
}

// leaderboardHandler answers /game leaderboard: a server's best players of
// a game (or of every game), as text and, with images on, as a picture.
type leaderboardHandler struct {
	book   *ratingBook
	games  *engine.Registry
	render leaderboardRenderer // nil: text only
}

func (rh *leaderboardHandler) register(rt *router) error {
	return rt.subcommand(cmdGame, subBoardTop, rh.leaderboard)
}

func (rh *leaderboardHandler) leaderboard(ctx context.Context, r *transport.Reply, in *interaction) error {
	kind, p := in.opts.str(optGame), in.publicTr(ctx)
	name := p.T("ratings.all_games")
	if kind != "" {
		rules, err := rh.games.Lookup(kind)
		if err != nil {
			return refuseWith("refuse.unknown_game", "Name", transport.Clip(kind, 40))
		}
		name = gameTitle(p, rules)
	}
	if rh.render != nil {
		r.DeferMessage(false) // replaying the archive and drawing take a moment
	}
	l, names, err := rh.book.ladder(ctx)
	if err != nil {
		return err
	}
	top := l.Top(rating.Scope{Guild: in.GuildID, Kind: kind}, leaderboardSize)
	var sb strings.Builder
	sb.WriteString(p.T("ratings.title", "Game", name) + "\n")
	if len(top) == 0 {
		sb.WriteString(p.T("ratings.none") + "\n")
	}
	rows := make([]imaging.Standing, 0, len(top))
	for i, s := range top {
		sb.WriteString(p.T("ratings.row", "Place", i+1, "Player", s.Player, "Skill", p.Decimal(s.Rating.Ordinal(), 1), "Count", s.Games, "Wins", s.Wins) + "\n")
		n := names[s.Player]
		if n == "" {
			n = s.Player
		}
		rows = append(rows, imaging.Standing{Name: n, Skill: s.Rating.Ordinal(), Games: s.Games, Wins: s.Wins})
	}
	m := transport.Message{Content: sb.String(), Mentions: []string{}}
	if rh.render != nil {
		title := p.T("ratings.image_title", "Game", name)
		if img, err := rh.render.Leaderboard(title, rows, wording.New(p, nil, nil)); err == nil {
			m.Image, m.Alt = img, leaderboardAlt(p, title, rows)
		}
	}
	return r.Message(m)
}
