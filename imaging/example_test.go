package imaging_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/imaging"
	"github.com/meeplegames/meeple/locale"
	"github.com/meeplegames/meeple/wording"
)

func ExampleRenderer_Board() {
	content, err := eightydays.DefaultContent()
	if err != nil {
		fmt.Println(err)
		return
	}
	rules := eightydays.NewRules(content)
	state, err := rules.New(engine.Setup{Players: 4, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := imaging.New() // once per program; share it
	if err != nil {
		fmt.Println(err)
		return
	}
	cat, err := locale.New() // the message catalogues, once per program
	if err != nil {
		fmt.Println(err)
		return
	}
	// The board in German, the game's names from its content, the seats'
	// display names in the legend.
	words := wording.ForRules(cat.For("de"), rules, []string{"Ada", "Brunel", "Cole", "Dickens"})
	board, err := r.Board(state.View(engine.Spectator), words)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(board))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%dx%d PNG\n", cfg.Width, cfg.Height)
	// Output: 1144x1098 PNG
}
