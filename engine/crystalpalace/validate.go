package crystalpalace

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// gain is the typed form of Effect.Gain.
type gain uint8

const (
	gainNone gain = iota
	gainPounds
	gainVP
	gainGears
	gainEnergy
	gainNewspapers
	gainIncome
	gainBuzz
	gainWestminster
	gainAssistant   // an assistant action (objective or Black Market)
	gainMarketPlace // place an assistant on the Black Market for free
	gainMarketDown  // move one of your assistants down (card event: no gear)
	gainDie         // a new die from the supply, usable next round
	gainGreen       // use one of your green (phase 6) bonuses once
	gainMuseum      // the top green research tile
	gainVioletBlue  // the top violet tile beside the Patent Office
	gainVioletOrange
	gainWatch  // take the Pocket Watch
	gainTicket // the Port's ticket possibility
	gainObjective
	gainCount
)

func (g gain) String() string {
	return [gainCount]string{"", "pounds", "vp", "gears", "energy", "newspapers", "income", "buzz",
		"westminster", "assistant", "market_place", "market_down", "die", "green", "research",
		"research_blue", "research_orange", "watch", "ticket", "objective"}[g]
}

// metric is something of a player that effects and conditions count.
type metric uint8

const (
	metricNone metric = iota
	metricCharacters
	metricPrototypes
	metricPatents
	metricResearch
	metricInstantResearch
	metricGreenResearch
	metricWestminster
	metricDice
	metricBuzz
	metricShares
	metricIncome
	metricMarket
	metricNewspapers
	metricGears
	metricEnergy
	metricLoans
	metricPounds
	metricCount
)

func (m metric) String() string {
	return [metricCount]string{"", "characters", "prototypes", "patents", "research",
		"instant_research", "green_research", "westminster", "dice", "buzz", "shares", "income",
		"market", "newspapers", "gears", "energy", "loans", "pounds"}[m]
}

func parseGain(s string) (gain, bool) {
	for i := gainPounds; i < gainCount; i++ {
		if i.String() == s {
			return i, true
		}
	}
	return gainNone, false
}

func parseMetric(s string) (metric, bool) {
	for i := metricCharacters; i < metricCount; i++ {
		if i.String() == s {
			return i, true
		}
	}
	return metricNone, false
}

// locKind is the location a board stands for.
type locKind uint8

const (
	locPatent locKind = iota
	locMuseum
	locBank
	locWestminster
	locClub
	locTimes
	locPort
	locWaterloo
	locCount
)

func (k locKind) String() string {
	return [locCount]string{"patent", "museum", "bank", "westminster", "club", "times", "port", "waterloo"}[k]
}

// validator collects the first content error with its file and entry.
type validator struct {
	file, entry string
	err         error
	lines       map[string][]int // file → line of each entry's [[table]] header
}

func (v *validator) fail(field, format string, args ...any) {
	if v.err == nil {
		v.err = &ContentError{File: v.file, Entry: v.entry, Field: field, Problem: fmt.Sprintf(format, args...)}
	}
}

func (v *validator) at(file, entry string) { v.file, v.entry = file, entry }

// atEntry names the i-th entry of file: by id (kind "patent", id
// "audiobook") or number, with the line of its header when known.
func (v *validator) atEntry(file, kind, id string, i int) {
	v.file, v.entry = file, entryName(kind, id, i)
	if lines := v.lines[file]; i < len(lines) {
		v.entry += " (line " + strconv.Itoa(lines[i]) + ")"
	}
}

// Bounds of content numbers: what the game can use. Every number a content
// file holds is checked against one of them at load, so that no file can
// make the engine loop for ever, allocate without end or overflow.
const (
	maxAmount  = 50  // one gain, cost, fee, price or card's VP
	maxVP      = 100 // VP of one card, tile, level or track space
	maxSpaces  = 12  // dice or action spaces of a board, research spaces of a mat
	maxDisplay = 8   // cards or tiles on display at one location
	maxTiers   = 20  // Black Market spaces
	maxTrack   = 100 // Buzz track length; publisher thresholds
	maxListLen = 20  // lists such as Westminster spaces, posters, levels, possibilities
	maxLoans   = 100 // tiles of one loan kind
	maxID      = 24  // an id, typed in commands
	maxName    = 60  // a name shown in the log, prompts and images
	maxText    = 100 // a possibility's text, one prompt line
)

