package eightydays

import "github.com/meeplegames/meeple/engine"

// Topics implements engine.Rulebook: the rules in short, in Meeple's words.
func (r *Rules) Topics() []engine.Topic {
	return []engine.Topic{
		{Name: "goal", Title: "The goal",
			Text: "Be the first to travel the 80 spaces from London back to London. You may only come home with no Rumor card left and 10£ or less in hand after paying for the last move. Everyone starts in London with 80£ and 3 Rumor cards; a random player goes first and turns go round the table."},
		{Name: "moving", Title: "Moving forward (move N)",
			Text: "On your turn move your pawn forward to any free space that is not a Layover, paying the bank 1£ for 1 space, 3£ for 2, 6£ for 3, 10£ for 4, and so on (n×(n+1)/2). Every space in between counts, occupied or not. Write the space you go to: move 14. If a long move is too dear, make a shorter one."},
		{Name: "backwards", Title: "Moving back (back)",
			Text: "Instead of moving forward you may go back to the nearest Layover behind you, and only that one, if nobody is on it. The bank pays you 10£ for every space you go back, like it or not: from 42 back to Calcutta at 38 brings 40£. From a Layover you go back to the one before it."},
		{Name: "layover", Title: "Layover spaces",
			Text: "Layovers are the cities of Phileas Fogg's route (Paris is the first, Calcutta is at 38, Liverpool, the red one, is the last). You never move forward onto a Layover: you only reach one by moving back. London is not a Layover."},
		{Name: "stuck", Title: "When you cannot move (pass, restart)",
			Text: "If you cannot pay for any move and cannot move back (the Layover behind you is taken), you pass and wait. If that happens before you have passed Paris, you instead go back to London and draw up to 80£ (restart), in the two-pawns variant too, and play on next turn. Kept characters count as money here: while playing some of them (pounds, or a cheaper move) would pay for a move, you cannot pass or restart; play them and move. Staying on a Pound space counts as a move too: while you may stay, you neither pass nor restart."},
		{Name: "passepartout", Title: "Passepartout spaces (keep 1, keep 2, play)",
			Text: "Land on a Passepartout space and draw a card: only one if you are furthest ahead, otherwise two, of which you apply one (keep 1 or keep 2) and discard the other. Events act at once. Characters stay face up in front of you until you play one on your turn before moving (play aouda). A card with the reshuffle symbol (shown ↻) makes deck and discard pile be shuffled together at the end of the turn."},
		{Name: "bet", Title: "Bet spaces (1, 2, 3, 4/5/6)",
			Text: "Nothing happens when you land on a Bet space. At the start of your next turn, before moving, if your place in the race is a number on the space, the bank pays you your place times 10£ (2nd place: 20£). The 4/5/6 space never pays with 2 or 3 players, but it does in the two-pawns variant, which plays as a 4-player game. Your place counts every pawn strictly ahead of yours: pawns already home in London, and in the variant your own other pawn, too; pawns side by side in London share a place. The same place counts at the Police and for who is furthest ahead on a Passepartout space."},
		{Name: "pound", Title: "Pound spaces (stay take, stay give)",
			Text: "Nothing happens when you land on a Pound space. On each of your later turns there you may move on as usual, or stay put and either take 10£ from the bank (stay take) or give it 10£ (stay give), for as many turns as you like."},
		{Name: "police", Title: "Police spaces (discard)",
			Text: "You may only stop on a Police space while you hold a Rumor card. Your next turn is spent there: you discard a Rumor card and the bank pays you your place in the race times 10£ (discard). On the turn after that you must leave, forward or back."},
		{Name: "london", Title: "Coming home: the end",
			Text: "The game ends the moment a traveller reaches London, space 80, paying the exact cost of the move. The move is only allowed with no Rumor card in hand and 10£ or less left after paying. The first one home wins."},
		{Name: "variant", Title: "Two players, two pawns (variant=two-pawns)",
			Text: "With two players you may play with two pawns each, 5 Rumor cards and 110£. Actions name the pawn: move a 14, back b. The first pawn may enter London as soon as you have no Rumor left, whatever you hold; the second only with 20£ or less. A pawn on a Police space takes your next turn to discard, and must be the pawn you move on the turn after. If that pawn cannot leave (no move it can pay for, even with your characters, and the Layover behind it taken), your other pawn plays instead, and the Police pawn must leave on the first turn it can. With both pawns bound to leave, move either; the other leaves next. Going back to London (restart) draws up to 80£, as in the standard game, and the Bet 4/5/6 space pays as in a 4-player game. Bring both pawns home to win."},
		{Name: "content", Title: "The board and the cards",
			Text: "The rulebook does not print the board or the 25 Passepartout cards. Meeple ships a reconstruction that follows the rules and the known facts (Paris first, Calcutta at 38, the first Police at 13, Bet spaces 1, 2, 3 and 4/5/6); a server admin can load a transcription of the printed ones instead."},
	}
}
