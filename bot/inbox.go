package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// inboxStore is what /inbox reads: one user's seat index, then the few
// games a page shows in full.
type inboxStore interface {
	Seatings(ctx context.Context, user string) ([]storage.Seating, error)
	GetByID(ctx context.Context, id uint64) (*storage.Game, error)
}

// inboxHandler answers /inbox: privately, every game across channels and
// servers that waits on the caller, the oldest wait first, each with what
// it waits for, its deadline, a link to its board and what happened since
// the caller last acted there; and on further pages the caller's other
// games. It reads the seat index once (storage.Seating), and the games in
// full only for the entries one page shows.
type inboxHandler struct {
	store inboxStore
	games *engine.Registry
}

// How much one page of /inbox shows: waiting games in full (an embed
// each, within Discord's 10 embeds and 6,000 characters), other games a
// line each; and under each waiting game the last few public events
// since the caller's last action.
const (
	inboxWaitingPage = 5
	inboxOthersPage  = 15
	inboxSinceLines  = 3
	inboxLineChars   = 160
)

func (ih *inboxHandler) register(rt *router) error {
	return errors.Join(
		rt.commandAnywhere(cmdInbox, ih.inbox, nil),
		rt.component(verbInbox, onButton, anywhere, ih.page),
	)
}

func (ih *inboxHandler) inbox(ctx context.Context, r *transport.Reply, in *interaction) error {
	r.DeferMessage(true) // the page's games are read and replayed
	m, err := ih.render(ctx, in.tr, in.user.ID, inboxPage{})
	if err != nil {
		return err
	}
	return r.Message(m)
}

// page answers the inbox's buttons: another page, drawn afresh.
func (ih *inboxHandler) page(ctx context.Context, r *transport.Reply, in *interaction) error {
	p, ok := parseInboxPage(in.id.Arg)
	if !ok {
		return errUnknownComp
	}
	m, err := ih.render(ctx, in.tr, in.user.ID, p)
	if err != nil {
		return err
	}
	return r.Update(m)
}

// inboxPage is which page of the inbox to show: of the waiting games or
// of the others, counted from 0.
type inboxPage struct {
	others bool
	n      int
}

func (p inboxPage) arg() string {
	if p.others {
		return "o" + strconv.Itoa(p.n)
	}
	return "w" + strconv.Itoa(p.n)
}

func parseInboxPage(arg string) (inboxPage, bool) {
	if len(arg) < 2 || (arg[0] != 'w' && arg[0] != 'o') {
		return inboxPage{}, false
	}
	n, err := strconv.Atoi(arg[1:])
	return inboxPage{others: arg[0] == 'o', n: n}, err == nil && n >= 0 && n < 1000
}

// splitInbox parts user's seat index entries into the games that wait on
// them, oldest wait first, and the others, running before lobbies, oldest
// first.
func splitInbox(seats []storage.Seating) (waiting, others []storage.Seating) {
	for _, s := range seats {
		if s.Waits() {
			waiting = append(waiting, s)
		} else {
			others = append(others, s)
		}
	}
	slices.SortStableFunc(waiting, func(a, b storage.Seating) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.Game, b.Game))
	})
	slices.SortStableFunc(others, func(a, b storage.Seating) int {
		return cmp.Or(cmp.Compare(lobbyLast(a), lobbyLast(b)), cmp.Compare(a.Game, b.Game))
	})
	return waiting, others
}

func lobbyLast(s storage.Seating) int {
	if s.Status == storage.StatusLobby {
		return 1
	}
	return 0
}

// render draws page p of user's inbox.
func (ih *inboxHandler) render(ctx context.Context, tr *locale.Printer, user string, p inboxPage) (transport.Message, error) {
	seats, err := ih.store.Seatings(ctx, user)
	if err != nil {
		return transport.Message{}, err
	}
	waiting, others := splitInbox(seats)
	list, size := waiting, inboxWaitingPage
	if p.others {
		list, size = others, inboxOthersPage
	}
	pages := max(1, (len(list)+size-1)/size)
	p.n = min(p.n, pages-1)
	shown := list[min(p.n*size, len(list)):min((p.n+1)*size, len(list))]
	m := transport.Message{Private: true, Mentions: []string{}}
	if p.others {
		m.Content = tr.T("inbox.others_header", "Count", len(others), "Page", p.n+1, "Pages", pages)
		var lines []string
		for _, s := range shown {
			lines = append(lines, ih.otherLine(tr, s))
		}
		if len(lines) == 0 {
			lines = append(lines, tr.T("inbox.no_others"))
		}
		m.Content += "\n" + strings.Join(lines, "\n")
	} else {
		m.Content = tr.T("inbox.header", "Count", len(waiting), "Page", p.n+1, "Pages", pages)
		if len(waiting) == 0 {
			m.Content += "\n" + tr.T("inbox.nothing")
		}
		for _, s := range shown {
			e, err := ih.waitingEmbed(ctx, tr, user, s)
			if err != nil {
				return transport.Message{}, err
			}
			m.Embeds = append(m.Embeds, e)
		}
	}
	m.Components = inboxButtons(tr, p, pages, len(waiting), len(others))
	return m, nil
}

