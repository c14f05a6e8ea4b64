package crystalpalace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/ai"
)

// Rules is Crystal Palace with one set of content. It implements
// engine.Rules, engine.ComputerPlayers and engine.Rulebook and is safe for
// concurrent use (it is never modified after NewRules).
type Rules struct {
	c *Content
	// dice[k] lists every "dice …" action for k dice, values descending.
	dice [7][]string
	// placeAt[l][sp] are the texts of placing a die on space sp+1 of
	// location l.
	placeAt [locCount][]placeTexts
	take    []string   // take[k] is "take k+1"
	use     [][]string // use[l][i] is "use <possibility i of location l>"
	// always[text] is "<text> always" for every phase 3 action text.
	always map[string]string
	build  []string // build[i] is "build <patent i>"
	// buildAt[i][t] is "build <patent i> target t+1".
	buildAt [][]string
	texts   labelTexts // the labels as data
	view    viewTexts  // the views' words as data
	// sharedName[id] reports that another research tile has tile id's name.
	sharedName []bool
	// moveText[t] is "market move t+1".
	moveText []string
	// nums[k] is []int{k}: shared, read-only Vals of one-number actions.
	nums [][]int
	// numbered[v][k] is the text of verb v's action with the one number
	// k ("down 3"), for the verbs that take one.
	numbered [vAsk + 1][]string
	// sides[n][l] is location l's board side with n players; markets[n] the Black Market side.
	sides   [6][]*BoardSide
	markets [6]*Market
}

// NewRules returns the rules for content c.
func NewRules(c *Content) *Rules {
	r := &Rules{c: c, use: make([][]string, locCount)}
	for n := 2; n <= 5; n++ {
		r.markets[n] = c.market(n)
		for l := range c.Locations {
			r.sides[n] = append(r.sides[n], c.side(&c.Locations[l], n))
		}
	}
	for l := locPatent; l < locCount; l++ {
		for _, side := range c.Locations[l].Sides {
			r.take = extendTake(r.take, side.Display)
			for i, po := range side.Possibilities {
				if i >= len(r.use[l]) {
					r.use[l] = append(r.use[l], "use "+po.Key)
				}
			}
		}
	}
	r.always = map[string]string{"advance": "advance always", "publish": "publish always"}
	for _, t := range r.take {
		r.always[t] = t + " always"
	}
	for _, texts := range r.use {
		for _, t := range texts {
			r.always[t] = t + " always"
		}
	}
	for _, v := range []verb{vTake, vMoveAsst, vDown, vReplace, vTarget, vRepay, vLoan} {
		r.numbered[v] = make([]string, maxTiers+1)
		for k := range r.numbered[v] {
			r.numbered[v][k] = Action{Verb: v, Vals: []int{k}}.String()
		}
	}
	r.nums = make([][]int, 64)
	for k := range r.nums {
		r.nums[k] = []int{k}
	}
	for _, pt := range c.Patents {
		r.build = append(r.build, "build "+pt.ID)
		var at []string
		for t := 1; t <= 5; t++ {
			at = append(at, "build "+pt.ID+" target "+strconv.Itoa(t))
		}
		r.buildAt = append(r.buildAt, at)
	}
	r.moveText = moveTexts()
	r.texts = newLabelTexts(c)
	r.view = newViewTexts(c, r)
	for n, m := range r.markets {
		if m == nil {
			continue
		}
		for g := 0; g <= m.Gears; g++ {
			r.texts.downGear[n] = append(r.texts.downGear[n], engine.Say("cp.label.down_gear", engine.Num("Tier", m.BannerTier), engine.Num("Count", g)))
		}
	}
	names := map[string]int{}
	for _, rt := range c.Research {
		names[rt.Name]++
	}
	for _, rt := range c.Research {
		r.sharedName = append(r.sharedName, names[rt.Name] > 1)
	}
	tiers := 0 // an assistant moves up from a tier below the top one
	for _, m := range r.markets {
		if m != nil {
			tiers = max(tiers, len(m.Spaces)-1)
		}
	}
	for k := 1; k <= 6; k++ {
		r.dice[k] = diceActions(k)
	}
	for l := locPatent; l < locCount; l++ {
		spaces := 0
		for _, side := range c.Locations[l].Sides {
			spaces = max(spaces, len(side.Dice))
		}
		r.placeAt[l] = make([]placeTexts, spaces)
		for sp := range r.placeAt[l] {
			at := &r.placeAt[l][sp]
			for k := 1; k <= 6; k++ {
				at.plain[k] = Action{Verb: vPlace, Vals: []int{k, sp + 1}, Key: l.String()}.String()
				// only a space that offers an assistant action keeps
				// texts with answers (they would be most of the rules'
				// memory)
				if assistantSpace(&c.Locations[l], sp) {
					at.with[k] = withAnswers(at.plain[k], r.moveText[:min(tiers, len(r.moveText))])
				}
			}
		}
	}
	return r
}

