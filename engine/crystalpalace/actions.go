package crystalpalace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/meeplegames/meeple/engine"
)

// verb is the kind of an action.
type verb uint8

const (
	vNone      verb = iota
	vDice           // dice 6 5 3 1
	vPlace          // place 5 westminster 2
	vPass           // pass
	vSkip           // skip (decline an optional decision)
	vTake           // take 3 (display slot)
	vAdvance        // advance (Westminster)
	vPublish        // publish (London Times)
	vUse            // use gears (Port, Waterloo)
	vObjective      // objective (assistant action)
	vPlaceAsst      // market place (assistant action)
	vMoveAsst       // market move 4 (assistant action)
	vDown           // down 4 (move an assistant down)
	vReplace        // replace 3 (research space)
	vGreen          // green research 3 | green market 5 | green watch
	vPoster         // poster (place a Buzz token)
	vBonus          // bonus energy (choose between alternatives)
	vBuild          // build audiobook
	vTarget         // target 2
	vWatch          // watch vp | watch pounds
	vLoan           // loan | loan 3
	vRepay          // repay 3
	vExchange       // exchange die|income|gear|pound
	vBuy            // buy energy|gear
	vSell           // sell energy|gear
	vPay            // pay (a debt, with loans for what is missing)
	vAccept         // accept (take an optional bonus)
	vAsk            // ask down | ask pass (undo a "skip always" or "pass always")
)

// Action is a parsed action. Its fields depend on Verb; Key holds a word
// argument (a location, a card id, a possibility, a resource).
type Action struct {
	Verb verb
	Vals []int // dice values, or numeric arguments
	Key  string
	// Then answers, in order, the decisions the action leads to: the
	// assistant action or the move down after a placement ("place 3
	// patent 2 market place", "place 5 westminster 2 down 4"), the player a
	// prototype is played on ("build crane target 2"). Tail reports that they were given, possibly
	// none ("place 5 westminster 2 only"): the optional decisions Then does
	// not answer are then declined instead of asked. Without a tail (the
	// older notation) each decision is asked on its own.
	Then []Action
	Tail bool
	// Always: the answer holds from now on, and the question is no longer
	// asked ("skip always", "pass always", "bonus energy always"); the
	// matching "ask …" free action asks it again.
	Always bool
}

// greenSource kinds in Action.Key for vGreen.
const (
	srcResearch = "research"
	srcMarket   = "market"
	srcWatch    = "watch"
)

// words is what the verb's canonical text begins with ("" for none).
func (v verb) words() string {
	switch v {
	case vDice:
		return "dice"
	case vPlace:
		return "place"
	case vPass:
		return "pass"
	case vSkip:
		return "skip"
	case vTake:
		return "take"
	case vAdvance:
		return "advance"
	case vPublish:
		return "publish"
	case vUse:
		return "use"
	case vObjective:
		return "objective"
	case vPlaceAsst:
		return "market place"
	case vMoveAsst:
		return "market move"
	case vDown:
		return "down"
	case vReplace:
		return "replace"
	case vGreen:
		return "green"
	case vPoster:
		return "poster"
	case vBonus:
		return "bonus"
	case vBuild:
		return "build"
	case vTarget:
		return "target"
	case vWatch:
		return "watch"
	case vLoan:
		return "loan"
	case vRepay:
		return "repay"
	case vExchange:
		return "exchange"
	case vBuy:
		return "buy"
	case vSell:
		return "sell"
	case vPay:
		return "pay"
	case vAccept:
		return "accept"
	case vAsk:
		return "ask"
	}
	return ""
}

// String is the canonical text of the action; ParseAction reads it back.
func (a Action) String() string {
	if len(a.Vals) == 0 && a.Key == "" && !a.Tail && !a.Always {
		return a.Verb.words() // no arguments: no copy
	}
	var buf [48]byte
	return string(a.appendText(buf[:0]))
}

