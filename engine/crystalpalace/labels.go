package crystalpalace

import "github.com/meeplegames/meeple/engine"

// Effects and prompt labels as data (engine.Text) for the wording layer,
// beside the English strings of effectText and decisionLabel that views,
// descriptions and refusals still use.

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

// effectsText is effects effs as one text: "+3 £, +1 newspaper".
func effectsText(effs []Effect) engine.Text {
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
	watch                 engine.Text
	instant               [][]engine.Text
	dice                  [7]engine.Text
	acts                  []engine.Text // by location: the phase 3 prompt there
}

func newLabelTexts(c *Content) labelTexts {
	var l labelTexts
	l.bonus = append(l.bonus, engine.Say("cp.label.westminster_bonus", engine.Nested("Choices", bonusChoicesText(c.Tracks.WestminsterV))))
	for _, po := range c.Tracks.Buzz.Posters {
		l.poster = append(l.poster, engine.Say("cp.label.poster", engine.Num("Poster", po.Space), engine.Nested("Pays", posterSay(po))))
		l.bonus = append(l.bonus, engine.Say("cp.label.poster_bonus", engine.Num("Poster", po.Space), engine.Nested("Choices", bonusChoicesText(po.Choice))))
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
	}
	for i := range c.Locations {
		l.acts = append(l.acts, engine.Say("cp.label.act", engine.Item("At", keyAt+c.Locations[i].Key)))
	}
	return l
}

// decisionText is decisionLabel as data.
func (s *State) decisionText(seat int, t Task) engine.Text {
	l := &s.r.texts
	switch t.K {
	case dAssistant:
		return engine.Say("cp.label.assistant")
	case dDown:
		if s.MarketGears > 0 {
			return engine.Say("cp.label.down_gear", engine.Num("Tier", s.market().BannerTier), engine.Num("Count", s.MarketGears))
		}
		return engine.Say("cp.label.down")
	case dForcedDown:
		return engine.Say("cp.label.forced_down")
	case dGreen:
		return engine.Say("cp.label.green")
	case dReplace:
		return engine.Say("cp.label.replace", s.tileArg("Tile", t.X))
	case dLoanSlot:
		return engine.Say("cp.label.loan_slot")
	case dPoster:
		return l.poster[t.X]
	case dBonus:
		return l.bonus[t.X+1]
	case dTarget:
		return l.target[t.X]
	case dWatch:
		return l.watch
	case dInstant:
		return l.instant[t.X][t.N]
	case dPay:
		if t.Why != "" {
			return engine.Say("cp.label.pay_why", engine.Num("Pounds", t.N), engine.Msg("Why", causeID(t.Why), 0), engine.Num("Holding", s.P[seat].Pounds))
		}
		return engine.Say("cp.label.pay", engine.Num("Pounds", t.N), engine.Num("Holding", s.P[seat].Pounds))
	}
	return engine.Say("cp.label.decide")
}

// phaseLabel is the label of phase ph's prompt at location loc.
func (s *State) phaseLabel(ph int) engine.Text {
	switch ph {
	case 2:
		return engine.Say("cp.label.place")
	case 3:
		return s.r.texts.acts[s.Loc]
	}
	return engine.Say("cp.label.build")
}

// reviseLabel labels the prompt to change dice already chosen.
func reviseLabel(dice int) engine.Text {
	return engine.Say("cp.label.revise", engine.Num("Count", dice))
}