// placeTexts are the texts of placing a die of value v on one space:
// plain[v] is "place v patent 2"; with[v][k] is that carrying the answer
// of kind k (tailOnly, …): "place 3 patent 2 only", "… market place", "…
// market move 4"; nil for a space that offers no assistant action.
type placeTexts struct {
	plain [7]string
	with  [7][]string
}

// withAnswers is placement text carrying each kind of answer (see
// placeTexts), the moves up from tiers 1 to len(moves): the texts
// share one string.
func withAnswers(text string, moves []string) []string {
	answers := append([]string{"only", "objective", "market place"}, moves...)
	var b strings.Builder
	for _, a := range answers {
		b.Grow(len(text) + 1 + len(a))
	}
	ends := make([]int, len(answers))
	for i, a := range answers {
		b.WriteString(text)
		b.WriteByte(' ')
		b.WriteString(a)
		ends[i] = b.Len()
	}
	all := b.String()
	with := make([]string, len(answers))
	start := 0
	for i, end := range ends {
		with[i], start = all[start:end], end
	}
	return with
}

// actionText is a.String(), ready-made for the actions with one number.
func (r *Rules) actionText(a Action) string {
	if len(a.Vals) == 1 && a.Key == "" && !a.Always && !a.Tail && len(a.Then) == 0 && int(a.Verb) < len(r.numbered) {
		if texts, k := r.numbered[a.Verb], a.Vals[0]; k >= 0 && k < len(texts) {
			return texts[k]
		}
	}
	return a.String()
}

// assistantSpace reports whether dice space sp of location l offers an
// assistant action on any side of its board.
func assistantSpace(l *Location, sp int) bool {
	for _, side := range l.Sides {
		if sp < len(side.Dice) && side.Dice[sp].Assistant {
			return true
		}
	}
	return false
}

// extendTake makes sure take holds "take 1" … "take n".
func extendTake(take []string, n int) []string {
	for k := len(take); k < n; k++ {
		take = append(take, Action{Verb: vTake, Vals: []int{k + 1}}.String())
	}
	return take
}

// diceActions lists the canonical dice actions for k dice.
func diceActions(k int) []string {
	var out []string
	vals := make([]int, k)
	var rec func(i, maxV int)
	rec = func(i, maxV int) {
		if i == k {
			out = append(out, Action{Verb: vDice, Vals: vals}.String())
			return
		}
		for v := maxV; v >= 1; v-- {
			vals[i] = v
			rec(i+1, v)
		}
	}
	rec(0, 6)
	return out
}

// Content returns the content the rules play with.
func (r *Rules) Content() *Content { return r.c }

// Name implements engine.Rules.
func (r *Rules) Name() string { return "crystalpalace" }

// Title implements engine.Rules.
func (r *Rules) Title() string { return "Crystal Palace" }

// MinPlayers implements engine.Rules.
func (r *Rules) MinPlayers() int { return 2 }

// MaxPlayers implements engine.Rules.
func (r *Rules) MaxPlayers() int { return 5 }