// text fails when s, shown to players, is longer than max characters.
func (v *validator) text(field, s string, max int) {
	if n := utf8.RuneCountInString(s); n > max {
		v.fail(field, "%d characters is too long (at most %d)", n, max)
	}
}

// within fails unless lo <= n <= hi.
func (v *validator) within(field string, n, lo, hi int) {
	if n < lo || n > hi {
		v.fail(field, "%d is out of range (want %d to %d)", n, lo, hi)
	}
}

// count fails unless a list's length is within lo..hi.
func (v *validator) count(field string, n, lo, hi int) {
	if n < lo || n > hi {
		v.fail(field, "%d entries is out of range (want %d to %d)", n, lo, hi)
	}
}

// identity checks an entry's id (present, unique) and name, and records the
// id's index in byID.
func (v *validator) identity(byID map[string]int, id, name string, i int) {
	if id == "" {
		v.fail("id", "missing")
	}
	if _, dup := byID[id]; dup {
		v.fail("id", "duplicate")
	}
	byID[id] = i
	if name == "" {
		v.fail("name", "missing")
	}
	v.text("id", id, maxID)
	v.text("name", name, maxName)
}

func (v *validator) effects(field string, effs []Effect) {
	for i := range effs {
		e := &effs[i]
		f := field + "[" + strconv.Itoa(i) + "]"
		g, ok := parseGain(e.Gain)
		if !ok {
			v.fail(f+".gain", "unknown gain %q", e.Gain)
			continue
		}
		e.gain = g
		v.within(f+".n", e.N, -maxAmount, maxAmount)
		v.within(f+".div", e.Div, 0, maxAmount)
		if e.Per != "" {
			m, ok := parseMetric(e.Per)
			if !ok {
				v.fail(f+".per", "unknown metric %q", e.Per)
			}
			e.metric = m
			if e.Div < 0 {
				v.fail(f+".div", "must not be negative")
			}
		}
		switch g {
		case gainPounds, gainVP, gainGears, gainEnergy, gainNewspapers, gainIncome, gainBuzz, gainWestminster:
			if e.N == 0 {
				v.fail(f+".n", "missing")
			}
		}
	}
}

func (v *validator) vp(field string, vp []int) {
	if len(vp) != 3 {
		v.fail(field, "want 3 values (1849, 1850, 1851), got %d", len(vp))
	}
	for _, n := range vp {
		v.within(field, n, -maxVP, maxVP)
	}
}

func (v *validator) cost(c Cost) {
	v.within("cost.pounds", c.Pounds, 0, maxAmount)
	v.within("cost.gears", c.Gears, 0, maxAmount)
	v.within("cost.energy", c.Energy, 0, maxAmount)
}

func (v *validator) players(field string, ps []int) {
	if len(ps) == 0 {
		v.fail(field, "missing")
	}
	for _, p := range ps {
		if p < 2 || p > 5 {
			v.fail(field, "player count %d outside 2-5", p)
		}
	}
}

