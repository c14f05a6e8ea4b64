package imaging_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/meeplegames/meeple/engine"
	"github.com/meeplegames/meeple/engine/eightydays"
	"github.com/meeplegames/meeple/imaging"
)

func ExampleRenderer_Board() {
	content, err := eightydays.DefaultContent()
	if err != nil {
		fmt.Println(err)
		return
	}
	state, err := eightydays.NewRules(content).New(engine.Setup{Players: 4, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := imaging.New() // once per program; share it
	if err != nil {
		fmt.Println(err)
		return
	}
	board, err := r.Board(state.View(engine.Spectator), []string{"Ada", "Brunel", "Cole", "Dickens"})
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
