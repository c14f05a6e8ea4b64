package engine

import "testing"

// Dotted joins the parts that say something, in order, and says nothing
// when none does.
func TestDotted(t *testing.T) {
	a, b, c := Say("a"), Say("b"), Say("c")
	if got := Dotted(); !got.IsZero() {
		t.Errorf("no parts: %+v", got)
	}
	if got := Dotted(Text{}, a, Text{}); got.ID != "a" {
		t.Errorf("one part: %+v", got)
	}
	got := Dotted(a, Text{}, b, c)
	outer, _ := got.Arg("A")
	last, _ := got.Arg("B")
	inner, _ := outer.Sub.Arg("A")
	mid, _ := outer.Sub.Arg("B")
	if got.ID != DotID || outer.Sub.ID != DotID || inner.Sub.ID != "a" || mid.Sub.ID != "b" || last.Sub.ID != "c" {
		t.Errorf("a · b · c: %+v", got)
	}
}

// TopicsOf names each topic's messages after its typed name.
func TestTopicsOf(t *testing.T) {
	got := TopicsOf("cp.topic.", "phase 3", "loans")
	if len(got) != 2 || got[0].Name != "phase 3" || got[0].Title.ID != "cp.topic.phase_3.title" || got[1].Text.ID != "cp.topic.loans.text" {
		t.Errorf("%+v", got)
	}
}