// validate checks every entry and fills the typed fields.
func (c *Content) validate() error {
	v := &validator{lines: c.entryLines}
	c.patentByID = map[string]int{}
	c.charByID = map[string]int{}
	for i := range c.Patents {
		p := &c.Patents[i]
		v.atEntry("patents.toml", "patent", p.ID, i)
		v.identity(c.patentByID, p.ID, p.Name, i)
		if p.Prototype == "" {
			v.fail("prototype", "missing")
		}
		v.text("prototype", p.Prototype, maxName)
		v.cost(p.Cost)
		v.vp("vp", p.VP)
		v.effects("effect", p.Effect)
	}
	for i := range c.Characters {
		ch := &c.Characters[i]
		v.atEntry("characters.toml", "character", ch.ID, i)
		v.identity(c.charByID, ch.ID, ch.Name, i)
		v.cost(ch.Cost)
		v.vp("vp", ch.VP)
		if len(ch.Salary) == 0 {
			v.fail("salary", "missing")
		}
		for _, n := range ch.Salary {
			v.within("salary", n, 0, maxAmount)
		}
		v.effects("instant", ch.Instant)
		if len(ch.Ability.Effect) > 0 && (ch.Ability.Phase < phaseSalaries || ch.Ability.Phase > phaseIncome) {
			v.fail("ability.phase", "must be 4, 5 or 6")
		}
		v.effects("ability.effect", ch.Ability.Effect)
	}
	for i := range c.Patents {
		p := &c.Patents[i]
		p.link = -1
		if p.Link != "" {
			j, ok := c.charByID[p.Link]
			if !ok {
				v.atEntry("patents.toml", "patent", p.ID, i)
				v.fail("link", "no character %q", p.Link)
			}
			p.link = j
		}
	}
	for i := range c.Characters {
		ch := &c.Characters[i]
		ch.link = -1
		if ch.Link != "" {
			j, ok := c.patentByID[ch.Link]
			if !ok {
				v.atEntry("characters.toml", "character", ch.ID, i)
				v.fail("link", "no patent %q", ch.Link)
			}
			ch.link = j
		}
	}
	salaries := 0
	for _, w := range c.Tracks.Westminster {
		salaries = max(salaries, w.Salary+1)
	}
	for i, ch := range c.Characters {
		if len(ch.Salary) > 0 && len(ch.Salary) != salaries {
			v.atEntry("characters.toml", "character", ch.ID, i)
			v.fail("salary", "want %d values (one per salary colour), got %d", salaries, len(ch.Salary))
		}
	}
	ids := map[string]bool{}
	for i := range c.Research {
		r := &c.Research[i]
		v.atEntry("research.toml", "tile", r.ID, i)
		if r.ID == "" || ids[r.ID] {
			v.fail("id", "missing or duplicate")
		}
		ids[r.ID] = true
		v.text("id", r.ID, maxID)
		v.text("name", r.Name, maxName)
		switch {
		case r.Back == "green" && r.Box == "":
		case r.Back == "violet" && (r.Box == "blue" || r.Box == "orange"):
		default:
			v.fail("back", "want green, or violet with box blue or orange")
		}
		if len(r.Instant) == 0 && len(r.Phase6) == 0 {
			v.fail("instant", "a tile needs an instant or a phase6 effect")
		}
		v.effects("instant", r.Instant)
		v.effects("phase6", r.Phase6)
	}
	for i, s := range c.Shares {
		v.atEntry("shares.toml", "share", s.ID, i)
		v.text("id", s.ID, maxID)
		if s.Round < 1 || s.Round > 5 {
			v.fail("round", "must be 1-5")
		}
		if s.VP == 0 && s.Income == 0 {
			v.fail("vp", "a share needs vp or income")
		}
		v.within("vp", s.VP, -maxVP, maxVP)
		v.within("income", s.Income, -maxAmount, maxAmount)
	}
	for r := 1; r <= 5; r++ {
		n := 0
		for _, s := range c.Shares {
			if s.Round == r {
				n++
			}
		}
		if n < 3 {
			v.at("shares.toml", "")
			v.fail("round", "round %d has %d shares, want at least 3", r, n)
		}
	}
	for i := range c.Publishers {
		p := &c.Publishers[i]
		v.atEntry("publishers.toml", "publisher", p.ID+p.Side, i)
		v.text("id", p.ID+p.Side, maxID)
		if len(p.Rounds) != 5 {
			v.fail("round", "want 5 rounds, got %d", len(p.Rounds))
		}
		for j := range p.Rounds {
			pr := &p.Rounds[j]
			f := "round[" + strconv.Itoa(j) + "]"
			if len(pr.Metrics) == 0 {
				v.fail(f+".metrics", "missing")
			}
			pr.metrics = pr.metrics[:0]
			for _, m := range pr.Metrics {
				mm, ok := parseMetric(m)
				if !ok {
					v.fail(f+".metrics", "unknown metric %q", m)
				}
				pr.metrics = append(pr.metrics, mm)
			}
			if len(pr.Levels) == 0 {
				v.fail(f+".levels", "missing")
			}
			v.count(f+".levels", len(pr.Levels), 1, maxListLen)
			for _, lv := range pr.Levels {
				v.within(f+".levels.min", lv.Min, 0, maxTrack)
				v.within(f+".levels.buzz", lv.Buzz, 0, maxTrack)
			}
		}
	}
	if len(c.Publishers) == 0 {
		v.at("publishers.toml", "")
		v.fail("publisher", "missing")
	}
	for i := range c.Mats {
		m := &c.Mats[i]
		v.atEntry("mats.toml", "mat", m.ID+m.Side, i)
		v.text("id", m.ID+m.Side, maxID)
		if m.Nation == "" {
			v.fail("nation", "missing")
		}
		v.text("nation", m.Nation, maxName)
		v.text("landmark", m.Landmark, maxName)
		v.within("research_spaces", m.ResearchSpaces, 1, maxSpaces)
		if len(m.Objective) != 3 {
			v.fail("objective", "want 3 levels, got %d", len(m.Objective))
		}
		for j := range m.Objective {
			o := &m.Objective[j]
			mm, ok := parseMetric(o.Metric)
			if !ok {
				v.fail("objective["+strconv.Itoa(j)+"].metric", "unknown metric %q", o.Metric)
			}
			o.metric = mm
			v.within("objective["+strconv.Itoa(j)+"].min", o.Min, 0, maxTrack)
			v.within("objective["+strconv.Itoa(j)+"].vp", o.VP, -maxVP, maxVP)
		}
	}
	if len(c.Mats) < 5 {
		v.at("mats.toml", "")
		v.fail("mat", "want at least 5 mat sides, got %d", len(c.Mats))
	}
	for i := range c.Flyers {
		f := &c.Flyers[i]
		v.atEntry("flyers.toml", "flyer", f.ID, i)
		v.text("id", f.ID, maxID)
		if f.Color != "blue" && f.Color != "green" && f.Color != "violet" {
			v.fail("color", "want blue, green or violet")
		}
		if len(f.Effect) == 0 {
			v.fail("effect", "missing")
		}
		v.effects("effect", f.Effect)
	}
	c.loanVP = c.loanVP[:0]
	for i, l := range c.Loans {
		v.atEntry("loans.toml", "loan", strconv.Itoa(l.VP), i)
		v.within("vp", l.VP, -maxVP, -1)
		v.within("count", l.Count, 1, maxLoans)
		if v.err != nil {
			break
		}
		for k := 0; k < l.Count; k++ {
			c.loanVP = append(c.loanVP, l.VP)
		}
	}
	c.validateBoards(v)
	c.validateTracks(v)
	c.nameItems(v)
	return v.err
}