// Options implements engine.Rules: Crystal Palace has none.
func (r *Rules) Options() []engine.Option { return nil }

// Decode implements engine.Rules.
func (r *Rules) Decode(data []byte) (engine.State, error) {
	s := &State{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("crystalpalace: decode state: %w", err)
	}
	if s.PlayerCount < 2 || s.PlayerCount > 5 || len(s.Seats) != s.PlayerCount || len(s.Boards) != int(locCount) || s.Round < 1 || s.Round > 5 {
		return nil, fmt.Errorf("crystalpalace: decode state: inconsistent state")
	}
	s.r, s.c = r, r.c
	if err := s.consistent(); err != nil {
		return nil, fmt.Errorf("crystalpalace: decode state: %w", err)
	}
	return s, nil
}

// consistent checks that every index of a decoded state points into the
// content, so a damaged record is refused instead of failing later.
func (s *State) consistent() error {
	c := s.c
	ok := func(list []int, n int, allowFree bool) bool {
		for _, x := range list {
			if x >= n || x < 0 && !(allowFree && x == -1) {
				return false
			}
		}
		return true
	}
	cards := ok(s.PatentDeck, len(c.Patents), false) && ok(s.PatentDisp, len(c.Patents), true) &&
		ok(s.CharDeck, len(c.Characters), false) && ok(s.CharDisp, len(c.Characters), true) &&
		ok(s.GreenDeck, len(c.Research), false) && ok(s.MuseumDisp, len(c.Research), true) &&
		ok(s.VioletBlue, len(c.Research), false) && ok(s.VioletOrange, len(c.Research), false) &&
		ok(s.BankDisp, len(c.Shares), true) && ok(s.Discarded, len(c.Research), false) && ok(s.Market, s.PlayerCount, true) && ok(s.Order, s.PlayerCount, false) &&
		len(s.Order) == s.PlayerCount && s.Publisher >= 0 && s.Publisher < len(c.Publishers) &&
		s.CurrentPhase >= phaseDice && s.CurrentPhase <= phaseNewRound && s.Location >= 0 && s.Location <= int(locCount) && s.Turn >= 0 && s.Turn <= max(s.PlayerCount, phase6Steps) &&
		len(s.Market) == len(s.market().Spaces) && s.Watch >= -1 && s.Watch < s.PlayerCount
	if !cards {
		return fmt.Errorf("a card, tile or seat index is out of range")
	}
	for l := range s.Boards {
		side := s.side(locKind(l))
		b := &s.Boards[l]
		if len(b.Dice) != len(side.Dice) || len(b.Acts) != len(side.Actions) || len(b.Poss) != len(side.Possibilities) {
			return fmt.Errorf("location %d does not match its board", l+1)
		}
	}
	for _, f := range s.FlyerAt {
		if f.Flyer < 0 || f.Flyer >= len(c.Flyers) {
			return fmt.Errorf("flyer index out of range")
		}
	}
	for i := range s.Seats {
		p := &s.Seats[i]
		if p.Mat < 0 || p.Mat >= len(c.Mats) || len(p.VPBy) != vpCount || p.Income < 0 || p.Income >= len(c.Tracks.Income) ||
			p.West < 0 || p.West >= len(c.Tracks.Westminster) || p.Obj < 0 || p.Obj > len(c.Mats[p.Mat].Objective) ||
			!ok(p.Patents, len(c.Patents), false) || !ok(p.Protos, len(c.Patents), false) ||
			!ok(p.Chars, len(c.Characters), false) || !ok(p.Shares, len(c.Shares), false) {
			return fmt.Errorf("seat %d holds something out of range", i+1)
		}
		for _, sl := range p.Slots {
			if sl.Kind == slotResearch && (sl.ID < 0 || sl.ID >= len(c.Research)) {
				return fmt.Errorf("seat %d: research tile out of range", i+1)
			}
		}
		for _, t := range p.Queue {
			bad := false
			switch t.Kind {
			case dReplace:
				bad = t.Subject < 0 || t.Subject >= len(c.Research)
			case dTarget:
				bad = t.Subject < 0 || t.Subject >= len(c.Patents)
			case dPoster:
				bad = t.Subject < 0 || t.Subject >= len(c.Tracks.Buzz.Posters)
			case dBonus:
				bad = t.Subject < -1 || t.Subject >= len(c.Tracks.Buzz.Posters)
			case dInstant:
				bad = t.Subject < 0 || t.Subject >= len(c.Characters) || t.Amount < 0 || t.Amount >= len(c.Characters[t.Subject].Instant)
			case tAct:
				bad = t.Subject < 0 || t.Subject > 99 || t.Amount < 1 || t.Amount > 6
			}
			if bad || t.Kind < tEffect || t.Kind > tAct {
				return fmt.Errorf("seat %d: a pending decision is out of range", i+1)
			}
		}
	}
	return nil
}

