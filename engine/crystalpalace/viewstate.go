package crystalpalace

import (
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// View implements engine.State: a *View for seat; dice values stay hidden
// from everyone but their owner until the phase 1 reveal.
func (s *State) View(seat engine.Seat) any { return s.view(seat) }

func (s *State) view(viewer engine.Seat) *View {
	c := s.c
	v := &View{
		Game: "crystalpalace", Viewer: viewer, Players: s.PlayerCount, Round: s.Round,
		RoundName: c.Tracks.Years[s.Round-1], RoundKey: c.keys.year[s.Round-1], Year: 1849 + s.year(), Phase: int(s.CurrentPhase), Label: s.englishPhase(), LabelSay: s.phaseText(),
		Over: s.Done, First: engine.Seat(s.First), Turn: engine.Seat(s.current()),
	}
	for _, o := range s.Order {
		v.Order = append(v.Order, engine.Seat(o))
	}
	if s.CurrentPhase == phaseActions && s.Location < int(locCount) {
		v.Resolving = locKind(s.Location).String()
	}
	for _, pr := range s.Prompts() {
		v.Waiting = append(v.Waiting, WaitingView{Seat: pr.Seat, Kind: pr.Kind, Text: *pr.Text})
	}
	pub := &c.Publishers[s.Publisher]
	v.Publisher = PublisherView{ID: pub.ID, Side: pub.Side}
	vt := &s.r.view
	for i, r := range pub.Rounds {
		v.Publisher.Rounds = append(v.Publisher.Rounds, PublisherRoundView{Text: strings.Join(r.Metrics, " + "), TextSay: vt.publisher[s.Publisher][i],
			Levels: r.Levels, Current: i == s.Round-1})
	}
	for l := locPatent; l < locCount; l++ {
		v.Locations = append(v.Locations, s.locationView(l))
	}
	m := s.market()
	v.BlackMarket = MarketView{BannerTier: m.BannerTier, Gears: s.MarketGears, GearSpaces: m.Gears}
	for t, o := range s.Market {
		v.BlackMarket.Spaces = append(v.BlackMarket.Spaces, MarketSpaceView{Tier: t + 1, Cost: m.Spaces[t].Cost, Effect: effectText(m.Spaces[t].Effect),
			EffectSay: vt.market[s.PlayerCount][t], Owner: engine.Seat(o)})
	}
	bt := &c.Tracks.Buzz
	v.Buzz = BuzzView{Length: bt.Length, RankVP: bt.RankVP}
	for _, f := range s.FlyerAt {
		fl := &c.Flyers[f.Flyer]
		v.Buzz.Flyers = append(v.Buzz.Flyers, FlyerView{Space: f.Space, ID: fl.ID, Color: fl.Color, Effect: effectText(fl.Effect), EffectSay: vt.flyer[f.Flyer]})
	}
	for i, po := range bt.Posters {
		pv := PosterView{Space: po.Space, Effect: effectText(po.Effect), EffectSay: vt.poster[i], Tokens: []engine.Seat{}}
		if len(po.Choice) > 0 {
			pv.Effect = choiceText(po.Choice)
		}
		for seat := range s.Seats {
			if hasInt(s.Seats[seat].Tokens, po.Space) {
				pv.Tokens = append(pv.Tokens, engine.Seat(seat))
			}
		}
		v.Buzz.Posters = append(v.Buzz.Posters, pv)
	}
	v.Buzz.Tickets = []engine.Seat{}
	for _, t := range s.Tickets {
		v.Buzz.Tickets = append(v.Buzz.Tickets, engine.Seat(t))
	}
	v.Income.Spaces = c.Tracks.Income
	for i, w := range c.Tracks.Westminster {
		v.Westminster.Spaces = append(v.Westminster.Spaces, WestminsterSpaceView{Name: w.Name, NameKey: c.keys.west[i],
			Bonus: effectText(w.Bonus), BonusSay: vt.westBonus[i], Salary: w.Salary})
	}
	v.Westminster.Choice, v.Westminster.ChoiceSay = choiceText(c.Tracks.WestminsterV), vt.westV
	v.PocketWatch = WatchView{Holder: engine.Seat(s.Watch), TextSay: vt.watch,
		Text: "side VP: " + strconv.Itoa(c.Tracks.Watch.TakeVP) + " VP when taken; side pounds: " + strconv.Itoa(c.Tracks.Watch.Phase6Pounds) + " pounds each phase 6"}
	if s.Watch >= 0 {
		v.PocketWatch.Side = "vp"
		if s.WatchPounds {
			v.PocketWatch.Side = "pounds"
		}
	}
	v.Decks = DecksView{Patents: len(s.PatentDeck), Characters: len(s.CharDeck), Research: len(s.GreenDeck),
		VioletBlue: len(s.VioletBlue), VioletOrange: len(s.VioletOrange), Loans: len(s.Loans)}
	for _, d := range s.ShareDecks {
		v.Decks.SharesByRound = append(v.Decks.SharesByRound, len(d))
	}
	for seat := range s.Seats {
		p := &s.Seats[seat]
		v.Scores = append(v.Scores, p.VP)
		v.Buzz.Positions = append(v.Buzz.Positions, p.Buzz)
		v.Buzz.TokensLeft = append(v.Buzz.TokensLeft, 2-len(p.Tokens))
		v.Income.Positions = append(v.Income.Positions, p.Income)
		v.Westminster.Positions = append(v.Westminster.Positions, p.West)
		v.Seats = append(v.Seats, s.playerView(seat))
	}
	if viewer >= 0 && int(viewer) < s.PlayerCount {
		v.Private = s.privateView(int(viewer))
	}
	if s.Done {
		res := s.Result()
		v.Result = &ResultView{Scores: res.Scores, Winners: res.Winners, Breakdown: res.Breakdown}
	}
	return v
}

// stack is the face-up stack beside location l, top first (nil for
// locations without one).
func (s *State) stack(l locKind) []int {
	switch l {
	case locPatent:
		return s.PatentDeck
	case locClub:
		return s.CharDeck
	}
	return nil
}

func (s *State) locationView(l locKind) LocationView {
	loc := &s.c.Locations[l]
	side := s.side(l)
	b := &s.Boards[l]
	lv := LocationView{Key: l.String(), Number: loc.Number, Name: loc.Name, NameKey: s.c.keys.loc[l], Resolving: s.CurrentPhase == phaseActions && s.Location == int(l)}
	for i, d := range side.Dice {
		dv := DiceSpaceView{Min: d.Min, Fee: d.Fee, Assistant: d.Assistant, Owner: engine.Seat(b.Dice[i].Owner), Value: b.Dice[i].Value, Moved: b.Dice[i].Done}
		lv.Dice = append(lv.Dice, dv)
	}
	for i, a := range side.Actions {
		lv.Actions = append(lv.Actions, ActionSpaceView{Pounds: a.Pounds, Newspapers: a.Newspapers, Buzz: a.Buzz,
			Owner: engine.Seat(b.Acts[i].Owner), Value: b.Acts[i].Value, Text: actionSpaceText(a), TextSay: actionSpaceSay(a)})
	}
	for _, id := range s.display(l) {
		lv.Display = append(lv.Display, s.cardView(l, id))
	}
	if deck := s.stack(l); len(deck) > 0 {
		top := s.cardView(l, deck[0])
		lv.StackTop = &top
	}
	for i, po := range side.Possibilities {
		lv.Possibilities = append(lv.Possibilities, PossibilityView{Key: po.Key, Text: po.Text, TextKey: po.item, Available: po.MinPlayers <= s.PlayerCount, Used: b.Poss[i] >= 0, By: engine.Seat(b.Poss[i])})
	}
	if l == locPort {
		lv.TicketVP = side.TicketVP
		for _, d := range s.TicketDice {
			lv.TicketDice = append(lv.TicketDice, DieView{Owner: engine.Seat(d.Owner), Value: d.Value})
		}
		lv.TicketsLeft = side.TicketSpaces - len(s.TicketDice)
	}
	if lv.Resolving {
		if i := s.nextDie(); i >= 0 {
			lv.NextDie = &DieView{Owner: engine.Seat(b.Dice[i].Owner), Value: b.Dice[i].Value}
		}
	}
	return lv
}

func actionSpaceText(a ActionSpace) string {
	var parts []string
	if a.Pounds != 0 {
		parts = append(parts, signed(a.Pounds)+" £")
	}
	if a.Newspapers != 0 {
		parts = append(parts, signed(a.Newspapers)+" newspaper")
	}
	if a.Buzz != 0 {
		parts = append(parts, signed(a.Buzz)+" Buzz")
	}
	return strings.Join(parts, ", ")
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// cardView describes a card or tile shown at location l (kind by location).
func (s *State) cardView(l locKind, id int) CardView {
	if id < 0 {
		return CardView{}
	}
	switch l {
	case locPatent:
		return s.patentView(id, "patent")
	case locMuseum:
		return s.researchView(id)
	case locBank:
		sh := &s.c.Shares[id]
		return CardView{Kind: "share", ID: sh.ID, Name: "Share " + sh.ID, VP: sh.VP, Income: sh.Income,
			Effect: "+" + strconv.Itoa(sh.VP) + " VP, +" + strconv.Itoa(sh.Income) + " income", EffectSay: s.r.view.share[id]}
	}
	return s.characterView(id)
}

func (s *State) patentView(id int, kind string) CardView {
	pt := &s.c.Patents[id]
	cv := CardView{Kind: kind, ID: pt.ID, Name: pt.Name, NameKey: s.c.keys.patent[id], Cost: pt.Cost, VP: pt.VP[s.year()], VPByYear: pt.VP,
		Effect: effectText(pt.Effect), EffectSay: s.r.view.patent[id]}
	if kind == "prototype" {
		cv.Name, cv.NameKey = pt.Prototype, s.c.keys.proto[id]
	}
	if pt.link >= 0 {
		cv.Link, cv.LinkKey = s.c.Characters[pt.link].Name, s.c.keys.char[pt.link]
	}
	return cv
}

func (s *State) characterView(id int) CardView {
	ch := &s.c.Characters[id]
	vt := &s.r.view
	cv := CardView{Kind: "character", ID: ch.ID, Name: ch.Name, NameKey: s.c.keys.char[id], Cost: ch.Cost, VP: ch.VP[s.year()], VPByYear: ch.VP,
		Instant: effectText(ch.Instant), Salary: ch.Salary, InstantSay: vt.instant[id], AbilitySay: vt.ability[id], EffectSay: vt.character[id]}
	if len(ch.Ability.Effect) > 0 {
		cv.Ability = "phase " + strconv.Itoa(int(ch.Ability.Phase)) + ": " + effectText(ch.Ability.Effect)
	}
	cv.Effect = joinParts("; ", cv.Instant, cv.Ability)
	if ch.link >= 0 {
		cv.Link, cv.LinkKey = s.c.Patents[ch.link].Name, s.c.keys.patent[ch.link]
	}
	return cv
}

func (s *State) researchView(id int) CardView {
	r := &s.c.Research[id]
	cv := CardView{Kind: "research", ID: r.ID, Name: r.Name, NameKey: s.c.keys.research[id], Color: r.Back, Box: r.Box, Instant: effectText(r.Instant),
		EffectSay: s.r.texts.research[id], InstantSay: s.r.view.researchInstant[id], AbilitySay: s.r.view.researchPhase6[id]}
	if len(r.Phase6) > 0 {
		cv.Ability = "phase 6: " + effectText(r.Phase6)
	}
	cv.Effect = joinParts("; ", cv.Instant, cv.Ability)
	return cv
}

func (s *State) slotViews(p *Player) []SlotView {
	var out []SlotView
	for _, sl := range append(append([]Slot(nil), p.Slots...), p.Extra...) {
		sv := SlotView{Kind: [...]string{"empty", "research", "loan", "note"}[sl.Kind]}
		switch sl.Kind {
		case slotResearch:
			cv := s.researchView(sl.ID)
			sv.Tile = &cv
		case slotLoan:
			sv.LoanVP, sv.Repaid = sl.ID, sl.Repaid
		}
		out = append(out, sv)
	}
	return out
}

func (s *State) playerView(seat int) PlayerView {
	p := &s.Seats[seat]
	mat := &s.c.Mats[p.Mat]
	pv := PlayerView{
		Seat: engine.Seat(seat), Nation: mat.Nation, NationKey: s.c.keys.nation[p.Mat], Landmark: mat.Landmark, Mat: mat.ID + mat.Side,
		Pounds: p.Pounds, Gears: p.Gears, Energy: p.Energy, Newspapers: p.News, VP: p.VP,
		Dice: p.Dice, NewDice: p.New, TicketDice: p.Tick, Submitted: p.Sub, Passed: p.Passed,
		Income: s.c.Tracks.Income[p.Income].Income, Buzz: p.Buzz, Westminster: p.West, Objective: p.Obj,
		Assistants: p.Asst, Market: s.count(seat, metricMarket), Built: s.builtThisRound(seat), Watch: s.Watch == seat,
		Research: s.slotViews(p), Patents: []CardView{}, Prototypes: []CardView{}, Characters: []CardView{}, Shares: []CardView{},
	}
	if s.CurrentPhase >= phasePlace {
		pv.DiceLeft = len(p.Vals)
		pv.DiceValues = cloneInts(p.Shown)
		pv.Unplaced, pv.Placed = cloneInts(p.Vals), placedDice(p)
	}
	for _, sl := range append(append([]Slot(nil), p.Slots...), p.Extra...) {
		if sl.Kind == slotLoan {
			if sl.Repaid {
				pv.Repaid++
			} else {
				pv.Loans++
			}
		}
	}
	for _, i := range p.Patents {
		pv.Patents = append(pv.Patents, s.patentView(i, "patent"))
	}
	for _, i := range p.Protos {
		pv.Prototypes = append(pv.Prototypes, s.patentView(i, "prototype"))
	}
	for _, i := range p.Chars {
		pv.Characters = append(pv.Characters, s.characterView(i))
	}
	for _, i := range p.Shares {
		pv.Shares = append(pv.Shares, s.cardView(locBank, i))
	}
	return pv
}

func (s *State) privateView(seat int) *PrivateView {
	p := &s.Seats[seat]
	mat := &s.c.Mats[p.Mat]
	pv := &PrivateView{Seat: engine.Seat(seat), Nation: mat.Nation, NationKey: s.c.keys.nation[p.Mat], Level: p.Obj, Research: s.slotViews(p),
		Dice: cloneInts(p.Vals), Submitted: p.Sub, FreeActions: s.FreeActions(engine.Seat(seat))}
	if s.CurrentPhase >= phasePlace {
		pv.Dice, pv.Unplaced, pv.Placed = cloneInts(p.Shown), cloneInts(p.Vals), placedDice(p)
	}
	for i, o := range mat.Objective {
		pv.Objective = append(pv.Objective, ObjectiveView{Text: o.Metric + " at least " + strconv.Itoa(o.Min), TextSay: s.r.view.objective[p.Mat][i], VP: o.VP,
			Reached: p.Obj > i, Met: s.count(seat, o.metric) >= o.Min})
	}
	pub := s.playerView(seat)
	pv.Patents, pv.Characters, pv.Prototypes = pub.Patents, pub.Characters, pub.Prototypes
	colour := s.c.Tracks.Westminster[p.West].Salary
	for _, ch := range p.Chars {
		pv.SalaryDue += s.c.Characters[ch].Salary[colour]
	}
	for _, i := range p.Extra {
		pv.ExtraLoans = append(pv.ExtraLoans, i.ID)
	}
	return pv
}

// effectText describes effects in a few words: "+8 £, +1 VP per prototypes".
func effectText(effs []Effect) string {
	parts := make([]string, 0, len(effs))
	for _, e := range effs {
		parts = append(parts, oneEffectText(e))
	}
	return strings.Join(parts, ", ")
}

func oneEffectText(e Effect) string {
	var t string
	switch e.gain {
	case gainPounds:
		t = signed(e.N) + " £"
	case gainVP:
		t = signed(e.N) + " VP"
	case gainGears:
		t = signed(e.N) + " " + plural(e.N, "gear", "gears")
	case gainNewspapers:
		t = signed(e.N) + " " + plural(e.N, "newspaper", "newspapers")
	case gainEnergy, gainIncome, gainBuzz:
		t = signed(e.N) + " " + e.gain.String()
	case gainWestminster:
		t = signed(e.N) + " Westminster"
	case gainAssistant:
		t = "assistant action"
		if e.Free {
			t += " (Black Market placement free)"
		}
	case gainMarketPlace:
		t = "free assistant on the Black Market"
	case gainMarketDown:
		t = "move an assistant down"
	case gainDie:
		t = "a new die"
	case gainGreen:
		t = "use a green bonus"
	case gainMuseum:
		t = "a green research tile"
	case gainVioletBlue:
		t = "a violet research tile (blue box)"
	case gainVioletOrange:
		t = "a violet research tile (orange box)"
	case gainWatch:
		t = "the Pocket Watch"
	case gainTicket:
		t = "ticket: year VP + die value"
	case gainObjective:
		t = "objective level up"
	}
	if e.metric != metricNone {
		t += " per "
		if e.Div > 1 {
			t += strconv.Itoa(e.Div) + " "
		}
		t += e.metric.String()
	}
	return t
}

func choiceText(effs []Effect) string {
	parts := make([]string, 0, len(effs))
	for _, e := range effs {
		parts = append(parts, oneEffectText(e))
	}
	return strings.Join(parts, " or ")
}

// builtThisRound is the number of prototypes seat built in this round's
// phase 5 (none before it).
func (s *State) builtThisRound(seat int) int {
	if s.CurrentPhase < phaseBuild {
		return 0
	}
	return s.Seats[seat].Built
}

// joinParts joins the non-empty parts with sep.
func joinParts(sep string, parts ...string) string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// placedDice are the revealed dice of p that stand on the board: those
// shown less those still to place.
func placedDice(p *Player) []int {
	placed := cloneInts(p.Shown)
	for _, v := range p.Vals {
		for i, x := range placed {
			if x == v {
				placed = append(placed[:i], placed[i+1:]...)
				break
			}
		}
	}
	return placed
}
