package imaging

import (
	"fmt"
	"image"
	"strconv"

	cp "github.com/meeplegames/meeple/engine/crystalpalace"
	"github.com/meeplegames/meeple/wording"
)

// Geometry of a Crystal Palace player mat.
const (
	matW       = 1100
	matMargin  = 14
	matResH    = 86 // the resources strip
	matSlotH   = 88 // three lines: a title and two of detail
	matSlotGap = 6
	matSlotsPR = 5 // research spaces per row
)

// crystalPalaceMat draws the private mat of the view's own seat. It is for
// that player's eyes only (a DM or an ephemeral reply).
func (r *Renderer) crystalPalaceMat(v *cp.View, w *wording.Words) ([]byte, error) {
	if err := cpCheck(v); err != nil {
		return nil, err
	}
	pv := v.Private
	if pv == nil || !seatIn(pv.Seat, v.Players) {
		return nil, fmt.Errorf("%w: the view is a spectator's", ErrNoMat)
	}
	seat := int(pv.Seat)
	pub := &v.Seats[seat]
	names := r.seatNames(w, v.Players)

	slotRows := (len(pv.Research) + len(pv.ExtraLoans) + matSlotsPR - 1) / matSlotsPR
	half := (matW - 2*matMargin - cpGap) / 2
	measure := &canvas{r: r, fs: r.faces.Get().(*faceSet), w: w}
	objLines := measure.matObjectiveLines(pv, half)
	r.faces.Put(measure.fs)
	n := 0
	for _, lines := range objLines {
		n += max(len(lines), 1)
	}
	objH := cpHeadH + 8 + max(n, 1)*cpLineH + 8
	researchH := cpHeadH + 8 + max(slotRows, 1)*(matSlotH+matSlotGap) + 4
	listH := func(n int) int { return cpHeadH + 8 + max(n, 1)*cpLineH + 8 }
	top := max(objH, listH(1+matFreeLines))
	h := titleHeight + 12 + matResH + cpRowGap + top + cpRowGap + researchH + cpRowGap +
		listH(len(pv.Patents)) + cpRowGap + listH(len(pv.Characters)) + cpRowGap + listH(len(pv.Prototypes)) + matMargin
	c := r.begin(w, matW, h, nil, nil)
	c.titleBar(c.cpTitle()+" · "+names[seat], c.say("cp.image.private", "Note", cpRoundNote(v, w, names)))

	y := titleHeight + 12
	c.matResources(v, pv, pub, seat, y)
	y += matResH + cpRowGap

	left := image.Rect(matMargin, y, matMargin+half, y+top)
	right := image.Rect(left.Max.X+cpGap, y, matW-matMargin, y+top)
	c.matObjective(pv, objLines, left)
	c.matDuties(pv, right)
	y += top + cpRowGap

	salaryCol := -1
	if ws := v.Westminster.Spaces; pub.Westminster >= 0 && pub.Westminster < len(ws) {
		salaryCol = ws[pub.Westminster].Salary
	}
	c.matResearch(pv, image.Rect(matMargin, y, matW-matMargin, y+researchH))
	y += researchH + cpRowGap
	for _, group := range []struct {
		title string
		cards []cp.CardView
		empty string
	}{
		{c.say("cp.image.mat.patents"), pv.Patents, c.say("cp.image.mat.no_patents")},
		{c.say("cp.image.mat.characters"), pv.Characters, c.say("cp.image.mat.no_characters")},
		{c.say("cp.image.mat.prototypes"), pv.Prototypes, c.say("cp.image.mat.no_prototypes")},
	} {
		rect := image.Rect(matMargin, y, matW-matMargin, y+listH(len(group.cards)))
		c.panel(rect, group.title)
		ly := rect.Min.Y + cpHeadH + 8 + cpLineH/2
		if len(group.cards) == 0 {
			c.text(group.empty, rect.Min.X+10, ly, style{size: sizeSmall, color: colInkSoft})
		}
		for i := range group.cards {
			card := group.cards[i]
			card.Name = cpCardName(w, &card)
			c.cpCardLine(&card, rect.Min.X+10, ly+i*cpLineH, rect.Dx()-20, salaryCol, 1)
		}
		y = rect.Max.Y + cpRowGap
	}
	return c.finish()
}

