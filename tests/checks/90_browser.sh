#!/usr/bin/env bash
# Headless Chromium opens every page of the built book: no console error, no
# broken image, no failed include, no dangling link inside the book, nothing
# fetched from the network. Then a damaged copy of the book must fail.
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
exit $FAILED
