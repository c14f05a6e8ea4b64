package crystalpalace

import "github.com/meeplegames/meeple/engine"

// Effects and prompt labels as data (engine.Text) for the wording layer.

// effectPart is effect e as a part of a list (see engine.Arg): "+3 £",
// "+1 VP per prototype", "a new die".
func effectPart(e Effect) engine.Arg {
	var a engine.Arg
	switch e.gain {
	case gainPounds:
		a = engine.Amount("unit.pounds", e.N)
	case gainVP:
		a = engine.Amount("unit.vp", e.N)
	case gainGears:
		a = engine.Amount("unit.gears", e.N)
	case gainNewspapers:
		a = engine.Amount("unit.newspapers", e.N)
	case gainEnergy:
		a = engine.Amount("unit.energy", e.N)
	case gainIncome:
		a = engine.Amount("unit.income", e.N)
	case gainBuzz:
		a = engine.Amount("unit.buzz", e.N)
	case gainWestminster:
		a = engine.Amount("unit.westminster", e.N)
	case gainAssistant:
		a = engine.Msg("", "cp.effect.assistant", 0)
		if e.Free {
			a = engine.Msg("", "cp.effect.assistant_free", 0)
		}
	default:
		a = engine.Msg("", "cp.effect."+e.gain.String(), 0)
	}
	if e.metric == metricNone {
		return a
	}
	a.Name = "What"
	return engine.Part(engine.Nested("", engine.Say("cp.effect.per", a, engine.Num("Div", max(e.Div, 1)),
		engine.Msg("Metric", "cp.metric."+e.metric.String(), 0))))
}

// effectsText is effects effs as one text: "+3 £, +1 newspaper"; the zero
// Text for no effects.
func effectsText(effs []Effect) engine.Text {
	if len(effs) == 0 {
		return engine.Text{}
	}
	args := make([]engine.Arg, len(effs))
	for i, e := range effs {
		args[i] = effectPart(e)
	}
	return engine.Text{ID: "cp.effects", Args: args}
}

// choicesText is the alternatives effs: "+1 energy or +2 Buzz".
func choicesText(effs []Effect) engine.Text {
	args := make([]engine.Arg, len(effs))
	for i, e := range effs {
		args[i] = effectPart(e)
	}
	return engine.Text{ID: "cp.choices", Args: args}
}

// bonusChoicesText is the alternatives effs with what to type for each:
// "+1 energy (bonus energy) or +2 Buzz (bonus buzz)".
func bonusChoicesText(effs []Effect) engine.Text {
	args := make([]engine.Arg, len(effs))
	for i, e := range effs {
		args[i] = engine.Part(engine.Nested("", engine.Say("cp.label.bonus_alt", engine.Nested("What", engine.Text{ID: "cp.effects", Args: []engine.Arg{effectPart(e)}}),
			engine.Code("Key", e.gain.String()))))
	}
	return engine.Text{ID: "cp.choices", Args: args}
}

// posterSay is what poster po pays each phase 6.
func posterSay(po Poster) engine.Text {
	if len(po.Choice) > 0 {
		return choicesText(po.Choice)
	}
	return effectsText(po.Effect)
}

// labelTexts are the prompt labels that depend only on the content, as
// data (see decisionLabels).
type labelTexts struct {
	poster, bonus, target []engine.Text
	posterNow             []engine.Text // by poster: its token and the bonus it pays at once
	watch                 engine.Text
	instant               [][]engine.Text
	dice, revise          [7]engine.Text
	acts                  []engine.Text // by location: the phase 3 prompt there
	place, build          engine.Text
	research              []engine.Text         // by tile: what it does ("+3 £; phase 6: +1 Buzz")
	downGear              [6][]engine.Text      // [players][gears left]: moving down gives a gear
	fixed                 [dPay + 1]engine.Text // by decision kind: the labels that never change; [0] "decide"
}