// New implements engine.Rules: the setup of the rulebook for 2-5 players.
func (r *Rules) New(setup engine.Setup) (engine.State, error) {
	return r.newState(setup)
}

func (r *Rules) newState(setup engine.Setup) (*State, error) {
	if setup.Players < 2 || setup.Players > 5 {
		return nil, engine.RefuseWith(engine.ErrBadSetup, engine.Say("cp.refuse.setup.players", engine.Num("Min", 2), engine.Num("Max", 5), engine.Num("N", setup.Players)))
	}
	for k := range setup.Options {
		return nil, engine.RefuseWith(engine.ErrBadSetup, engine.Say("cp.refuse.setup.option", engine.Code("Name", k)))
	}
	c := r.c
	s := &State{PlayerCount: setup.Players, RNG: engine.NewRNG(setup.Seed), Round: 1, CurrentPhase: phaseDice, First: -1, Watch: -1, r: r, c: c}
	rng := &s.RNG
	shuffled := func(n int, keep func(i int) bool) []int {
		size := n
		if keep != nil {
			size = 0
			for i := 0; i < n; i++ {
				if keep(i) {
					size++
				}
			}
		}
		if size == 0 {
			return nil // as encoded before: no empty list
		}
		d := make([]int, 0, size)
		for i := 0; i < n; i++ {
			if keep == nil || keep(i) {
				d = append(d, i)
			}
		}
		rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		return d
	}
	s.PatentDeck = shuffled(len(c.Patents), nil)
	s.CharDeck = shuffled(len(c.Characters), nil)
	s.GreenDeck = shuffled(len(c.Research), func(i int) bool { return c.Research[i].Back == "green" })
	s.VioletBlue = shuffled(len(c.Research), func(i int) bool { return c.Research[i].Box == "blue" })
	s.VioletOrange = shuffled(len(c.Research), func(i int) bool { return c.Research[i].Box == "orange" })
	s.ShareDecks = make([][]int, 5)
	for round := 1; round <= 5; round++ {
		s.ShareDecks[round-1] = shuffled(len(c.Shares), func(i int) bool { return c.Shares[i].Round == round })
	}
	s.Loans = make([]int, 0, len(c.loanVP))
	for _, i := range shuffled(len(c.loanVP), nil) {
		s.Loans = append(s.Loans, c.loanVP[i])
	}
	s.Publisher = rng.Intn(len(c.Publishers))
	for _, col := range []struct {
		name   string
		spaces []int
	}{{"blue", c.Tracks.Buzz.BlueFlyers}, {"green", c.Tracks.Buzz.GreenFlyers}, {"violet", c.Tracks.Buzz.VioletFlyers}} {
		fl := shuffled(len(c.Flyers), func(i int) bool { return c.Flyers[i].Color == col.name })
		for k, sp := range col.spaces {
			s.FlyerAt = append(s.FlyerAt, Flyers{Space: sp, Flyer: fl[k]})
		}
	}
	sortFlyers(s.FlyerAt)
	m := s.market()
	s.Market = make([]int, len(m.Spaces))
	for i := range s.Market {
		s.Market[i] = -1
	}
	s.MarketGears = m.Gears
	s.Boards = make([]Board, locCount)
	for l := locPatent; l < locCount; l++ {
		side := s.side(l)
		b := Board{Dice: make([]Die, len(side.Dice)), Acts: make([]Die, len(side.Actions))}
		for i := range b.Dice {
			b.Dice[i].Owner = -1
		}
		for i := range b.Acts {
			b.Acts[i].Owner = -1
		}
		if len(side.Possibilities) > 0 {
			b.Poss = make([]int, len(side.Possibilities))
			for i := range b.Poss {
				b.Poss[i] = -1
			}
		}
		s.Boards[l] = b
	}
	s.PatentDisp = make([]int, s.side(locPatent).Display)
	s.CharDisp = make([]int, s.side(locClub).Display)
	s.MuseumDisp = make([]int, s.side(locMuseum).Display)
	s.BankDisp = make([]int, s.side(locBank).Display)
	s.fillDisplays()
	// Player mats: a random mat each, a random side up.
	var matIDs []string
	seen := map[string]bool{}
	for _, mt := range c.Mats {
		if !seen[mt.ID] {
			seen[mt.ID] = true
			matIDs = append(matIDs, mt.ID)
		}
	}
	rng.Shuffle(len(matIDs), func(i, j int) { matIDs[i], matIDs[j] = matIDs[j], matIDs[i] })
	e := c.Tracks.Economy
	s.Seats = make([]Player, s.PlayerCount)
	for seat := range s.Seats {
		var sides []int
		for i, mt := range c.Mats {
			if mt.ID == matIDs[seat%len(matIDs)] {
				sides = append(sides, i)
			}
		}
		mat := sides[rng.Intn(len(sides))]
		p := Player{
			Mat: mat, Pounds: e.StartPounds, Gears: e.StartGears, Energy: e.StartEnergy,
			VP: e.StartVP, VPBy: make([]int, vpCount), Dice: e.StartDice,
			Income: c.Tracks.IncomeStart, Asst: e.Assistants - 1,
			Slots: make([]Slot, c.Mats[mat].ResearchSpaces),
		}
		p.VPBy[vpStart] = e.StartVP
		s.Seats[seat] = p
	}
	s.Order = make([]int, s.PlayerCount)
	for i := range s.Order {
		s.Order[i] = i
	}
	s.emit(engine.EventPhase, -1, s.phaseText(), false)
	s.ev = nil
	return s, nil
}

