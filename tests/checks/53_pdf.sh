#!/usr/bin/env bash
# The PDF: build/book/book.pdf is newer than what it is printed from, and holds what the HTML
# pages hold (tests/book/pdf.js, with poppler-utils): the title page, the contents with every
# chapter and section and its page, every chapter at the top of a new page in order, every figure
# with its number, caption and drawing. Damaged PDFs must fail: one with a chapter's pages cut
# out, and one printed from a print.html with a figure removed, another drawn with the wrong
# picture and chapters that do not start a page. The printer (mk/print-pdf.js) refuses a figure
# that does not load and code past the margins; without chromium, make builds the rest of the
# book and says in one note that book.pdf was not made.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
for t in pdftotext pdfinfo pdfseparate pdfunite; do
	command -v $t >/dev/null || { not_ok "$t is not installed (Debian package poppler-utils)"; exit 1; }
done
command -v node >/dev/null || { not_ok "node is not installed (Debian package nodejs)"; exit 1; }
BOOK=$B/book
pdf=$BOOK/book.pdf
[ -s "$pdf" ] || { not_ok "$pdf is missing (make book prints it with chromium)"; exit 1; }

chapters=$(make --no-print-directory -s -f Makefile -f - print-chapters <<'MK'
print-chapters: ; @echo $(CHAPTERS)
MK
)
pages=$(for c in $chapters; do basename "${c%.md}.html"; done)
stale=
for src in $BOOK/print.html $BOOK/book.css $BOOK/print.css $BOOK/figures/*.svg chapters/*.css chapters/preface.md $chapters; do
	[ "$pdf" -nt "$src" ] || stale="$stale $src"
done
[ -z "$stale" ] && ok "$pdf is newer than its sources" || not_ok "$pdf is older than:$stale"

out=$(node tests/book/pdf.js "$BOOK" "$pdf" $pages); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || FAILED=1

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# expect WHAT PDF NEEDLE...: the check of PDF must fail, and say every NEEDLE
expect() {
	what=$1 file=$2; shift 2
	got=$(node tests/book/pdf.js "$BOOK" "$file" $pages); rc=$?
	missing=
	for n in "$@"; do printf '%s\n' "$got" | grep -qF -- "$n" || missing="$missing '$n'"; done
	if [ $rc -ne 0 ] && [ -z "$missing" ]; then ok "the PDF check catches $what"
	else not_ok "the PDF check misses $what (status $rc; lacks:$missing)"; printf '%s\n' "$got" | grep -v '^ok' | sed 's/^/# /'; fi
}

# a chapter's pages cut out (the second chapter's, from the pages the check found)
second=$(printf '%s\n' $chapters | sed -n 2p)
if [ -n "$second" ]; then
	first=$(printf '%s\n' "$out" | grep -o 'chapter [0-9]* starts on page [0-9]*' | sed -n '2s/.* //p')
	next=$(printf '%s\n' "$out" | grep -o 'chapter [0-9]* starts on page [0-9]*' | sed -n '3s/.* //p')
	total=$(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
	: "${next:=$((total + 1))}"
	num=$(grep -o '<h1 data-number="[^"]*"' "$BOOK/$(basename "${second%.md}.html")" | head -n 1 | sed 's/.*="//; s/"$//')
	mkdir "$tmp/cut"
	pdfseparate -f 1 -l $((first - 1)) "$pdf" "$tmp/cut/a-%04d.pdf" &&
		{ [ "$next" -gt "$total" ] || pdfseparate -f "$next" -l "$total" "$pdf" "$tmp/cut/b-%04d.pdf"; } &&
		pdfunite "$tmp"/cut/*.pdf "$tmp/cut.pdf"
	expect "a PDF without chapter $num (pages $first-$((next - 1)) cut out)" "$tmp/cut.pdf" "chapter $num " "is missing"
fi

# a print.html with the last figure removed, the first one drawn with the second's picture and
# chapters that run on, printed again
cp -R "$BOOK" "$tmp/book"
P=$tmp/book/print.html
nums=$(grep -o 'class="figure-number">Figure.[0-9.]*' "$P" | sed 's/.*Figure.//')
srcs=$(grep -o '<img src="figures/[^"]*"' "$P" | sed 's/.*src="//; s/"$//')
n=$(printf '%s\n' "$nums" | grep -c .)
if [ "$n" -ge 3 ]; then
	firstnum=$(printf '%s\n' $nums | head -n 1) lastnum=$(printf '%s\n' $nums | tail -n 1)
	src1=$(printf '%s\n' $srcs | sed -n 1p) src2=$(printf '%s\n' $srcs | sed -n 2p)
	awk -v n="$n" '/^<figure>/ { k++ } k == n && !done { if (/<\/figure>/) done = 1; next } { print }' "$P" > "$P.new"
	sed -i "s|<img src=\"$src1\"|<img src=\"$src2\"|" "$P.new"
	sed -i 's|</head>|<style>section.level1 { break-before: auto !important; }</style></head>|' "$P.new"
	mv "$P.new" "$P"
	if node mk/print-pdf.js "$P" "$tmp/book/book.pdf" >"$tmp/print.log" 2>&1; then
		expect "a missing figure (Figure $lastnum)" "$tmp/book/book.pdf" "Figure $lastnum (" "is missing"
		expect "a figure with another's drawing (Figure $firstnum)" "$tmp/book/book.pdf" "Figure $firstnum: its drawing ($src1"
		expect "chapters that do not start a new page" "$tmp/book/book.pdf" "does not start a new page"
	else
		not_ok "mk/print-pdf.js cannot print the damaged print.html"; sed 's/^/# /' "$tmp/print.log"
	fi
fi

# the printer refuses, naming it, a figure that does not load and code that does not wrap
refuses() {  # refuses WHAT NEEDLE: printing $tmp/book/print.html must fail with an error that says NEEDLE
	rm -f "$tmp/book/book.pdf"
	got=$(node mk/print-pdf.js "$tmp/book/print.html" "$tmp/book/book.pdf" 2>&1); rc=$?
	if [ $rc -ne 0 ] && printf '%s' "$got" | grep -q "^error: .*$2" && [ ! -e "$tmp/book/book.pdf" ]; then
		ok "printing stops at $1, naming it"
	else
		not_ok "printing with $1 (status $rc): $got"
	fi
}
rm -rf "$tmp/book"; cp -R "$BOOK" "$tmp/book"
gone=$(grep -o '<img src="figures/[^"]*"' "$BOOK/print.html" | head -n 1 | sed 's/.*src="//; s/"$//')
rm -f "$tmp/book/$gone"
refuses "a figure that does not load" "figures that did not load: $gone"
rm -rf "$tmp/book"; cp -R "$BOOK" "$tmp/book"
sed -i 's|</head>|<style>pre { overflow: hidden !important; } pre, pre code { white-space: pre !important; }</style></head>|' "$tmp/book/print.html"
refuses "code past the right margin" "past the margins, [0-9]*px apart .*: pre\.[a-zA-Z]* in [0-9.]* "
rm -rf "$tmp/book"; cp -R "$BOOK" "$tmp/book"
sed -i 's|</head>|<style>p { text-indent: -3em !important; }</style></head>|' "$tmp/book/print.html"
refuses "text past the left margin" "past the margins, [0-9]*px apart .*: p in "

# without chromium: the rest of the book, and one note
W=$tmp/repo
copy_repo "$W"
rm -f "$W/$BOOK/book.pdf"
got=$(cd "$W" && CHROMIUM=no-such-chromium INSTALL_TOOLS=no make --no-print-directory book 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$got" | grep -c '^note: .*without .*book.pdf')" = 1 ] &&
	[ ! -e "$W/$BOOK/book.pdf" ] && [ -s "$W/$BOOK/index.html" ] && [ -s "$W/$BOOK/book.epub" ]; then
	ok "without chromium make builds the rest of the book, with one note"
else
	not_ok "without chromium (status $rc):"; printf '%s\n' "$got" | tail -n 5 | sed 's/^/# /'
fi
exit $FAILED
