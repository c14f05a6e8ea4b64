//go:build ignore

// genindex writes index.txt, the table from emoji sequences to cells of
// sheet.png, out of emoji-datasource-twitter's emoji.json:
//
//	npm pack emoji-datasource-twitter@16.0.0 && tar xzf emoji-datasource-twitter-16.0.0.tgz
//	cp package/img/twitter/sheets-256/32.png sheet.png
//	go run genindex.go package/emoji.json > index.txt
//
// Each line is a sequence's code points in hexadecimal joined by "-",
// without the variation selector U+FE0F (the typesetter drops it before
// looking a cluster up), then the cell's column and row, then "t" when the
// emoji is a single character drawn as text unless U+FE0F follows it.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

type entry struct {
	Unified      string           `json:"unified"`
	NonQualified *string          `json:"non_qualified"`
	SheetX       int              `json:"sheet_x"`
	SheetY       int              `json:"sheet_y"`
	Twitter      bool             `json:"has_img_twitter"`
	Skins        map[string]entry `json:"skin_variations"`
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var entries []entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		fail(err)
	}
	lines := map[string]string{}
	var add func(e entry)
	add = func(e entry) {
		if e.Twitter {
			key := strings.ReplaceAll(strings.ReplaceAll(e.Unified, "-FE0F", ""), "FE0F-", "")
			text := ""
			if !strings.Contains(key, "-") && strings.Contains(e.Unified, "FE0F") {
				text = " t"
			}
			if _, ok := lines[key]; !ok {
				lines[key] = fmt.Sprintf("%s %d %d%s", key, e.SheetX, e.SheetY, text)
			}
		}
		for _, s := range e.Skins {
			add(s)
		}
	}
	for _, e := range entries {
		add(e)
	}
	keys := make([]string, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Println(lines[k])
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
