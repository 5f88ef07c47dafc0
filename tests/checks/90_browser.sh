#!/usr/bin/env bash
# Headless Chromium opens every page of the built book: no console error, no
# broken image, no failed include, no dangling link inside the book, nothing
# fetched from the network. Then a damaged copy of the book must fail.
# The calculator in the pages (tests/book/calculator.js) must show what
# build/bin/layout prints, and a page that shows a wrong result or a wrong
# colour must fail; a book built without a WebAssembly toolchain must say so
# once and work without it.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
command -v chromium >/dev/null || { not_ok "chromium is not installed (Debian package chromium)"; exit 1; }
command -v node >/dev/null || { not_ok "node is not installed (Debian package nodejs)"; exit 1; }
node tests/book/browser.js "$B/book" || FAILED=1

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -R "$B/book" "$tmp/book"
page=$(cd "$tmp/book" && ls [0-9]*.html | head -n 1)
if [ -n "$page" ]; then
	sed -i 's|<img src="figures/|<img src="figures/missing-|; 0,/<a href="#/s|<a href="#|<a href="#no-such-id-|' "$tmp/book/$page"
	sed -i 's|</body>|<script>console.error("boom")</script></body>|' "$tmp/book/index.html"
	out=$(node tests/book/browser.js "$tmp/book")
	for what in "broken image" "link to a missing id" "console error: boom"; do
		printf '%s' "$out" | grep -q "# $what" && ok "the browser check catches a $what" ||
			{ not_ok "the browser check misses a $what"; printf '%s\n' "$out" | sed 's/^/# /'; }
	done
fi

node tests/book/calculator.js "$B/book" "${LAYOUT:-$B/bin/layout}" || FAILED=1
if grep -q 'LAYOUT_WASM = "' "$B/book/layout-wasm.js" 2>/dev/null; then
	damage() {  # damage WHAT NEEDLE FILE SED: the book's FILE changed by SED must fail, naming NEEDLE
		rm -rf "$tmp/calc"; cp -R "$B/book" "$tmp/calc"
		sed -i "$4" "$tmp/calc/$3"
		out=$(CALC_CHAPTERS='^01_' node tests/book/calculator.js "$tmp/calc" "${LAYOUT:-$B/bin/layout}")
		printf '%s' "$out" | grep -q "^# .*$2" && ok "the calculator check catches a page that shows $1" ||
			{ not_ok "the calculator check misses a page that shows $1"; printf '%s\n' "$out" | sed 's/^/# /'; }
	}
	damage "a wrong result" "page: " calc.js "s|el('code', '', res.line)|el('code', '', res.line.replace('_', ''))|"
	damage "a wrong colour" "has colour" calc.js "s|td.style.background = colour(v)|td.style.background = colour(v + 1)|"
	damage "a module that cannot start, with a message" "page: the calculator could not run here" layout-wasm.js 's|LAYOUT_WASM = "AGFzbQ|LAYOUT_WASM = "AAAAAA|'
fi

# without a WebAssembly toolchain: one note, the pages as they are, calculator.html says why
W=$tmp/nowasm
copy_repo "$W"
rm -f "$W/$B/book/layout-wasm.js"
out=$(cd "$W" && WASM_CC=no-such-clang INSTALL_TOOLS=no make --no-print-directory book 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c 'note: .*without the in-page calculator')" = 1 ]; then
	ok "without a WebAssembly toolchain the book builds, with one note"
else
	not_ok "without a WebAssembly toolchain (status $rc):"; printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
fi
out=$(CI= node tests/book/browser.js "$W/$B/book"; CI= node tests/book/calculator.js "$W/$B/book" "${LAYOUT:-$B/bin/layout}")
if ! printf '%s\n' "$out" | grep -q '^not ok' && printf '%s\n' "$out" | grep -q '^ok - the in-page calculator # SKIP'; then
	ok "a book without the in-page calculator opens cleanly, and its check says SKIP"
else
	not_ok "a book without the in-page calculator:"; printf '%s\n' "$out" | grep -v '^ok' | sed 's/^/# /'
fi
# the toolchain there now: the next make replaces the stand-in with the calculator
if grep -q 'LAYOUT_WASM = "' "$B/book/layout-wasm.js" 2>/dev/null; then
	out=$(cd "$W" && make --no-print-directory book 2>&1); rc=$?
	if [ $rc -eq 0 ] && grep -q 'LAYOUT_WASM = "' "$W/$B/book/layout-wasm.js"; then
		ok "once the toolchain is there, the next make builds the in-page calculator"
	else
		not_ok "the stand-in stays after the toolchain is there (status $rc)"; printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
	fi
fi
exit $FAILED