// inboxButtons are the page's buttons: the previous and next page of the
// same list, and the other list.
func inboxButtons(tr *locale.Printer, p inboxPage, pages, waiting, others int) []discordgo.MessageComponent {
	var row []discordgo.MessageComponent
	button := func(label string, to inboxPage) {
		id := customID{Verb: verbInbox, Arg: to.arg()}.encode()
		row = append(row, discordgo.Button{Label: transport.Clip(label, transport.MaxLabel), Style: discordgo.SecondaryButton, CustomID: id})
	}
	if p.n > 0 {
		button(tr.T("inbox.previous"), inboxPage{others: p.others, n: p.n - 1})
	}
	if p.n+1 < pages {
		button(tr.T("inbox.next"), inboxPage{others: p.others, n: p.n + 1})
	}
	if p.others {
		button(tr.T("inbox.to_waiting", "Count", waiting), inboxPage{})
	} else if others > 0 {
		button(tr.T("inbox.to_others", "Count", others), inboxPage{others: true})
	}
	if row == nil {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// boardLink is the address of a game's board message, or of its channel
// before it has one; a game outside any server lives in a DM (@me).
func boardLink(s storage.Seating) string {
	guild := s.Guild
	if guild == "" {
		guild = "@me"
	}
	link := "https://discord.com/channels/" + guild + "/" + s.Channel
	if s.Board != "" {
		link += "/" + s.Board
	}
	return link
}

// gameName is a game's title and number: "Crystal Palace #12".
func (ih *inboxHandler) gameName(tr *locale.Printer, s storage.Seating) string {
	return tr.T("inbox.game", "Game", kindTitle(tr, ih.games, s.Kind), "ID", s.Game)
}

// deadlineStamp is the deadline as a Discord timestamp, which each reader
// sees in their own time zone and counting down, or that there is none.
func deadlineStamp(tr *locale.Printer, at time.Time) string {
	if at.IsZero() {
		return tr.T("inbox.no_deadline")
	}
	return tr.T("inbox.deadline", "When", fmt.Sprintf("<t:%d:R>", at.Unix()))
}

// otherLine is one line of the other games' page.
func (ih *inboxHandler) otherLine(tr *locale.Printer, s storage.Seating) string {
	state := tr.T("inbox.waits_on_others")
	if s.Status == storage.StatusLobby {
		state = tr.T("inbox.in_lobby")
	}
	return transport.Clip(tr.T("inbox.other_line", "Game", ih.gameName(tr, s), "Channel", "<#"+s.Channel+">", "State", state, "Link", boardLink(s)), inboxLineChars+200)
}

// waitingEmbed shows one game that waits on user: where, what for, until
// when, a link to its board, and what happened since they last acted.
func (ih *inboxHandler) waitingEmbed(ctx context.Context, tr *locale.Printer, user string, s storage.Seating) (*discordgo.MessageEmbed, error) {
	g, err := ih.store.GetByID(ctx, s.Game)
	if err != nil {
		return nil, err
	}
	since, err := ih.sinceLastActed(tr, g, user)
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	sb.WriteString(tr.T("inbox.where", "Channel", "<#"+s.Channel+">", "Since", fmt.Sprintf("<t:%d:R>", s.Since.Unix())) + "\n")
	if since.asks != "" {
		sb.WriteString(tr.T("inbox.asks", "Label", transport.Clip(since.asks, inboxLineChars)) + "\n")
	}
	sb.WriteString(deadlineStamp(tr, ownDeadline(g, s)) + "\n")
	sb.WriteString(tr.T("inbox.link", "Link", boardLink(s)) + "\n")
	if since.total == 0 {
		sb.WriteString(tr.T("inbox.since_nothing"))
	} else {
		sb.WriteString(tr.T("inbox.since", "Count", since.total) + "\n")
		for _, l := range since.lines {
			sb.WriteString("• " + transport.Clip(l, inboxLineChars) + "\n")
		}
		if rest := since.total - len(since.lines); rest > 0 {
			sb.WriteString(tr.T("inbox.since_more", "Count", rest))
		}
	}
	return &discordgo.MessageEmbed{Title: transport.Clip(ih.gameName(tr, s), transport.MaxEmbedTitle), URL: boardLink(s), Description: strings.TrimSpace(sb.String())}, nil
}

// sinceActed is what happened in a game since a user last acted there:
// the last few public events, how many there were, and what the game now
// asks of them.
type sinceActed struct {
	lines []string
	total int
	asks  string
}

// sinceLastActed replays g's log and keeps the public events that the
// actions after user's last one caused (every event, when they never
// acted): never a private event, and never a secret choice, which the
// engine writes into no public event.
func (ih *inboxHandler) sinceLastActed(tr *locale.Printer, g *storage.Game, user string) (sinceActed, error) {
	var out sinceActed
	rules, err := ih.games.Lookup(g.Kind)
	if err != nil {
		return out, err
	}
	setup := g.Setup
	setup.Players = len(g.Seats)
	st, err := rules.New(setup)
	if err != nil {
		return out, err
	}
	mine := table.SeatsOf(g, user)
	last := -1
	for n, e := range g.Log {
		if slices.Contains(mine, e.Seat) {
			last = n
		}
	}
	words := gameWords(tr, ih.games, g.Kind).WithSeats(seatNames(g))
	var events []engine.Event
	for n, e := range g.Log {
		evs, err := st.Apply(e.Seat, e.Action)
		if err != nil {
			return out, table.ReplayFailure(g, n, engine.IsSecret(st, e.Seat, e.Action), err)
		}
		if n <= last {
			continue
		}
		for _, ev := range evs {
			if !ev.Private && !ev.Text.IsZero() {
				events = append(events, ev)
			}
		}
	}
	out.total = len(events)
	for _, ev := range events[max(0, len(events)-inboxSinceLines):] {
		out.lines = append(out.lines, words.Event(ev))
	}
	out.asks = asksOf(words, st, mine)
	return out, nil
}

// asksOf says what st asks of seats, each decision once.
func asksOf(words *wording.Words, st engine.State, seats []engine.Seat) string {
	var labels []string
	for _, s := range seats {
		if label := promptLabel(words, st, s); label != "" && !slices.Contains(labels, label) {
			labels = append(labels, label)
		}
	}
	return strings.Join(labels, "; ")
}
