package engine

// Describer is implemented by game states that can say in a few words
// what an action would do for a seat, for a player choosing from a list
// (autocomplete, menus, the terminal's lists): "Reform Club · fee 2 £ ·
// assistant action". Describe returns the zero Text when the action is not
// legal for seat now or the words would add nothing; it changes nothing and
// uses only what seat may see.
type Describer interface {
	Describe(seat Seat, action string) Text
}

// DotID is the id of the message that joins two parts of a description,
// "A · B" (arguments A and B).
const DotID = "describe.dot"

// Dotted joins the texts that say something: "a · b · c"; the zero Text
// when none does.
func Dotted(texts ...Text) Text {
	var out Text
	for _, t := range texts {
		switch {
		case t.IsZero():
		case out.IsZero():
			out = t
		default:
			out = Say(DotID, Nested("A", out), Nested("B", t))
		}
	}
	return out
}