func newLabelTexts(c *Content) labelTexts {
	var l labelTexts
	l.bonus = append(l.bonus, engine.Say("cp.label.westminster_bonus", engine.Nested("Choices", bonusChoicesText(c.Tracks.WestminsterV))))
	for _, po := range c.Tracks.Buzz.Posters {
		l.poster = append(l.poster, engine.Say("cp.label.poster", engine.Num("Poster", po.Space), engine.Nested("Pays", posterSay(po))))
		l.bonus = append(l.bonus, engine.Say("cp.label.poster_bonus", engine.Num("Poster", po.Space), engine.Nested("Choices", bonusChoicesText(po.Choice))))
		var now engine.Text
		if len(po.Choice) > 0 {
			now = engine.Say("cp.label.poster_now", engine.Num("Poster", po.Space), engine.Nested("Pays", posterSay(po)), engine.Code("Key", po.Choice[0].gain.String()))
		}
		l.posterNow = append(l.posterNow, now)
	}
	for _, pt := range c.Patents {
		l.target = append(l.target, engine.Say("cp.label.target", engine.Item("Prototype", keyProto+pt.ID), engine.Nested("Effect", effectsText(pt.Effect))))
	}
	w := c.Tracks.Watch
	l.watch = engine.Say("cp.label.watch", engine.Num("VP", w.TakeVP), engine.Num("Pounds", w.Phase6Pounds))
	for _, ch := range c.Characters {
		var each []engine.Text
		for _, e := range ch.Instant {
			each = append(each, engine.Say("cp.label.instant", engine.Item("Character", keyChar+ch.ID), engine.Nested("Effect", engine.Text{ID: "cp.effects", Args: []engine.Arg{effectPart(e)}})))
		}
		l.instant = append(l.instant, each)
	}
	for k := range l.dice {
		l.dice[k] = engine.Say("cp.label.dice", engine.Num("Count", k))
		l.revise[k] = engine.Say("cp.label.revise", engine.Num("Count", k))
	}
	l.place, l.build = engine.Say("cp.label.place"), engine.Say("cp.label.build")
	for _, r := range c.Research {
		switch {
		case len(r.Instant) > 0 && len(r.Phase6) > 0:
			l.research = append(l.research, engine.Say("cp.research.both", engine.Nested("Instant", effectsText(r.Instant)), engine.Nested("Phase6", effectsText(r.Phase6))))
		case len(r.Phase6) > 0:
			l.research = append(l.research, engine.Say("cp.research.phase6", engine.Nested("Phase6", effectsText(r.Phase6))))
		default:
			l.research = append(l.research, effectsText(r.Instant))
		}
	}
	l.fixed[0] = engine.Say("cp.label.decide")
	l.fixed[dAssistant] = engine.Say("cp.label.assistant")
	l.fixed[dDown] = engine.Say("cp.label.down")
	l.fixed[dForcedDown] = engine.Say("cp.label.forced_down")
	l.fixed[dGreen] = engine.Say("cp.label.green")
	l.fixed[dLoanSlot] = engine.Say("cp.label.loan_slot")
	for i := range c.Locations {
		l.acts = append(l.acts, engine.Say("cp.label.act", engine.Item("At", keyAt+c.Locations[i].Key)))
	}
	return l
}

// decisionText is decisionLabel as data: shared when it never changes.
func (s *State) decisionText(seat int, t Task) *engine.Text {
	l := &s.r.texts
	switch t.Kind {
	case dAssistant, dForcedDown, dGreen, dLoanSlot:
		return &l.fixed[t.Kind]
	case dDown:
		if g := s.MarketGears; g == 0 {
			return &l.fixed[dDown]
		} else if g < len(l.downGear[s.PlayerCount]) {
			return &l.downGear[s.PlayerCount][g]
		}
		return ptr(engine.Say("cp.label.down_gear", engine.Num("Tier", s.market().BannerTier), engine.Num("Count", s.MarketGears)))
	case dReplace:
		return ptr(engine.Say("cp.label.replace", s.tileArg("Tile", t.Subject)))
	case dPoster:
		if s.posterChoiceNow(seat, t) != nil {
			return &l.posterNow[t.Subject]
		}
		return &l.poster[t.Subject]
	case dBonus:
		return &l.bonus[t.Subject+1]
	case dTarget:
		return &l.target[t.Subject]
	case dWatch:
		return &l.watch
	case dInstant:
		return &l.instant[t.Subject][t.Amount]
	case dPay:
		if t.Why != "" {
			return ptr(engine.Say("cp.label.pay_why", engine.Num("Pounds", t.Amount), engine.Msg("Why", causeID(t.Why), 0), engine.Num("Holding", s.Seats[seat].Pounds)))
		}
		return ptr(engine.Say("cp.label.pay", engine.Num("Pounds", t.Amount), engine.Num("Holding", s.Seats[seat].Pounds)))
	}
	return &l.fixed[0] // "decide"
}

// ptr is a new text t made for one prompt.
func ptr(t engine.Text) *engine.Text { return &t }

// phaseLabel is the label of phase ph's prompt.
func (s *State) phaseLabel(ph phase) *engine.Text {
	switch ph {
	case phasePlace:
		return &s.r.texts.place
	case phaseActions:
		return &s.r.texts.acts[s.Location]
	}
	return &s.r.texts.build
}
