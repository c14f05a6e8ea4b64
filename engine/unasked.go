package engine

// Unasked is implemented by states whose rules know answers that need no
// asking beyond a prompt with a single legal action: a gain declining
// could never improve, two options that are one and the same. The answer
// is still an action like any other, applied with Apply and kept in the
// log, so a log replays the same whether a table asked it or not.
type Unasked interface {
	// Unasked returns the answer to p to apply without asking p.Seat, and
	// why, as the log gives it ("a free gain"); or false.
	Unasked(p Prompt) (action string, why Text, ok bool)
}

// UnaskedAnswer returns the answer to p that a table applies without
// asking, with its reason: the game's own when it implements Unasked (it
// may keep asking a prompt with one action, so that free actions can come
// first), else the one legal action of a prompt that has only one. A
// secret choice is always asked.
func UnaskedAnswer(s State, p Prompt) (action string, why Text, ok bool) {
	if p.Secret {
		return "", Text{}, false
	}
	if u, ok := s.(Unasked); ok {
		return u.Unasked(p)
	}
	return OnlyAnswer(p)
}

// NoteUnasked marks, in events (what applying an unasked answer of seat
// returned), the public event that tells the answer with why it was not
// asked: "P2 discards the Balloon (the only possible answer)". Other
// events are unchanged; events is changed in place and returned.
func NoteUnasked(events []Event, seat Seat, why Text) []Event {
	for i, e := range events {
		if e.Kind == EventAction && e.Seat == seat && !e.Private {
			events[i].Text = Say("engine.unasked.note", Nested("Doing", e.Text), Nested("Why", why))
			return events
		}
	}
	return events
}

// OnlyAnswer returns the one legal action of p, when it has only one.
func OnlyAnswer(p Prompt) (action string, why Text, ok bool) {
	if len(p.Actions) == 1 && !p.Secret {
		return p.Actions[0], Say("engine.unasked.only"), true
	}
	return "", Text{}, false
}

// FirstUnasked returns the first open prompt of s that needs no asking,
// with the answer a table applies and why: the step a table takes before
// it asks anyone.
func FirstUnasked(s State) (p Prompt, action string, why Text, ok bool) {
	for _, p := range s.Prompts() {
		if action, why, ok := UnaskedAnswer(s, p); ok {
			return p, action, why, true
		}
	}
	return Prompt{}, "", Text{}, false
}