func sortFlyers(f []Flyers) {
	for i := 1; i < len(f); i++ {
		for j := i; j > 0 && f[j].Space < f[j-1].Space; j-- {
			f[j], f[j-1] = f[j-1], f[j]
		}
	}
}

// fillDisplays fills the empty display slots from the decks (setup and phase 7).
func (s *State) fillDisplays() {
	fill := func(disp []int, deck *[]int) {
		for i := range disp {
			if len(*deck) == 0 {
				disp[i] = -1
				continue
			}
			disp[i] = (*deck)[0]
			*deck = (*deck)[1:]
		}
	}
	fill(s.PatentDisp, &s.PatentDeck)
	fill(s.CharDisp, &s.CharDeck)
	fill(s.MuseumDisp, &s.GreenDeck)
	fill(s.BankDisp, &s.ShareDecks[s.Round-1])
	s.ShareDecks[s.Round-1] = nil // spare shares of the round go back to the box
}

// ComputerPlayer implements engine.ComputerPlayers.
func (r *Rules) ComputerPlayer(name string) (engine.Player, bool) {
	switch name {
	case "heuristic", "easy":
		return Heuristic{}, true
	}
	if s, ok := ai.Level(knowledge{}, perSecond, name); ok {
		return s, true
	}
	return nil, false
}

// ComputerPlayerNames implements engine.ComputerPlayers.
func (r *Rules) ComputerPlayerNames() []string {
	return []string{"easy", "heuristic", "normal", "strong"}
}
