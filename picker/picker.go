// Package picker turns a list of legal actions in canonical text ("place 6
// patent 1", "pass", …) into a small tree of menus, so that a player can
// reach any of them by tapping a few choices instead of typing: a word at a
// time (place › 6 › patent › 1), words that never branch shown together, and
// a level with too many words split into ranges.
//
// Every menu has at most MaxChoices choices, every label at most MaxLabel
// characters, and every action is at most MaxTaps taps from the top for any
// list of up to MaxChoices^MaxTaps actions. The tree depends only on the list
// (its order included), so a menu can be found again from its path alone:
// that is how a stateless interface (Discord components) walks it.
//
// The package knows nothing of any game, nor of Discord. A Tree is immutable
// and safe for concurrent use.
package picker

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Limits of every tree, set by what one Discord select menu holds.
const (
	MaxChoices = 25  // choices in one menu
	MaxLabel   = 100 // characters in one label
	MaxTaps    = 4   // taps from the top to any action
)

// Choice is one entry of a menu: either an action (Action non-empty) or a
// way into a smaller menu.
type Choice struct {
	Label  string // what the player reads: a word, a few words, or a range
	Action string // the canonical action this choice completes; empty for a submenu
	next   *Menu
}

// Menu is one step of the tree.
type Menu struct {
	// Prefix is the words every action below shares, as chosen so far
	// ("place 6"); empty at the top.
	Prefix  string
	Choices []Choice
}

// Tree is the menus for one list of actions.
type Tree struct {
	root *Menu
}

// ErrPath is returned for a path that leads to no menu (a stale or forged
// one).
var ErrPath = errors.New("picker: no such menu")

// New builds the tree for actions, in their order. Duplicates are dropped.
func New(actions []string) Tree {
	seen := make(map[string]bool, len(actions))
	items := make([]item, 0, len(actions))
	for _, a := range actions {
		a = strings.Join(strings.Fields(a), " ")
		if a == "" || seen[a] {
			continue
		}
		seen[a] = true
		items = append(items, item{action: a, words: strings.Fields(a)})
	}
	root, _ := build(items, 0, MaxTaps)
	return Tree{root: root}
}

// Root is the top menu.
func (t Tree) Root() *Menu { return t.root }

// At returns the menu reached by choosing path's indexes in turn from the
// top; the empty path is the top menu.
func (t Tree) At(path []int) (*Menu, error) {
	m := t.root
	for _, i := range path {
		if i < 0 || i >= len(m.Choices) || m.Choices[i].next == nil {
			return nil, ErrPath
		}
		m = m.Choices[i].next
	}
	return m, nil
}