// panel draws an empty panel with its header.
func (c *canvas) panel(rect image.Rectangle, title string) {
	c.box(rect, colPanel)
	c.panelHead(rect, title)
}

// matResources draws the strip of counts and this round's dice.
func (c *canvas) matResources(v *cp.View, pv *cp.PrivateView, pub *cp.PlayerView, seat, y int) {
	rect := image.Rect(matMargin, y, matW-matMargin, y+matResH)
	c.box(rect, colPanel)
	c.fill(image.Rect(rect.Min.X+1, rect.Min.Y+1, rect.Min.X+8, rect.Max.Y-1), seatColor(seat))
	c.marker(seat, rect.Min.X+34, y+matResH/2, markPawn)
	label := style{size: sizeSmall, color: colInkSoft}
	big := style{size: sizeHuge, bold: true, color: colInk}
	x := rect.Min.X + 64
	for _, item := range []struct {
		label  string
		n      int
		icon   *image.RGBA
		col    rgb
		pounds bool
	}{
		{c.say("cp.image.mat.pounds"), pub.Pounds, nil, colInk, true},
		{c.say("cp.image.mat.gears"), pub.Gears, c.r.sprites.gear, colInk, false},
		{c.say("cp.image.mat.energy"), pub.Energy, c.r.sprites.energy, colInk, false},
		{c.say("cp.image.mat.newspapers"), pub.Newspapers, c.r.sprites.paper, colInk, false},
		{c.say("cp.image.mat.vp"), pub.VP, nil, colVP, false},
		{c.say("cp.image.mat.loans"), pub.Loans, nil, colBad, false},
	} {
		c.text(item.label, x, y+18, label)
		st := big
		if item.n != 0 {
			st.color = item.col
		}
		w := c.text(strconv.Itoa(item.n), x, y+52, st)
		if item.icon != nil {
			c.sprite(item.icon, x+w+4, y+52-iconSize/2)
		} else if item.pounds {
			c.text("£", x+w+2, y+52, style{size: sizeLarge, bold: true, color: colInk})
		}
		x += max(matResW, c.fs.width(item.label, label)+12)
	}
	c.textFit(c.say("cp.image.mat.dice"), x+8, y+18, rect.Max.X-x-16, label)
	dx := x + 8
	dice, blank, note := c.matDice(v, pv, pub)
	placed := 0
	if pub.DiceValues != nil {
		placed = len(pv.Placed)
	}
	for i, d := range dice {
		owner := seat
		if i >= len(dice)-placed {
			owner = -1 // on the board: white
		}
		c.sprite(c.r.sprites.die(owner, d, false), dx, y+32)
		dx += dieSize + 5
	}
	for i := 0; i < blank; i++ {
		c.sprite(c.r.sprites.die(seat, 0, false), dx, y+32)
		dx += dieSize + 5
	}
	room := rect.Max.X - dx - 16
	if lines, _ := c.wrapRich(note, room, room, 2, label); len(lines) > 1 {
		c.richLines(note, dx+6, room, dx+6, room, y+42, 20, 2, label)
	} else {
		c.textFit(note, dx+6, y+52, room, label)
	}
}

// matResW is the width of a count on the mat's strip of resources.
const matResW = 100

// matDice is what the mat shows of this round's dice: their values, how
// many blank dice stand for dice still to choose, and a note. Dice are
// "not chosen yet" only in phase 1; later the round's dice show as they
// are (or none once all are spent), and a finished game says so.
func (c *canvas) matDice(v *cp.View, pv *cp.PrivateView, pub *cp.PlayerView) (dice []int, blank int, note string) {
	switch {
	case v.Over:
		return nil, 0, c.say("cp.image.mat.dice_over")
	case len(pv.Dice) > 0 && pub.DiceValues == nil:
		return pv.Dice, 0, c.say("cp.image.mat.dice_hidden")
	case len(pv.Placed) > 0:
		return append(append([]int(nil), pv.Unplaced...), pv.Placed...), 0, c.say("cp.image.mat.dice_placed", "N", len(pv.Placed))
	case len(pv.Dice) > 0:
		return pv.Dice, 0, c.say("cp.image.mat.dice_revealed")
	case len(pub.DiceValues) > 0:
		return pub.DiceValues, 0, c.say("cp.image.mat.dice_revealed")
	case v.Phase == 1:
		return nil, pub.Dice, c.say("cp.image.mat.dice_unchosen")
	}
	return nil, 0, c.say("cp.image.mat.dice_none")
}

