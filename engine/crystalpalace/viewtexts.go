package crystalpalace

import "github.com/meeplegames/meeple/engine"

// viewTexts are the words of a View that depend only on the content, as
// data (engine.Text), built once per Rules and shared by every view: a
// Text is never changed once made.
type viewTexts struct {
	patent    []engine.Text // by patent: what building its prototype gives
	instant   []engine.Text // by character: its instant bonus
	ability   []engine.Text // by character: "phase 4: …"
	character []engine.Text // by character: instant and ability
	share     []engine.Text // by share: "+2 VP, +1 income"
	// researchInstant and researchPhase6 are by research tile: its
	// instant bonus, and "phase 6: …" (zero when it has none)
	researchInstant, researchPhase6 []engine.Text
	flyer                           []engine.Text // by flyer
	poster                          []engine.Text // by poster
	westBonus                       []engine.Text // by Westminster space
	westV                           engine.Text   // the bonus choice when already on V
	watch                           engine.Text
	market                          [6][]engine.Text // [players][tier]: the phase 6 benefit
	objective                       [][]engine.Text  // [mat][level]: "Westminster steps at least 3"
	publisher                       [][]engine.Text  // [publisher][round]: "characters + prototypes"
}

func newViewTexts(c *Content, r *Rules) viewTexts {
	var t viewTexts
	for _, pt := range c.Patents {
		t.patent = append(t.patent, effectsText(pt.Effect))
	}
	for _, ch := range c.Characters {
		instant := effectsText(ch.Instant)
		if len(ch.Instant) == 0 {
			instant = engine.Text{}
		}
		var ability engine.Text
		if len(ch.Ability.Effect) > 0 {
			ability = engine.Say("cp.view.ability", engine.Num("Phase", int(ch.Ability.Phase)), engine.Nested("Effect", effectsText(ch.Ability.Effect)))
		}
		t.instant, t.ability = append(t.instant, instant), append(t.ability, ability)
		switch {
		case instant.IsZero():
			t.character = append(t.character, ability)
		case ability.IsZero():
			t.character = append(t.character, instant)
		default:
			t.character = append(t.character, engine.Say("cp.view.both", engine.Nested("Instant", instant), engine.Nested("Ability", ability)))
		}
	}
	for _, rt := range c.Research {
		var instant, phase6 engine.Text
		if len(rt.Instant) > 0 {
			instant = effectsText(rt.Instant)
		}
		if len(rt.Phase6) > 0 {
			phase6 = engine.Say("cp.research.phase6", engine.Nested("Phase6", effectsText(rt.Phase6)))
		}
		t.researchInstant, t.researchPhase6 = append(t.researchInstant, instant), append(t.researchPhase6, phase6)
	}
	for _, sh := range c.Shares {
		t.share = append(t.share, engine.Text{ID: "cp.effects", Args: []engine.Arg{engine.Amount("unit.vp", sh.VP), engine.Amount("unit.income", sh.Income)}})
	}
	for _, f := range c.Flyers {
		t.flyer = append(t.flyer, effectsText(f.Effect))
	}
	for _, po := range c.Tracks.Buzz.Posters {
		t.poster = append(t.poster, posterSay(po))
	}
	for _, w := range c.Tracks.Westminster {
		t.westBonus = append(t.westBonus, effectsText(w.Bonus))
	}
	t.westV = choicesText(c.Tracks.WestminsterV)
	w := c.Tracks.Watch
	t.watch = engine.Say("cp.view.watch_sides", engine.Num("VP", w.TakeVP), engine.Num("Pounds", w.Phase6Pounds))
	for n := 2; n < len(t.market); n++ {
		if m := r.markets[n]; m != nil {
			for _, sp := range m.Spaces {
				t.market[n] = append(t.market[n], effectsText(sp.Effect))
			}
		}
	}
	for _, m := range c.Mats {
		var levels []engine.Text
		for _, o := range m.Objective {
			levels = append(levels, engine.Say("cp.view.objective", engine.Msg("Metric", "cp.metric."+o.metric.String(), 0), engine.Num("Min", o.Min)))
		}
		t.objective = append(t.objective, levels)
	}
	for _, p := range c.Publishers {
		var rounds []engine.Text
		for _, rd := range p.Rounds {
			var sum engine.Text
			for i, m := range rd.metrics {
				if i == 0 {
					sum = engine.Say("cp.view.metric", engine.Msg("Metric", "cp.metric."+m.String(), 0))
					continue
				}
				sum = engine.Say("cp.view.plus", engine.Nested("Sum", sum), engine.Msg("Metric", "cp.metric."+m.String(), 0))
			}
			rounds = append(rounds, sum)
		}
		t.publisher = append(t.publisher, rounds)
	}
	return t
}

// actionSpaceSay is what action space a gives or costs: "+1 £, +1
// newspaper".
func actionSpaceSay(a ActionSpace) engine.Text {
	args := make([]engine.Arg, 0, 3)
	if a.Pounds != 0 {
		args = append(args, engine.Amount("unit.pounds", a.Pounds))
	}
	if a.Newspapers != 0 {
		args = append(args, engine.Amount("unit.newspapers", a.Newspapers))
	}
	if a.Buzz != 0 {
		args = append(args, engine.Amount("unit.buzz", a.Buzz))
	}
	return engine.Text{ID: "cp.effects", Args: args}
}