func (c *Content) validateBoards(v *validator) {
	if len(c.Locations) != int(locCount) {
		v.at("locations.toml", "")
		v.fail("location", "want %d locations, got %d", locCount, len(c.Locations))
		return
	}
	for i := range c.Locations {
		l := &c.Locations[i]
		v.atEntry("locations.toml", "location", l.Key, i)
		if l.Key != locKind(i).String() {
			v.fail("key", "location %d must be %q", i+1, locKind(i).String())
		}
		l.kind = locKind(i)
		v.text("name", l.Name, maxName)
		for n := 2; n <= 5; n++ {
			if c.side(l, n) == nil {
				v.fail("side", "no side for %d players", n)
			}
		}
		for j := range l.Sides {
			s := &l.Sides[j]
			f := "side[" + strconv.Itoa(j) + "]"
			v.players(f+".players", s.Players)
			v.count(f+".dice", len(s.Dice), 1, maxSpaces)
			for _, d := range s.Dice {
				v.within(f+".dice.min", d.Min, 1, 6)
				v.within(f+".dice.fee", d.Fee, 0, maxAmount)
			}
			v.count(f+".actions", len(s.Actions), 1, maxSpaces)
			for _, a := range s.Actions {
				v.within(f+".actions.pounds", a.Pounds, -maxAmount, maxAmount)
				v.within(f+".actions.newspapers", a.Newspapers, 0, maxAmount)
				v.within(f+".actions.buzz", a.Buzz, 0, maxAmount)
			}
			switch l.kind {
			case locPatent, locMuseum, locBank, locClub:
				v.within(f+".display", s.Display, 1, maxDisplay)
			case locPort, locWaterloo:
				v.count(f+".possibility", len(s.Possibilities), 1, maxListLen)
				for k := range s.Possibilities {
					p := &s.Possibilities[k]
					v.effects(f+".possibility["+strconv.Itoa(k)+"].effect", p.Effect)
					for _, e := range p.Effect {
						if e.gain == gainTicket {
							p.ticket = true
						}
					}
					if p.Key == "" || p.Group == "" {
						v.fail(f+".possibility["+strconv.Itoa(k)+"].key", "key and group required")
					}
					v.text(f+".possibility["+strconv.Itoa(k)+"].key", p.Key, maxID)
					v.text(f+".possibility["+strconv.Itoa(k)+"].group", p.Group, maxID)
					v.text(f+".possibility["+strconv.Itoa(k)+"].text", p.Text, maxText)
					v.within(f+".possibility["+strconv.Itoa(k)+"].min_players", p.MinPlayers, 0, 5)
				}
				if l.kind == locPort && (len(s.TicketVP) != 3 || s.TicketSpaces < 1) {
					v.fail(f+".ticket_vp", "the Port needs 3 ticket_vp values and ticket_spaces")
				}
				for _, n := range s.TicketVP {
					v.within(f+".ticket_vp", n, -maxVP, maxVP)
				}
				v.within(f+".ticket_spaces", s.TicketSpaces, 0, maxSpaces)
			}
		}
	}
	for i := range c.Markets {
		m := &c.Markets[i]
		v.atEntry("market.toml", "market", "", i)
		v.players("players", m.Players)
		if len(m.Spaces) < 3 || m.BannerTier < 1 || m.BannerTier > len(m.Spaces) || m.Gears < 0 {
			v.fail("space", "need at least 3 spaces and a banner tier among them")
		}
		v.count("space", len(m.Spaces), 3, maxTiers)
		v.within("gears", m.Gears, 0, maxAmount)
		for j := range m.Spaces {
			v.within("space["+strconv.Itoa(j)+"].cost", m.Spaces[j].Cost, 0, maxAmount)
			v.effects("space["+strconv.Itoa(j)+"].effect", m.Spaces[j].Effect)
		}
	}
	for n := 2; n <= 5; n++ {
		if c.market(n) == nil {
			v.at("market.toml", "")
			v.fail("players", "no Black Market side for %d players", n)
		}
	}
}

