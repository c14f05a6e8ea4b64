package engine

// Observable is implemented by states that hold something one seat may not
// see: other seats' secret choices, the order of face-down piles, the
// random generator that will draw from them.
type Observable interface {
	// Observe returns a copy of the state as seat knows it, with everything
	// seat cannot see put in one fixed form: piles in a set order, other
	// seats' unrevealed choices withdrawn (their prompts open again), the
	// random generator zeroed. Two states that seat cannot tell apart
	// observe to equal states, so a computer player handed the observation
	// cannot decide on anything it could not know.
	Observe(seat Seat) State
}

// Observe returns s as seat knows it (see Observable): a copy of s when s
// hides nothing.
func Observe(s State, seat Seat) State {
	if o, ok := s.(Observable); ok {
		return o.Observe(seat)
	}
	return s.Clone()
}
