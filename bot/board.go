package bot

import (
	"context"
	"fmt"
	"github.com/meeplegames/meeple/bot/table"
	"github.com/meeplegames/meeple/bot/transport"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/storage"
	"github.com/meeplegames/meeple/wording"
)

// How the board uses Discord's room.
const (
	maxButtons    = 20 // four rows of five; the fifth row is for the secret button
	recentOnBoard = 6
)

// views draws what people see of a game: the board message, the scores,
// the board image and text views. It sends nothing and holds no game lock;
// it is safe for concurrent use.
type views struct {
	games    *engine.Registry
	recent   *recentEvents
	images   *images
	render   Renderer
	text     Presenter
	imagesOn bool
	log      *slog.Logger
	// away says until when a seated player is away (nil: nobody is), on
	// the clock now
	away *absences
	now  func() time.Time
}

// boardMessage is the public board of a running game, without a picture
// (boardCard).
func (vw *views) boardMessage(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) transport.Message {
	return vw.boardCard(ctx, p, g, st, nil, "")
}

// neutralAccent tints the turn card when several seats, or none, must act.
const neutralAccent = 0x99AAB5

// boardCard is the public board of a running game as a turn card (a
// Components V2 message): a container tinted in the colour of the seat
// that must act (neutral when several must), holding the game and where
// it stands (round, season, phase) and who must decide what; a line per
// seat with its mark and headline figures; the picture, if any, with its
// alt text; the last public events and the deadline; the components for
// the open public prompts and the Full board button; and the game's
// number. It never holds a secret: prompts marked Secret get only a
// button that opens a private form. It is written in p's language (the
// server's, for the channel's board).
func (vw *views) boardCard(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State, picture []byte, alt string) transport.Message {
	words := gameWords(p, vw.games, g.Kind)
	stage := words.Say(st.Phase())
	if gl, err := imaging.GlanceOf(st.View(engine.Spectator), imageWords(p, vw.games, g)); err == nil && gl.Stage != "" {
		stage = gl.Stage
	}
	head := []string{"## " + kindTitle(p, vw.games, g.Kind), stage}
	// who must decide what: seats deciding the same thing at once share
	// a line
	var labels []string
	whoFor := map[string][]string{}
	acting := map[engine.Seat]bool{}
	for _, pr := range st.Prompts() {
		acting[pr.Seat] = true
		who := fmt.Sprintf("P%d", pr.Seat+1)
		if int(pr.Seat) < len(g.Seats) {
			who = seatLabel(g.Seats[pr.Seat])
		}
		label := words.Label(pr)
		if _, ok := whoFor[label]; !ok {
			labels = append(labels, label)
		}
		if !slices.Contains(whoFor[label], who) {
			whoFor[label] = append(whoFor[label], who)
		}
	}
	var waiting []string
	for _, label := range labels {
		waiting = append(waiting, p.T("botgame.waiting", "Who", strings.Join(whoFor[label], ", "), "Label", label))
	}
	if len(waiting) > 0 {
		head = append(head, "**"+p.T("board.waiting")+"** "+strings.Join(waiting, " · "))
	}
	var seats []string
	for _, l := range vw.seatLines(ctx, p, g, st) {
		seats = append(seats, l.board())
	}
	parts := []discordgo.MessageComponent{
		discordgo.TextDisplay{Content: strings.Join(head, "\n")},
		discordgo.TextDisplay{Content: transport.OrNone(strings.Join(seats, "\n"))},
	}
	if picture != nil {
		parts = append(parts, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{
			{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + transport.ImageName}, Description: &alt},
		}})
	}
	var news []string
	if recent := vw.recent.last(g.Channel, recentOnBoard, words); len(recent) > 0 {
		news = append(news, "**"+p.T("board.last")+"**\n- "+strings.Join(recent, "\n- "))
	}
	if !g.Deadline.IsZero() && len(table.HumanWaiting(g, st)) > 0 { // else it is a computer's timer (computerDue)
		// a Discord timestamp: each reader sees it in their own language
		// and time zone
		at := g.Deadline.Unix()
		news = append(news, fmt.Sprintf("**%s** <t:%d:f> (<t:%d:R>)", p.T("board.deadline"), at, at))
	}
	if len(news) > 0 {
		parts = append(parts, discordgo.TextDisplay{Content: strings.Join(news, "\n")})
	}
	rows := promptComponents(p, words, g, st)
	if vw.imagesOn {
		rows = withFullBoardButton(p, g, rows)
	}
	parts = append(parts, rows...)
	parts = append(parts, discordgo.TextDisplay{Content: "-# " + p.T("board.footer", "ID", g.ID, "Version", g.Version)})
	accent := neutralAccent
	if len(acting) == 1 {
		for seat := range acting {
			accent = imaging.MarkOf(int(seat)).Color
		}
	}
	return transport.Message{Card: true, Image: picture, Alt: alt, Components: []discordgo.MessageComponent{
		discordgo.Container{AccentColor: &accent, Components: parts},
	}}
}