// matObjective lists the nation's objective levels.
func (c *canvas) matObjective(pv *cp.PrivateView, wrapped [][]richLine, rect image.Rectangle) {
	c.panel(rect, c.say("cp.image.mat.objective", "Nation", itemOr(c.w, pv.NationKey, pv.Nation)))
	ly := rect.Min.Y + cpHeadH + 8 + cpLineH/2
	for i, o := range pv.Objective {
		mark, col := "○", colInkSoft
		switch {
		case o.Reached:
			mark, col = "●", colGood
		case o.Met:
			mark, col = "◐", colGold
		}
		if !c.r.fonts.has('◐') && mark == "◐" {
			mark = "○"
		}
		c.text(mark, rect.Min.X+12, ly, style{size: sizeBody, bold: true, color: col})
		c.text(fmt.Sprintf("%d", i+1), rect.Min.X+34, ly, style{size: sizeSmall, bold: true, color: colInk})
		c.text(c.say("cp.image.vp", "N", o.VP), rect.Max.X-12, ly, style{size: sizeSmall, bold: true, color: colVP, align: alignRight})
		var lines []richLine
		if i < len(wrapped) {
			lines = wrapped[i]
		}
		for _, line := range lines {
			c.drawRichLine(line, rect.Min.X+54, ly, style{size: sizeSmall, color: colInk})
			ly += cpLineH
		}
		if len(lines) == 0 {
			ly += cpLineH
		}
	}
}

// matObjectiveVPW is the room an objective level's VP takes on the right.
const matObjectiveVPW = 60

// matObjectiveLines wraps each objective level's condition, and whether
// it is reached or met, over two lines at most of a panel w pixels wide.
func (c *canvas) matObjectiveLines(pv *cp.PrivateView, w int) [][]richLine {
	room := w - 74 - matObjectiveVPW
	out := make([][]richLine, len(pv.Objective))
	for i, o := range pv.Objective {
		text := sayOr(c.w, o.TextSay, o.Text)
		switch {
		case o.Reached:
			text += " · " + c.say("cp.image.mat.reached")
		case o.Met:
			text += " · " + c.say("cp.image.mat.met")
		}
		var cut bool
		if out[i], cut = c.wrapRich(text, room, room, 2, style{size: sizeSmall}); cut {
			c.noteCut(text)
		}
	}
	return out
}

// matFreeLines is how many lines the free actions may take.
const matFreeLines = 3

// matDuties shows the salary due and the free actions open now, flowed
// over a few lines.
func (c *canvas) matDuties(pv *cp.PrivateView, rect image.Rectangle) {
	c.panel(rect, c.say("cp.image.mat.duties"))
	y := rect.Min.Y + cpHeadH + 8 + cpLineH/2
	c.textFit(c.say("cp.image.mat.salary_due", "N", pv.SalaryDue), rect.Min.X+12, y, rect.Dx()-24, style{size: sizeSmall, bold: true, color: colInk})
	st := style{size: sizeSmall, color: colInk}
	if len(pv.FreeActions) == 0 {
		c.text(c.say("cp.image.mat.no_free"), rect.Min.X+12, y+cpLineH, style{size: sizeSmall, color: colInkSoft})
		return
	}
	left, right := rect.Min.X+12, rect.Max.X-12
	x, line := left, 1
	for i, a := range pv.FreeActions {
		item := a
		if i < len(pv.FreeActions)-1 {
			item += " ·"
		}
		w := c.fs.width(item, st)
		if x > left && x+w > right {
			if line == matFreeLines {
				c.text("…", x, y+line*cpLineH, st)
				return
			}
			x, line = left, line+1
		}
		x += c.textFit(item, x, y+line*cpLineH, right-x, st) + 6
	}
}

