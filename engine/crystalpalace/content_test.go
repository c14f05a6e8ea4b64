package crystalpalace

import "testing"

func TestDefaultContentLoads(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	green, blue, orange := 0, 0, 0
	for _, r := range c.Research {
		switch {
		case r.Back == "green":
			green++
		case r.Box == "blue":
			blue++
		default:
			orange++
		}
	}
	counts := map[string][2]int{
		"patents":    {len(c.Patents), 30},
		"characters": {len(c.Characters), 30},
		"research":   {len(c.Research), 45},
		"green":      {green, 32},
		"violet":     {blue + orange, 13},
		"shares":     {len(c.Shares), 15},
		"publishers": {len(c.Publishers), 8},
		"mats":       {len(c.Mats), 10},
		"flyers":     {len(c.Flyers), 11},
		"loans":      {len(c.loanVP), 30},
	}
	for name, n := range counts {
		if n[0] != n[1] {
			t.Errorf("%s: %d, want %d", name, n[0], n[1])
		}
	}
}