// withoutActions is card m without its action rows: a board whose
// decisions are over (a past phase, or the game's end). Its text and
// picture stay.
func withoutActions(m transport.Message) transport.Message {
	m.Components = dropRows(m.Components)
	return m
}

func dropRows(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.ActionsRow:
		case discordgo.Container:
			c.Components = dropRows(c.Components)
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// awayMark is " (away until …)" beside the name of a player who announced
// an absence, as a Discord timestamp each reader sees in their own time
// zone; "" for anyone else.
func (vw *views) awayMark(ctx context.Context, p *locale.Printer, user string) string {
	if vw.away == nil || vw.now == nil {
		return ""
	}
	until := vw.away.until(ctx, user, vw.now())
	if until.IsZero() {
		return ""
	}
	return " " + p.T("board.away", "When", fmt.Sprintf("<t:%d:D>", until.Unix()))
}

// seatLine is one seat's line, built in one place (seatLines) for the
// board and for the alt text of every picture: who sits there, the mark
// the pictures give them, and their headline figures.
type seatLine struct {
	N       int    // the seat, counted from 1
	Who     string // a mention of its player, or a computer's name (seatLabel)
	Name    string // its display name (seatNames)
	Mark    imaging.SeatMark
	Away    string   // " (away until …)", or ""
	Clock   string   // the seat's time bank in a game with banks, or ""
	Active  bool     // the game waits for it (once over: it won)
	Figures []string // "Pounds 12", in the line's language
}

// seatLines are g's seats as lines in p's language: each seat's figures
// as the glance shows them, or its score for a game without a glance.
func (vw *views) seatLines(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) []seatLine {
	names := seatNames(g)
	out := make([]seatLine, len(g.Seats))
	waits := table.HumanWaiting(g, st)
	for n, s := range g.Seats {
		out[n] = seatLine{N: n + 1, Who: seatLabel(s), Name: names[n], Mark: imaging.MarkOf(n), Away: vw.awayMark(ctx, p, s.User),
			Clock: vw.bankMark(p, g, engine.Seat(n), slices.Contains(waits, engine.Seat(n)))}
	}
	if gl, err := imaging.GlanceOf(st.View(engine.Spectator), imageWords(p, vw.games, g)); err == nil {
		for n := range out {
			if n < len(gl.Seats) {
				out[n].Active = gl.Seats[n].Active
				for _, f := range gl.Seats[n].Figures {
					out[n].Figures = append(out[n].Figures, figureLabel(p, f)+" "+f.Value)
				}
			}
		}
		return out
	}
	for _, pr := range st.Prompts() {
		if int(pr.Seat) >= 0 && int(pr.Seat) < len(out) {
			out[pr.Seat].Active = true
		}
	}
	res := st.Result()
	for n := range out {
		if n < len(res.Scores) {
			out[n].Figures = []string{p.T("board.score", "Score", res.Scores[n])}
		}
	}
	return out
}

// board writes the line for the board: "P1 ● @Alice — Pounds 12 · VP 30",
// with an arrow before a seat the game waits for.
func (l seatLine) board() string {
	var b strings.Builder
	if l.Active {
		b.WriteString("▶ ")
	}
	fmt.Fprintf(&b, "P%d %s %s%s%s", l.N, l.Mark.Symbol, l.Who, l.Away, l.Clock)
	if len(l.Figures) > 0 {
		b.WriteString(" — " + strings.Join(l.Figures, " · "))
	}
	return b.String()
}

// plain writes the line for alt text, without marks a screen reader
// would spell out: "P1 Alice (blue): Pounds 12, VP 30".
func (l seatLine) plain(p *locale.Printer) string {
	s := p.T("alt.seat", "N", l.N, "Name", l.Name, "Color", p.T("image.color."+l.Mark.ColorKey))
	if len(l.Figures) > 0 {
		s = p.T("alt.seat_figures", "Seat", s, "Figures", strings.Join(l.Figures, ", "))
	}
	return s
}

// figureLabel is a glance figure's label in p's language (board.figure.*),
// or as the glance names it when the catalogue lacks it.
func figureLabel(p *locale.Printer, f imaging.Figure) string {
	if id := "board.figure." + f.Key; p.Has(id) {
		return p.T(id)
	}
	return f.Label
}

// withFullBoardButton adds the button that shows the full board: to the
// last row of buttons when it has room, else as a row of its own when the
// message has room for one; /game board shows the full board too.
func withFullBoardButton(p *locale.Printer, g *storage.Game, rows []discordgo.MessageComponent) []discordgo.MessageComponent {
	id := componentID(g.Guard(), verbFullBoard, "")
	btn := discordgo.Button{Label: p.T("board.full_button"), Style: discordgo.SecondaryButton, CustomID: id, Emoji: &discordgo.ComponentEmoji{Name: "🔍"}}
	if n := len(rows); n > 0 {
		if last, ok := rows[n-1].(discordgo.ActionsRow); ok && len(last.Components) < 5 && isButtonRow(last) {
			last.Components = append(last.Components[:len(last.Components):len(last.Components)], btn)
			return append(rows[:n-1:n-1], last)
		}
	}
	if len(rows) < transport.MaxRows {
		return append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{btn}})
	}
	return rows
}