// matResearch draws the research spaces: tiles, loans, notes, and the
// empty ones that cost VP at the end.
func (c *canvas) matResearch(pv *cp.PrivateView, rect image.Rectangle) {
	empty := 0
	for _, s := range pv.Research {
		if s.Kind == "empty" || s.Kind == "" {
			empty++
		}
	}
	c.panel(rect, c.say("cp.image.mat.research", "N", empty))
	slots := append([]cp.SlotView(nil), pv.Research...)
	for _, vp := range pv.ExtraLoans {
		slots = append(slots, cp.SlotView{Kind: "loan", LoanVP: vp})
	}
	slotW := matSlotW(rect.Dx())
	for i, s := range slots {
		x := rect.Min.X + 10 + (i%matSlotsPR)*(slotW+matSlotGap)
		y := rect.Min.Y + cpHeadH + 8 + (i/matSlotsPR)*(matSlotH+matSlotGap)
		box := image.Rect(x, y, x+slotW, y+matSlotH)
		c.matSlot(&s, box, i >= len(pv.Research))
	}
}

// matSlotW is the width of a research space on a panel w pixels wide.
func matSlotW(w int) int { return (w - 20 - (matSlotsPR-1)*matSlotGap) / matSlotsPR }

// matSlotPad is the space between a research space's edge and its text.
const matSlotPad = 10

// The numbers the view does not carry: the end-of-game loss of a repaid
// loan and of an empty research space, and a note's worth (the content's
// repaid_vp, empty_space_vp and note_pounds; a test keeps them in step).
const (
	matRepaidVP   = -5
	matEmptyVP    = -2
	matNotePounds = 10
)

// matSlotLines are the three lines of a research space without a tile:
// a title, a status and the cost at the end.
func (c *canvas) matSlotLines(s *cp.SlotView, beside bool) [3]string {
	switch s.Kind {
	case "loan":
		title := c.say("cp.image.mat.loan")
		if beside {
			title = c.say("cp.image.mat.loan_beside")
		}
		if s.Repaid {
			return [3]string{title, c.say("cp.image.mat.loan_repaid"), c.say("cp.image.mat.at_end", "N", matRepaidVP)}
		}
		return [3]string{title, c.say("cp.image.mat.loan_unpaid"), c.say("cp.image.mat.at_end", "N", s.LoanVP)}
	case "note":
		return [3]string{c.say("cp.image.mat.note", "N", matNotePounds), c.say("cp.image.mat.note_covers"), ""}
	}
	return [3]string{c.say("image.empty"), c.say("cp.image.mat.at_end", "N", matEmptyVP), ""}
}

// matSlot draws one research space. Every line is fitted to the space; a
// tile's effect wraps over two lines.
func (c *canvas) matSlot(s *cp.SlotView, box image.Rectangle, beside bool) {
	l1, l2, l3 := box.Min.Y+20, box.Min.Y+44, box.Min.Y+66
	x, w := box.Min.X+matSlotPad, box.Dx()-2*matSlotPad
	bold := style{size: sizeSmall, bold: true, color: colInk}
	body := style{size: sizeSmall, color: colInk}
	bad := style{size: sizeSmall, bold: true, color: colBad}
	if s.Kind == "research" {
		fill := colResearchG
		if s.Tile != nil {
			fill = cardColor(s.Tile)
		}
		c.box(box, tint(fill))
		c.fill(image.Rect(box.Min.X+1, box.Min.Y+1, box.Min.X+6, box.Max.Y-1), fill)
		if s.Tile != nil {
			c.textFit(cpCardName(c.w, s.Tile), x, l1, w, bold)
			c.richLines(cardEffect(c.w, s.Tile), x, w, x, w, l2, l3-l2, 2, body)
		}
		return
	}
	lines := c.matSlotLines(s, beside)
	styles := [3]style{bold, body, bad}
	switch s.Kind {
	case "loan":
		c.box(box, colPanelAlt)
		if !s.Repaid {
			styles[1] = bad
		}
	case "note":
		c.box(box, colShare)
	default:
		c.box(box, colPaper)
		styles[0] = style{size: sizeSmall, color: colInkSoft}
		styles[1] = style{size: sizeSmall, color: colBad}
	}
	for i, y := range []int{l1, l2, l3} {
		if lines[i] != "" {
			c.textFit(lines[i], x, y, w, styles[i])
		}
	}
}

// tint is a light version of c for backgrounds.
func tint(c rgb) rgb { return mix(c, colWhite, 0.6) }

func nonEmpty(s ...string) []string {
	out := s[:0:0]
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
