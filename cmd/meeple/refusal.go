package main

import (
	"errors"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

// wordedRefusal is a game's refusal written for the person at the command
// line: the rule's reason in words, the refusal kept for errors.Is.
type wordedRefusal struct {
	text string
	err  error
}

func (w *wordedRefusal) Error() string { return w.text }
func (w *wordedRefusal) Unwrap() error { return w.err }

// worded returns err with a game's refusal written in p's language (in
// English when p is nil), naming rules' content items; other errors as
// they are.
func worded(p *locale.Printer, rules engine.Rules, err error) error {
	var rule *engine.RuleError
	if !errors.As(err, &rule) {
		return err
	}
	if p == nil {
		cat, cerr := locale.New()
		if cerr != nil {
			return err
		}
		p = cat.For(locale.English)
	}
	return &wordedRefusal{text: wording.ForRules(p, rules, nil).Refusal(err), err: err}
}