// isButtonRow reports whether a row holds buttons (not a select menu).
func isButtonRow(row discordgo.ActionsRow) bool {
	for _, c := range row.Components {
		if _, ok := c.(discordgo.Button); !ok {
			return false
		}
	}
	return true
}

// promptComponents are the buttons and select menus for the open prompts:
// buttons when one public prompt has few actions, a select menu per public
// prompt otherwise, and one button for everyone with a secret prompt.
// words writes the bot's words, game the game's.
func promptComponents(tr *locale.Printer, words *wording.Words, g *storage.Game, st engine.State) []discordgo.MessageComponent {
	var public []engine.Prompt
	secret := false
	for _, p := range st.Prompts() {
		if p.Secret {
			secret = true
			continue
		}
		if int(p.Seat) < len(g.Seats) && g.Seats[p.Seat].User != "" {
			public = append(public, p)
		}
	}
	var rows []discordgo.MessageComponent
	room := transport.MaxRows
	if secret {
		room--
	}
	if len(public) == 1 && len(public[0].Actions) <= maxButtons {
		rows = actionButtons(words, g, st, public[0])
	}
	if rows == nil {
		// a select menu per prompt; a prompt too large for one gets a
		// button to the action picker (pickerflow.go), all in one row
		var pickers []discordgo.MessageComponent
		for _, p := range public {
			if sel, ok := actionSelect(words, g, st, p); ok {
				rows = append(rows, sel)
			} else if btn, ok := treeButton(tr, g, p); ok && len(pickers) < 5 {
				pickers = append(pickers, btn)
			}
		}
		if len(pickers) > 0 {
			rows = append([]discordgo.MessageComponent{discordgo.ActionsRow{Components: pickers}}, rows...)
		}
	}
	if len(rows) > room {
		rows = rows[:room]
	}
	if secret {
		id := componentID(g.Guard(), verbSecret, "")
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr.T("board.secret_button"), Style: discordgo.PrimaryButton, CustomID: id, Emoji: &discordgo.ComponentEmoji{Name: "🎲"}},
			secretTreeButton(tr, g),
		}})
	}
	return rows
}

