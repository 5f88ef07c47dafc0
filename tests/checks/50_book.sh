#!/usr/bin/env bash
# The book builds without a warning, every page, print.html (the whole book in one page, which
# book.pdf is printed from) and the EPUB are there, and no include, live example, figure or
# reference is left unresolved.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh

# rebuild every page as if its inputs had changed (make -W), keeping the log
if out=$(make --no-print-directory -W chapters/book.yaml book 2>&1); then
	ok "make book rebuilds the book"
else
	not_ok "make book fails"; printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
fi
if printf '%s\n' "$out" | grep -q '\[WARNING\]'; then
	not_ok "the book builds with warnings"; printf '%s\n' "$out" | grep '\[WARNING\]' | sed 's/^/# /'
else
	ok "the book builds with no warning"
fi

BOOK=$B/book
chapters=$(make --no-print-directory -s -f Makefile -f - print-chapters <<'MK'
print-chapters: ; @echo $(CHAPTERS)
MK
)
pages="index.html print.html"
for c in $chapters; do pages="$pages $(basename "${c%.md}").html"; done
for p in $pages; do
	[ -s "$BOOK/$p" ] && ok "$BOOK/$p is built" || not_ok "$BOOK/$p is missing"
done
[ -s "$BOOK/book.epub" ] && ok "$BOOK/book.epub is built" || not_ok "$BOOK/book.epub is missing"

for p in $pages; do
	f=$BOOK/$p
	[ -f "$f" ] || continue
	left=$(grep -oE 'data-include[a-z-]*=|data-snippet=|class="citation"|<pre class="layout(-grid)?"|https?://[^"]*\.(css|js|woff2?)' "$f" | sort -u)
	[ -z "$left" ] && ok "$p: every include, live example and reference resolved" ||
		{ not_ok "$p: unresolved: $left"; }
	for img in $(grep -o '<img src="[^"]*"' "$f" | sed 's/<img src="//; s/"$//'); do
		[ -s "$BOOK/$img" ] || not_ok "$p: figure $img is missing"
	done
done

# a heading line right under a line of text is read by Pandoc as more of that paragraph: the
# section then has no heading and no id, and the book shows "### ..." in its text
for c in $chapters; do
	glued=$(awk 'FNR > 1 && /^#+ / && prev != "" && !code { print FNR ": " $0 } /^(```|~~~)/ { code = !code } { prev = $0 }' "$c")
	[ -z "$glued" ] && ok "$c: every heading has a blank line above it" ||
		{ not_ok "$c: a heading glued to the text above it"; printf '%s\n' "$glued" | sed 's/^/# /'; }
done

# a "[" that nothing closes (a half-open range such as [0, k)) sends Pandoc looking ahead for a
# link's end: nine of them made chapter 7 take minutes to read. The text writes "\[".
for c in $chapters chapters/preface.md; do
	open=$(awk -f tests/book/brackets.awk "$c")
	[ -z "$open" ] && ok "$c: every [ in the text is closed or escaped" ||
		{ not_ok "$c: a [ that nothing closes (write \\[)"; printf '%s\n' "$open" | sed 's/^/# /'; }
done

# every figure is numbered, and every figure has an id that the text can use
all=$(cat $BOOK/[0-9]*.html 2>/dev/null | tr '\n' ' ')
nfig=$(printf '%s' "$all" | grep -o '<figure>' | wc -l)
nnum=$(printf '%s' "$all" | grep -o 'class="figure-number">Figure[^0-9<]*[0-9]*\.[0-9]*:' | wc -l)
[ "$nfig" = "$nnum" ] && ok "all $nfig figures are numbered" || not_ok "$nnum of $nfig figures are numbered"
exit $FAILED