// appendText appends the action's canonical text to b.
func (a Action) appendText(b []byte) []byte {
	words := a.Verb.words()
	if words == "" {
		return b
	}
	b = append(b, words...)
	num := func(n int) {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	word := func(w string) {
		b = append(b, ' ')
		b = append(b, w...)
	}
	switch a.Verb {
	case vDice:
		for _, v := range a.Vals {
			num(v)
		}
	case vPlace:
		num(a.Vals[0])
		word(a.Key)
		num(a.Vals[1])
	case vTake, vMoveAsst, vDown, vReplace, vTarget, vRepay:
		num(a.Vals[0])
	case vUse, vBonus, vBuild, vWatch, vExchange, vBuy, vSell, vAsk, vPoster:
		word(a.Key)
	case vGreen:
		word(a.Key)
		if len(a.Vals) > 0 {
			num(a.Vals[0])
		}
	case vLoan:
		if len(a.Vals) > 0 {
			num(a.Vals[0])
		}
	}
	if a.Always {
		b = append(b, " always"...)
	}
	if a.Tail {
		if len(a.Then) == 0 {
			b = append(b, " only"...)
		}
		for _, f := range a.Then {
			b = append(b, ' ')
			b = f.appendText(b)
		}
	}
	return b
}

func unknown(text string) error {
	return unknownAction("cp.refuse.parse.unknown", engine.Code("Text", text))
}

// ParseAction reads an action in canonical notation. Extra spaces and upper
// case are accepted; dice values may come in any order.
func ParseAction(text string) (Action, error) {
	var buf [10]string
	f, ok := fields(text, buf[:0], false)
	if !ok || len(f) == 0 {
		return Action{}, unknown(text)
	}
	return parseWords(f, text)
}

// parseWords reads the action written as words f, lower case: text, or
// when text is "" a part of one (a placement without its answer, an
// answer), read without joining its words again.
func parseWords(f []string, text string) (Action, error) {
	ints := func(from, n int) ([]int, bool) {
		if len(f)-from != n {
			return nil, false
		}
		out := make([]int, 0, n)
		for _, s := range f[from:] {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v > 99 {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	oneWord := func(v verb, allowed ...string) (Action, error) {
		if len(f) == 2 && slices.Contains(allowed, f[1]) {
			return Action{Verb: v, Key: f[1]}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.one_of", engine.Code("Verb", f[0]), engine.Typed("Words", allowed))
	}
	oneNum := func(v verb, id string) (Action, error) {
		if vals, ok := ints(1, 1); ok {
			return Action{Verb: v, Vals: vals}, nil
		}
		return Action{}, unknownAction(id)
	}
	bare := func(v verb) (Action, error) {
		if len(f) == 1 {
			return Action{Verb: v}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.bare", engine.Code("Verb", f[0]))
	}
	switch f[0] {
	case "dice":
		if len(f) < 2 || len(f) > 7 {
			return Action{}, unknownAction("cp.refuse.parse.dice")
		}
		vals, ok := ints(1, len(f)-1)
		if !ok {
			return Action{}, unknownAction("cp.refuse.parse.dice_values")
		}
		for _, v := range vals {
			if v < 1 || v > 6 {
				return Action{}, unknownAction("cp.refuse.parse.dice_values")
			}
		}
		slices.SortFunc(vals, func(a, b int) int { return b - a })
		return Action{Verb: vDice, Vals: vals}, nil
	case "place":
		if len(f) > 4 {
			base, err := parseWords(f[:4], "")
			if err != nil {
				return base, err
			}
			return withTail(base, f[4:])
		}
		if len(f) == 4 {
			v, err1 := strconv.Atoi(f[1])
			sp, err2 := strconv.Atoi(f[3])
			if err1 == nil && err2 == nil && v >= 1 && v <= 6 && sp >= 1 && sp <= 99 && locIndex(f[2]) >= 0 {
				return Action{Verb: vPlace, Vals: []int{v, sp}, Key: f[2]}, nil
			}
		}
		return Action{}, unknownAction("cp.refuse.parse.place")
	case "pass":
		if len(f) == 2 && f[1] == "always" {
			return Action{Verb: vPass, Always: true}, nil
		}
		return bare(vPass)
	case "skip":
		if len(f) == 2 && f[1] == "always" {
			return Action{Verb: vSkip, Always: true}, nil
		}
		return bare(vSkip)
	case "ask":
		return oneWord(vAsk, "down", "pass", "bonus", "act")
	case "pay":
		return bare(vPay)
	case "accept":
		return bare(vAccept)
	case "take":
		if len(f) == 3 && f[2] == "always" {
			a, err := parseWords(f[:2], "")
			a.Always = err == nil
			return a, err
		}
		return oneNum(vTake, "cp.refuse.parse.take")
	case "advance":
		if len(f) == 2 && f[1] == "always" {
			return Action{Verb: vAdvance, Always: true}, nil
		}
		return bare(vAdvance)
	case "publish":
		if len(f) == 2 && f[1] == "always" {
			return Action{Verb: vPublish, Always: true}, nil
		}
		return bare(vPublish)
	case "use":
		if len(f) == 2 && isWord(f[1]) {
			return Action{Verb: vUse, Key: f[1]}, nil
		}
		if len(f) == 3 && isWord(f[1]) && f[2] == "always" {
			return Action{Verb: vUse, Key: f[1], Always: true}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.use")
	case "objective":
		return bare(vObjective)
	case "market":
		if len(f) == 2 && f[1] == "place" {
			return Action{Verb: vPlaceAsst}, nil
		}
		if len(f) == 3 && f[1] == "move" {
			if v, err := strconv.Atoi(f[2]); err == nil && v >= 1 && v <= 99 {
				return Action{Verb: vMoveAsst, Vals: []int{v}}, nil
			}
		}
		return Action{}, unknownAction("cp.refuse.parse.market")
	case "down":
		return oneNum(vDown, "cp.refuse.parse.down")
	case "replace":
		return oneNum(vReplace, "cp.refuse.parse.replace")
	case "green":
		switch {
		case len(f) == 2 && f[1] == srcWatch:
			return Action{Verb: vGreen, Key: srcWatch}, nil
		case len(f) == 3 && (f[1] == srcResearch || f[1] == srcMarket):
			if v, err := strconv.Atoi(f[2]); err == nil && v >= 1 && v <= 99 {
				return Action{Verb: vGreen, Key: f[1], Vals: []int{v}}, nil
			}
		}
		return Action{}, unknownAction("cp.refuse.parse.green")
	case "poster":
		// "poster": the token alone; "poster <bonus> [always]": the token
		// and, when its bonus is paid at once, the bonus with it
		switch {
		case len(f) == 2 && isWord(f[1]):
			return Action{Verb: vPoster, Key: f[1]}, nil
		case len(f) == 3 && isWord(f[1]) && f[2] == "always":
			return Action{Verb: vPoster, Key: f[1], Always: true}, nil
		case len(f) == 1:
			return Action{Verb: vPoster}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.poster")
	case "bonus":
		if len(f) == 2 && isWord(f[1]) {
			return Action{Verb: vBonus, Key: f[1]}, nil
		}
		if len(f) == 3 && isWord(f[1]) && f[2] == "always" {
			return Action{Verb: vBonus, Key: f[1], Always: true}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.bonus")
	case "build":
		if len(f) > 2 && isWord(f[1]) {
			return withTail(Action{Verb: vBuild, Key: f[1]}, f[2:])
		}
		if len(f) == 2 && isWord(f[1]) {
			return Action{Verb: vBuild, Key: f[1]}, nil
		}
		return Action{}, unknownAction("cp.refuse.parse.build")
	case "target":
		return oneNum(vTarget, "cp.refuse.parse.target")
	case "watch":
		return oneWord(vWatch, "vp", "pounds")
	case "loan":
		if len(f) == 1 {
			return Action{Verb: vLoan}, nil
		}
		return oneNum(vLoan, "cp.refuse.parse.loan")
	case "repay":
		return oneNum(vRepay, "cp.refuse.parse.repay")
	case "exchange":
		return oneWord(vExchange, "die", "income", "gear", "pound")
	case "buy":
		return oneWord(vBuy, "energy", "gear")
	case "sell":
		return oneWord(vSell, "energy", "gear")
	}
	if text == "" {
		text = strings.Join(f, " ")
	}
	return Action{}, unknown(text)
}

// withTail reads the answers written after a placement or a build (see
// Action.Then): "only", or an assistant action and a move down for a
// placement, a target for a build.
func withTail(a Action, words []string) (Action, error) {
	a.Tail = true
	if a.Verb == vPlace && len(words) == 1 && words[0] == "only" {
		return a, nil
	}
	bad := func() (Action, error) {
		if a.Verb == vBuild {
			return Action{}, unknownAction("cp.refuse.parse.build_target")
		}
		return Action{}, unknownAction("cp.refuse.parse.tail")
	}
	for len(words) > 0 {
		n := 1
		switch {
		case words[0] == "market" && len(words) >= 2 && words[1] == "move":
			n = 3
		case words[0] == "market" || words[0] == "down" || words[0] == "target":
			n = 2
		}
		if n > len(words) {
			return bad()
		}
		f, err := parseWords(words[:n], "")
		if err != nil {
			return bad()
		}
		a.Then = append(a.Then, f)
		words = words[n:]
	}
	if !tailFits(a) {
		return bad()
	}
	return a, nil
}

// tailFits reports whether a's follow-up answers have the shape its verb
// allows: an assistant action or a move down after a placement, a target
// after a build.
func tailFits(a Action) bool {
	switch a.Verb {
	case vBuild:
		return len(a.Then) == 1 && a.Then[0].Verb == vTarget
	case vPlace:
		if len(a.Then) != 1 {
			return false
		}
		switch a.Then[0].Verb {
		case vObjective, vPlaceAsst, vMoveAsst:
			return true
		}
	}
	return false
}

// isWord reports whether s is a plain lower-case identifier.
func isWord(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// locIndex returns the location index of a key, or -1.
func locIndex(key string) int {
	for k := locPatent; k < locCount; k++ {
		if k.String() == key {
			return int(k)
		}
	}
	return -1
}

// fields splits text at spaces into dst, in lower case (without
// allocating when text is lower case already); ok is false when there are
// more words than dst can hold. lowered says text is lower case already.
func fields(text string, dst []string, lowered bool) ([]string, bool) {
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c > ' ' { // the common case: a letter, a digit
			if !lowered && (c >= 'A' && c <= 'Z' || c >= 0x80) {
				return fields(strings.ToLower(text), dst[:0], true)
			}
			if start < 0 {
				start = i
			}
			continue
		}
		switch space := c == ' ' || c == '\t' || c == '\n' || c == '\r'; {
		case space && start >= 0:
			if len(dst) == cap(dst) {
				return dst, false
			}
			dst = append(dst, text[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		if len(dst) == cap(dst) {
			return dst, false
		}
		dst = append(dst, text[start:])
	}
	return dst, true
}