func actionButtons(words *wording.Words, g *storage.Game, st engine.State, p engine.Prompt) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	var row []discordgo.MessageComponent
	for _, a := range p.Actions {
		id := componentID(g.Guard(), verbAct, a)
		if !fitsCustomID(id) || utf8.RuneCountInString(a) > transport.MaxLabel {
			return nil // too long for a button: use a select menu
		}
		row = append(row, discordgo.Button{Label: buttonLabel(words, st, p.Seat, a), Style: discordgo.SecondaryButton, CustomID: id})
		if len(row) == 5 {
			rows = append(rows, discordgo.ActionsRow{Components: row})
			row = nil
		}
	}
	if row != nil {
		rows = append(rows, discordgo.ActionsRow{Components: row})
	}
	return rows
}

// actionSelect is a select menu of a prompt's actions; false when the
// prompt has more actions than a menu holds (then /play's autocomplete is
// the way). Its placeholder says what is asked and its options what each
// action does, written by words.
func actionSelect(words *wording.Words, g *storage.Game, st engine.State, p engine.Prompt) (discordgo.MessageComponent, bool) {
	if len(p.Actions) > transport.MaxSelectOptions {
		return nil, false
	}
	id := componentID(g.Guard(), verbPick, fmt.Sprint(int(p.Seat)))
	var opts []discordgo.SelectMenuOption
	for _, a := range p.Actions {
		if utf8.RuneCountInString(a) > 100 {
			return nil, false
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: a, Value: a, Description: optionDescription(words, st, p.Seat, a)})
	}
	who := fmt.Sprintf("P%d", p.Seat+1)
	if s := g.Seats[p.Seat]; s.Name != "" {
		who = s.Name
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: id, Placeholder: words.Printer().T("botgame.waiting", "Who", who, "Label", words.Label(p)), Options: opts},
	}}, true
}

// scoresMessage shows the scores in p's language; final adds the winners.
func (vw *views) scoresMessage(p *locale.Printer, g *storage.Game, st engine.State, final bool) transport.Message {
	res := st.Result()
	title := p.T("board.scores")
	if final {
		title = p.T("board.final", "Game", kindTitle(p, vw.games, g.Kind))
		if g.EndedByVote {
			title = p.T("board.final_vote", "Game", kindTitle(p, vw.games, g.Kind))
			res.Winners = nil
		}
	}
	order := scoreOrder(len(g.Seats), res)
	score := func(n int) int {
		if n < len(res.Scores) {
			return res.Scores[n]
		}
		return 0
	}
	var sb strings.Builder
	for _, n := range order {
		mark := ""
		if slices.Contains(res.Winners, engine.Seat(n)) && final {
			mark = " 🏆"
		}
		fmt.Fprintf(&sb, "**%d** — P%d %s%s", score(n), n+1, seatLabel(g.Seats[n]), mark)
		if n < len(res.Breakdown) && len(res.Breakdown[n]) > 0 {
			var parts []string
			for k, v := range res.Breakdown[n] {
				parts = append(parts, fmt.Sprintf("%s %d", scoreSource(p, k), v))
			}
			slices.Sort(parts)
			sb.WriteString(" (" + strings.Join(parts, ", ") + ")")
		}
		sb.WriteString("\n")
	}
	if g.Hints {
		var taken []string
		for n := range g.Seats {
			count := 0
			if n < len(g.HintsTaken) {
				count = g.HintsTaken[n]
			}
			taken = append(taken, p.T("hint.taken_by", "Seat", n+1, "Count", count))
		}
		sb.WriteString(p.T("hint.taken", "List", strings.Join(taken, ", ")) + "\n")
	}
	embed := &discordgo.MessageEmbed{Title: title, Description: sb.String(),
		Footer: &discordgo.MessageEmbedFooter{Text: p.T("board.scores_footer", "ID", g.ID, "Phase", gameWords(p, vw.games, g.Kind).Say(st.Phase()))}}
	return transport.Message{Embeds: []*discordgo.MessageEmbed{embed}}
}

