#!/bin/sh
# build.sh rebuilds the embedded fonts of package typeset from Debian's Noto
# packages: it keeps each font's scripts (and, for CJK, the characters
# cjkchars.go lists), every OpenType layout feature the shaper needs, and
# drops hinting, which the rasteriser does not use.
#
#	apt-get install fonts-noto-core fonts-noto-cjk fonttools
#	sh build.sh
set -eu
cd "$(dirname "$0")"
core=/usr/share/fonts/truetype/noto
cjk=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
sub() { # sub OUT IN UNICODES [more pyftsubset options]
	out=$1 in=$2 unicodes=$3
	shift 3
	pyftsubset "$in" --unicodes="$unicodes" --layout-features='*' --no-hinting \
		--name-IDs='*' --name-languages='*' --output-file="$out" "$@"
}
# Latin, Greek and Cyrillic the Go fonts lack, combining marks, phonetic
# small capitals, letterlike symbols and the general punctuation.
sub NotoSans-Regular.ttf $core/NotoSans-Regular.ttf \
	'0000-058F,1AB0-1AFF,1C80-1C8F,1D00-1DFF,1E00-1FFF,2000-218F,2C60-2C7F,2DE0-2DFF,A640-A69F,A720-A7FF,AB30-AB6F,FB00-FB06'
sub NotoSansArabic-Regular.ttf $core/NotoSansArabic-Regular.ttf '0020-0040,005B-0060,007B-007E,00A0,00AB,00BB,2010-2027,0600-06FF,0750-077F,0870-08FF,200C-200F,25CC,FB50-FDFF,FE70-FEFF'
for f in Hebrew Armenian Georgian Thai Lao Khmer Myanmar Ethiopic Oriya Sinhala Mongolian Runic \
	Devanagari Bengali Gurmukhi Gujarati Tamil Telugu Kannada Malayalam; do
	sub NotoSans$f-Regular.ttf $core/NotoSans$f-Regular.ttf '*'
done
# Symbols: arrows, technical, geometric shapes, miscellaneous symbols,
# dingbats, chess; mathematical alphanumerics ("𝓐𝓭𝓪" names).
sub NotoSansSymbols2-Regular.ttf $core/NotoSansSymbols2-Regular.ttf '2190-21FF,2300-23FF,2460-27BF,2B00-2BFF,1F000-1F0FF,1F780-1F7FF,1F800-1F8FF,1FA00-1FA6F'
sub NotoSansSymbols-Regular.ttf $core/NotoSansSymbols-Regular.ttf '2100-214F,2190-21FF,2200-23FF,2460-24FF,2600-27BF,1F100-1F1FF'
sub NotoSansMath-Regular.ttf $core/NotoSansMath-Regular.ttf '2200-22FF,27C0-27EF,2980-2AFF,1D400-1D7FF'
go run cjkchars.go > cjk.txt
sub NotoSansCJKsc-Regular.otf "$cjk" '2150-218F,2460-24FF,2500-259F,3000-303F,3040-30FF,3100-312F,3130-318F,31A0-31BF,31F0-31FF,3200-32FF,FE10-FE1F,FE30-FE4F,FF00-FFEF' \
	--font-number=2 --unicodes-file=cjk.txt
rm cjk.txt