// Find returns the path of choices that leads to action: the indexes of
// every tap, the last one choosing the action itself.
func (t Tree) Find(action string) ([]int, bool) {
	action = strings.Join(strings.Fields(action), " ")
	var path []int
	var walk func(m *Menu) bool
	walk = func(m *Menu) bool {
		for i, c := range m.Choices {
			path = append(path, i)
			if c.Action == action || c.next != nil && walk(c.next) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	return path, walk(t.root)
}

// Below returns how many actions lie behind c and the first of them: one,
// c.Action itself, when c is an action.
func (c Choice) Below() (count int, first string) {
	if c.next == nil {
		return 1, c.Action
	}
	for _, sub := range c.next.Choices {
		n, f := sub.Below()
		if count == 0 {
			first = f
		}
		count += n
	}
	return count, first
}

// Next returns the submenu behind choice i, or nil when the choice is an
// action or there is no such choice.
func (m *Menu) Next(i int) *Menu {
	if i < 0 || i >= len(m.Choices) {
		return nil
	}
	return m.Choices[i].next
}

// item is one action split into words.
type item struct {
	action string
	words  []string
}

// rest is the item's text from word depth on.
func (it item) rest(depth int) string { return strings.Join(it.words[depth:], " ") }

// capacity is how many actions taps taps can reach at most.
func capacity(taps int) int {
	n := 1
	for range taps {
		n *= MaxChoices
	}
	return n
}

// build makes the menu for items, which share their first depth words,
// and returns it with the most taps any of its actions needs. It aims at
// taps taps and exceeds them only for more than capacity(taps) items.
func build(items []item, depth, taps int) (*Menu, int) {
	m := &Menu{}
	if len(items) > 0 {
		m.Prefix = strings.Join(items[0].words[:depth], " ")
	}
	if len(items) <= MaxChoices || taps <= 1 {
		for _, it := range items {
			m.Choices = append(m.Choices, Choice{Label: clip(it.rest(depth)), Action: it.action})
		}
		return m, 1
	}
	groups, d := wordGroups(items, depth)
	label := func(g []item) string {
		if len(g) == 1 {
			return g[0].rest(depth)
		}
		return strings.Join(g[0].words[depth:d+1], " ")
	}
	// A word at a time, when the words at this level fit one menu …
	if len(groups) <= MaxChoices {
		if choices, most, ok := submenus(groups, taps-1, label, func(g []item) []item { return g }, depth, d+1, true); ok {
			m.Choices = choices
			return m, most
		}
	}
	// … else ranges of whole words when each range fits …
	per := (len(groups) + MaxChoices - 1) / MaxChoices
	if per > 1 {
		var buckets [][][]item
		for i := 0; i < len(groups); i += per {
			buckets = append(buckets, groups[i:min(i+per, len(groups))])
		}
		first := func(b [][]item) string { return rangeLabel(label(b[0]), label(b[len(b)-1])) }
		if choices, most, ok := submenus(buckets, taps-1, first, concat, depth, depth, true); ok {
			m.Choices = choices
			return m, most
		}
	}
	// … else plain runs of actions in their own order.
	n := max((len(items)+MaxChoices-1)/MaxChoices, (len(items)+capacity(taps-1)-1)/capacity(taps-1))
	var chunks [][]item
	for i := 0; i < len(items); i += n {
		chunks = append(chunks, items[i:min(i+n, len(items))])
	}
	ends := func(run []item) string { return rangeLabel(run[0].rest(depth), run[len(run)-1].rest(depth)) }
	var most int
	m.Choices, most, _ = submenus(chunks, taps-1, ends, func(run []item) []item { return run }, depth, depth, false)
	return m, most
}

// submenus makes one choice per part of a menu whose items share from
// words: a part of one item is that action itself, labelled with the rest
// of it; any other part leads to the menu of its items, which share depth
// words. When strict, ok is false (and the work dropped) as soon as a part
// needs more than taps taps.
func submenus[P any](parts []P, taps int, label func(P) string, items func(P) []item, from, depth int, strict bool) (choices []Choice, most int, ok bool) {
	most = 1
	for _, part := range parts {
		its := items(part)
		if len(its) == 1 {
			choices = append(choices, Choice{Label: clip(its[0].rest(from)), Action: its[0].action})
			continue
		}
		if strict && len(its) > capacity(taps) {
			return nil, 0, false
		}
		next, d := build(its, depth, taps)
		if strict && d > taps {
			return nil, 0, false
		}
		choices = append(choices, Choice{Label: clip(label(part)), next: next})
		most = max(most, 1+d)
	}
	return choices, most, true
}

func concat(groups [][]item) []item {
	var out []item
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// wordGroups groups items by their next word after skipping the words all
// of them share; d is the index of the word that tells the groups apart.
// An item that ends before d is a group of its own.
func wordGroups(items []item, depth int) (groups [][]item, d int) {
	d = depth
	for shared(items, d) {
		d++
	}
	index := map[string]int{}
	for _, it := range items {
		if len(it.words) <= d {
			groups = append(groups, []item{it})
			continue
		}
		w := it.words[d]
		i, ok := index[w]
		if !ok {
			i = len(groups)
			index[w] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], it)
	}
	return groups, d
}

// shared reports whether every item has a word d and it is the same.
func shared(items []item, d int) bool {
	for _, it := range items {
		if len(it.words) <= d+1 || it.words[d] != items[0].words[d] {
			return false
		}
	}
	return true
}

// rangeLabel names a run by its first and last actions.
func rangeLabel(first, last string) string {
	const sep = " … "
	half := (MaxLabel - utf8.RuneCountInString(sep)) / 2
	return clipTo(first, half) + sep + clipTo(last, half)
}

// clip shortens s to MaxLabel characters.
func clip(s string) string { return clipTo(s, MaxLabel) }

func clipTo(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