// withScoresImage is the scores message with the score sheet, described.
func (vw *views) withScoresImage(p *locale.Printer, g *storage.Game, st engine.State, final bool) transport.Message {
	m := vw.scoresMessage(p, g, st, final)
	if m.Image = vw.scoresImage(p, g, st); m.Image != nil {
		m.Alt = scoresAlt(p, m.Embeds[0].Title, g, st.Result(), final && !g.EndedByVote)
	}
	return m
}

// scoreOrder is the seats from the best score to the worst, ties in
// seat order.
func scoreOrder(seats int, res engine.Result) []int {
	order := make([]int, seats)
	for n := range order {
		order[n] = n
	}
	score := func(n int) int {
		if n < len(res.Scores) {
			return res.Scores[n]
		}
		return 0
	}
	slices.SortStableFunc(order, func(a, c int) int { return score(c) - score(a) })
	return order
}

// scoreSource names a source of points in a game's breakdown (see
// engine.Result) in p's language, or as the game names it.
func scoreSource(p *locale.Printer, key string) string {
	if id := "botgame.score." + key; p.Has(id) {
		return p.T(id)
	}
	return key
}

// describe writes a view as text, or "" when no presenter is set or it
// cannot.
func (vw *views) describe(view any, words *wording.Words) string {
	if vw.text == nil {
		return ""
	}
	s, err := vw.text(view, words)
	if err != nil {
		return ""
	}
	return s
}

// boardImage renders the glance posted with the board message, or
// returns nil (images off, or the render failed: the text board still goes
// out).
func (vw *views) boardImage(p *locale.Printer, g *storage.Game, st engine.State) []byte {
	if !vw.imagesOn {
		return nil
	}
	png, err := vw.images.glance(g, st, imageWords(p, vw.games, g))
	if err != nil {
		vw.log.Warn("rendering the glance failed", "game", g.ID, "err", err)
		return nil
	}
	return png
}

// withBoardImage is the board message with its glance, in the card's
// gallery, described.
func (vw *views) withBoardImage(ctx context.Context, p *locale.Printer, g *storage.Game, st engine.State) transport.Message {
	glance := vw.boardImage(p, g, st)
	if glance == nil {
		return vw.boardMessage(ctx, p, g, st)
	}
	return vw.boardCard(ctx, p, g, st, glance, vw.glanceAlt(ctx, p, g, st))
}

// fullBoard is the full board image in p's language, or nil.
func (vw *views) fullBoard(p *locale.Printer, g *storage.Game, st engine.State) []byte {
	if !vw.imagesOn {
		return nil
	}
	png, err := vw.images.board(g, st, imageWords(p, vw.games, g))
	if err != nil {
		vw.log.Warn("rendering the board failed", "game", g.ID, "err", err)
		return nil
	}
	return png
}

// scoresImage renders the score sheet in p's language, or returns nil.
func (vw *views) scoresImage(p *locale.Printer, g *storage.Game, st engine.State) []byte {
	if !vw.imagesOn {
		return nil
	}
	w := imageWords(p, vw.games, g)
	png, err := vw.images.render(func() ([]byte, error) { return vw.render.Scores(st.View(engine.Spectator), w) })
	if err != nil {
		vw.log.Warn("rendering the scores failed", "game", g.ID, "err", err)
	}
	return png
}

// matImage renders seat's private mat in p's language (its reader's), or
// returns nil.
func (vw *views) matImage(p *locale.Printer, g *storage.Game, st engine.State, seat engine.Seat) []byte {
	if !vw.imagesOn {
		return nil
	}
	w := imageWords(p, vw.games, g)
	png, err := vw.images.render(func() ([]byte, error) { return vw.render.Mat(st.View(seat), w) })
	if err != nil {
		vw.log.Debug("no private mat", "game", g.ID, "err", err)
		return nil
	}
	return png
}

// seatNames are the seats' display names for images.
func seatNames(g *storage.Game) []string {
	out := make([]string, len(g.Seats))
	for n, s := range g.Seats {
		out[n] = s.Name
		if out[n] == "" {
			out[n] = fmt.Sprintf("P%d", n+1)
		}
	}
	return out
}
