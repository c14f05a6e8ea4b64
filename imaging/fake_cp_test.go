package imaging

// Hand-made views for tests that need states the engines reach only by
// chance: every kind of card and slot on one board and mat.

import (
	"fmt"
	"testing"

	"github.com/meeplegames/meeple/engine"
	cp "github.com/meeplegames/meeple/engine/crystalpalace"
)

func fakeCPView(t testing.TB, players int, phase int) *cp.View {
	content, err := cp.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	sp := engine.Spectator
	v := &cp.View{Game: "crystalpalace", Viewer: 1, Players: players, Round: 2, RoundName: "Autumn 1849", Year: 1849, Phase: phase,
		Label: fmt.Sprintf("Autumn 1849 · phase %d", phase), First: 1, Turn: 2, Resolving: ""}
	for i := 0; i < players; i++ {
		v.Order = append(v.Order, engine.Seat((i+1)%players))
	}
	pub := content.Publishers[0]
	v.Publisher = cp.PublisherView{ID: pub.ID, Side: pub.Side}
	for i, r := range pub.Rounds {
		v.Publisher.Rounds = append(v.Publisher.Rounds, cp.PublisherRoundView{Text: fmt.Sprint(r.Metrics), Levels: r.Levels, Current: i == 1})
	}
	k := 0
	for _, loc := range content.Locations {
		var side cp.BoardSide
		for _, s := range loc.Sides {
			for _, p := range s.Players {
				if p == players {
					side = s
				}
			}
		}
		lv := cp.LocationView{Key: loc.Key, Number: loc.Number, Name: loc.Name}
		for j, d := range side.Dice {
			ds := cp.DiceSpaceView{Min: d.Min, Fee: d.Fee, Assistant: d.Assistant, Owner: sp}
			if phase >= 2 && j%2 == 0 {
				ds.Owner = engine.Seat(k % players)
				ds.Value = d.Min + k%2
				k++
			}
			lv.Dice = append(lv.Dice, ds)
		}
		for j, a := range side.Actions {
			as := cp.ActionSpaceView{Pounds: a.Pounds, Newspapers: a.Newspapers, Buzz: a.Buzz, Owner: sp}
			switch {
			case a.Pounds != 0:
				as.Text = fmt.Sprintf("%+d £", a.Pounds)
			case a.Newspapers != 0:
				as.Text = fmt.Sprintf("+%d newspaper", a.Newspapers)
			}
			if phase == 3 && j == 0 && loc.Number < 4 {
				as.Owner, as.Value = 0, 5
				lv.Dice[0].Moved = true
			}
			lv.Actions = append(lv.Actions, as)
		}
		for j := 0; j < side.Display; j++ {
			switch loc.Key {
			case "patent":
				p := content.Patents[j]
				lv.Display = append(lv.Display, cp.CardView{Kind: "patent", ID: p.ID, Name: p.Name, Cost: p.Cost, VP: p.VP[0], Link: p.Link, Effect: "+8 £"})
			case "museum":
				r := content.Research[j]
				lv.Display = append(lv.Display, cp.CardView{Kind: "research", ID: r.ID, Name: r.Name, Color: r.Back, Effect: "phase 6: +1 £ per character"})
			case "bank":
				s := content.Shares[j]
				lv.Display = append(lv.Display, cp.CardView{Kind: "share", ID: s.ID, VP: s.VP, Income: s.Income})
			case "reform":
				c := content.Characters[j]
				lv.Display = append(lv.Display, cp.CardView{Kind: "character", ID: c.ID, Name: c.Name, Cost: c.Cost, VP: c.VP[0], Salary: c.Salary, Instant: "+2 gears", Ability: "phase 4: +1 energy"})
			}
		}
		if j := 1; loc.Key == "patent" {
			lv.Display[j] = cp.CardView{}
		}
		for _, p := range side.Possibilities {
			lv.Possibilities = append(lv.Possibilities, cp.PossibilityView{Key: p.Key, Text: p.Text, Available: players >= p.MinPlayers, By: sp})
		}
		if len(lv.Possibilities) > 0 && phase == 3 {
			lv.Possibilities[0].Used, lv.Possibilities[0].By = true, 1
		}
		lv.TicketVP = side.TicketVP
		if side.TicketSpaces > 0 {
			lv.TicketsLeft = 3
		}
		v.Locations = append(v.Locations, lv)
	}
	var market cp.Market
	for _, m := range content.Markets {
		for _, p := range m.Players {
			if p == players {
				market = m
			}
		}
	}
	v.BlackMarket = cp.MarketView{BannerTier: market.BannerTier, Gears: 2, GearSpaces: market.Gears}
	for i, s := range market.Spaces {
		owner := sp
		if i == 1 || i == 3 {
			owner = engine.Seat(i % players)
		}
		v.BlackMarket.Spaces = append(v.BlackMarket.Spaces, cp.MarketSpaceView{Tier: i + 1, Cost: s.Cost, Effect: fmt.Sprintf("+1 %s", s.Effect[0].Gain), Owner: owner})
	}
	bt := content.Tracks.Buzz
	v.Buzz = cp.BuzzView{Length: bt.Length, RankVP: bt.RankVP}
	for _, f := range bt.BlueFlyers {
		v.Buzz.Flyers = append(v.Buzz.Flyers, cp.FlyerView{Space: f, Color: "blue", Effect: "+2 £"})
	}
	for _, f := range bt.GreenFlyers {
		v.Buzz.Flyers = append(v.Buzz.Flyers, cp.FlyerView{Space: f, Color: "green", Effect: "+1 gear"})
	}
	for _, f := range bt.VioletFlyers {
		v.Buzz.Flyers = append(v.Buzz.Flyers, cp.FlyerView{Space: f, Color: "violet", Effect: "+1 energy"})
	}
	for _, p := range bt.Posters {
		v.Buzz.Posters = append(v.Buzz.Posters, cp.PosterView{Space: p.Space, Effect: "+2 VP"})
	}
	v.Buzz.Posters[0].Tokens = []engine.Seat{0, 2}
	v.Buzz.Tickets = []engine.Seat{1}
	for i := 0; i < players; i++ {
		v.Buzz.Positions = append(v.Buzz.Positions, 3+i*2%7)
		v.Buzz.TokensLeft = append(v.Buzz.TokensLeft, 2)
		v.Income.Positions = append(v.Income.Positions, 6+i%3)
		v.Westminster.Positions = append(v.Westminster.Positions, i%3)
		v.Scores = append(v.Scores, 5+3*i)
	}
	v.Income.Spaces = content.Tracks.Income
	for _, w := range content.Tracks.Westminster {
		v.Westminster.Spaces = append(v.Westminster.Spaces, cp.WestminsterSpaceView{Name: w.Name, Bonus: "+2 £", Salary: w.Salary})
	}
	v.PocketWatch = cp.WatchView{Holder: sp, Text: "2 VP now or 3 £ each phase 6"}
	v.Decks = cp.DecksView{Patents: 20, Characters: 21, Research: 30, Loans: 25}
	for i := 0; i < players; i++ {
		m := content.Mats[i]
		pv := cp.PlayerView{Seat: engine.Seat(i), Nation: m.Nation, Landmark: m.Landmark, Mat: m.ID + m.Side,
			Pounds: 23 + i, Gears: i, Energy: 1, Newspapers: 2, VP: 5 + 3*i, Dice: 4, DiceLeft: 2, Loans: i % 2,
			Income: 5, Buzz: 3, Westminster: i % 3, Assistants: 4, Market: 1, Submitted: i%2 == 0}
		if phase >= 2 {
			pv.DiceValues = []int{6, 4, 3, 1}
		}
		pv.Patents = []cp.CardView{{Kind: "patent", Name: content.Patents[i+5].Name}}
		pv.Characters = []cp.CardView{{Kind: "character", Name: content.Characters[i+5].Name}}
		for j := 0; j < 8; j++ {
			kind := "empty"
			if j < 2 {
				kind = "research"
			}
			pv.Research = append(pv.Research, cp.SlotView{Kind: kind})
		}
		v.Seats = append(v.Seats, pv)
	}
	me := v.Seats[1]
	v.Private = &cp.PrivateView{Seat: 1, Nation: me.Nation, Level: 1, Research: me.Research, ExtraLoans: nil,
		Patents:    []cp.CardView{{Kind: "patent", Name: content.Patents[3].Name, Cost: content.Patents[3].Cost, VP: 5, Link: "bessemer", Effect: "+2 gears"}},
		Characters: []cp.CardView{{Kind: "character", Name: content.Characters[3].Name, Salary: []int{1, 3, 5}, Ability: "phase 4: +1 energy"}},
		Dice:       []int{6, 5, 2, 1}, Submitted: true, SalaryDue: 3, FreeActions: []string{"take a loan (+10 £)", "exchange 2 newspapers for a gear"}}
	v.Private.Objective = []cp.ObjectiveView{{Text: "dice at least 5", VP: 3, Reached: true, Met: true}, {Text: "dice at least 6", VP: 4, Met: true}, {Text: "prototypes at least 4", VP: 7}}
	v.Private.Research[0].Tile = &cp.CardView{Kind: "research", Name: "Press & Publicity", Color: "green", Effect: "phase 6: +1 £ per character"}
	v.Private.Research[1] = cp.SlotView{Kind: "research", Tile: &cp.CardView{Kind: "research", Name: "Electrolysis", Color: "violet", Instant: "+2 energy"}}
	v.Private.Research[2] = cp.SlotView{Kind: "loan", LoanVP: -9}
	v.Private.Research[3] = cp.SlotView{Kind: "loan", LoanVP: -8, Repaid: true}
	v.Private.Research[4] = cp.SlotView{Kind: "note"}
	return v
}
