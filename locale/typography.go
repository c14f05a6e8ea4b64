package locale

import (
	"regexp"
	"strings"
)

// FrenchTypography says what in text a French editor would set otherwise,
// or "" when nothing: a narrow no-break space (U+202F) belongs before : ;
// ! and ?, the apostrophe is ’, quotes are « » with narrow no-break spaces
// inside, never “ ”. The catalogues' tests and the games' content tests
// hold French text to it.
func FrenchTypography(text string) string {
	switch {
	case strings.ContainsRune(text, '\''):
		return "straight apostrophe, want ’"
	case spaceBefore.MatchString(text):
		return "a plain space before : ; ! or ?, want U+202F"
	case strings.ContainsAny(text, "“”"):
		return "“ ” quotes, want « »"
	case strings.Count(text, "«") != strings.Count(text, "«\u202f") || strings.Count(text, "»") != strings.Count(text, "\u202f»"):
		return "« » without a narrow no-break space inside"
	}
	return ""
}

var spaceBefore = regexp.MustCompile(`[ \x{00a0}][:;!?]`)