func (c *Content) validateTracks(v *validator) {
	t := &c.Tracks
	v.at("tracks.toml", "buzz")
	v.within("length", t.Buzz.Length, 10, maxTrack)
	v.count("poster", len(t.Buzz.Posters), 0, maxListLen)
	v.within("tickets", t.Buzz.Tickets, 0, 5)
	for _, n := range t.Buzz.RankVP {
		v.within("rank_vp", n, -maxVP, maxVP)
	}
	for _, col := range []struct {
		name   string
		spaces []int
	}{{"blue_flyers", t.Buzz.BlueFlyers}, {"green_flyers", t.Buzz.GreenFlyers}, {"violet_flyers", t.Buzz.VioletFlyers}} {
		n := 0
		for _, f := range c.Flyers {
			if col.name[:len(f.Color)] == f.Color {
				n++
			}
		}
		if len(col.spaces) > n {
			v.fail(col.name, "%d spaces but only %d flyers of that colour", len(col.spaces), n)
		}
		for _, s := range col.spaces {
			if s < 1 || s >= t.Buzz.Length {
				v.fail(col.name, "space %d off the track", s)
			}
		}
	}
	for i := range t.Buzz.Posters {
		p := &t.Buzz.Posters[i]
		v.effects("poster["+strconv.Itoa(i)+"].effect", p.Effect)
		v.effects("poster["+strconv.Itoa(i)+"].choice", p.Choice)
		if p.Space < 1 || p.Space > t.Buzz.Length {
			v.fail("poster["+strconv.Itoa(i)+"].space", "off the track")
		}
	}
	v.count("rank_vp", len(t.Buzz.RankVP), 1, 5)
	v.at("tracks.toml", "income")
	v.count("income", len(t.Income), 2, maxTrack)
	for _, sp := range t.Income {
		v.within("income.income", sp.Income, 0, maxAmount)
	}
	if t.IncomeStart < 0 || t.IncomeStart >= len(t.Income) {
		v.fail("income_start", "start off the track")
	}
	v.at("tracks.toml", "westminster")
	v.count("westminster", len(t.Westminster), 2, maxListLen)
	for i := range t.Westminster {
		v.text("westminster["+strconv.Itoa(i)+"].name", t.Westminster[i].Name, maxID)
		v.within("westminster["+strconv.Itoa(i)+"].salary", t.Westminster[i].Salary, 0, maxListLen-1)
		v.effects("westminster["+strconv.Itoa(i)+"].bonus", t.Westminster[i].Bonus)
	}
	v.effects("westminster_v", t.WestminsterV)
	v.at("tracks.toml", "rounds")
	if len(t.Years) != 5 || len(t.RoundYear) != 5 {
		v.fail("years", "want 5 round names and 5 round_year entries")
	}
	for i, y := range t.Years {
		v.text("years["+strconv.Itoa(i)+"]", y, maxID)
	}
	for _, y := range t.RoundYear {
		if y < 0 || y > 2 {
			v.fail("round_year", "must be 0, 1 or 2")
		}
	}
	v.at("tracks.toml", "economy")
	e := t.Economy
	for _, b := range []struct {
		field     string
		n, lo, hi int
	}{
		{"start_pounds", e.StartPounds, 0, 10 * maxAmount},
		{"start_gears", e.StartGears, 0, maxAmount},
		{"start_energy", e.StartEnergy, 0, maxAmount},
		{"start_vp", e.StartVP, -maxVP, maxVP},
		{"start_dice", e.StartDice, 1, 6},
		{"max_dice", e.MaxDice, 1, 6}, // a dice action names at most 6 values
		{"assistants", e.Assistants, 2, maxTiers},
		{"energy_pounds", e.EnergyPounds, 1, maxAmount},
		{"gear_pounds", e.GearPounds, 1, maxAmount},
		{"gear_newspapers", e.GearNewspapers, 1, maxAmount},
		{"sell_gear", e.SellGear, 0, maxAmount},
		{"sell_energy", e.SellEnergy, 0, maxAmount},
		{"die_newspapers", e.DieNewspapers, 1, maxAmount},
		{"income_newspapers", e.IncomeNewspapers, 1, maxAmount},
		{"pound_newspapers", e.PoundNewspapers, 1, maxAmount},
		{"max_newspapers", e.MaxNewspapers, 1, maxAmount},
		{"loan_pounds", e.LoanPounds, 1, maxAmount},
		{"repay_pounds", e.RepayPounds, 1, maxAmount},
		{"repaid_vp", e.RepaidVP, -maxVP, 0},
		{"compensation", e.Compensation, 0, maxAmount},
		{"note_pounds", e.NotePounds, 1, maxAmount},
		{"empty_space_vp", e.EmptySpaceVP, -maxVP, 0},
		{"expense_steps", e.ExpenseSteps, 0, maxTrack},
		{"prototypes_per_round", e.PrototypesPerRound, 1, maxListLen},
		{"link_vp", e.LinkVP, 0, maxVP},
		{"red_space_vp", e.RedSpaceVP, -maxVP, 0},
	} {
		v.within(b.field, b.n, b.lo, b.hi)
	}
	v.count("market_vp", len(e.MarketVP), 0, maxTiers)
	for _, n := range e.MarketVP {
		v.within("market_vp", n, 0, maxVP)
	}
	v.at("tracks.toml", "pocket_watch")
	v.within("take_vp", t.Watch.TakeVP, 0, maxVP)
	v.within("phase6_pounds", t.Watch.Phase6Pounds, 0, maxAmount)
	v.at("tracks.toml", "economy")
	if e.StartDice < 1 || e.MaxDice < e.StartDice || e.Assistants < 2 || e.MaxNewspapers < 1 || e.LoanPounds < 1 {
		v.fail("start_dice", "start_dice, max_dice, assistants, max_newspapers and loan_pounds must be set")
	}
	if e.EnergyPounds < 1 || e.GearPounds < 1 || e.GearNewspapers < 1 || e.DieNewspapers < 1 || e.IncomeNewspapers < 1 || e.PoundNewspapers < 1 {
		v.fail("energy_pounds", "prices must be positive")
	}
}

// side returns the board side of l used with n players.
func (c *Content) side(l *Location, n int) *BoardSide {
	for i := range l.Sides {
		for _, p := range l.Sides[i].Players {
			if p == n {
				return &l.Sides[i]
			}
		}
	}
	return nil
}

// market returns the Black Market side used with n players.
func (c *Content) market(n int) *Market {
	for i := range c.Markets {
		for _, p := range c.Markets[i].Players {
			if p == n {
				return &c.Markets[i]
			}
		}
	}
	return nil
}
