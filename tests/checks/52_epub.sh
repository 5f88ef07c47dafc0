#!/usr/bin/env bash
# The EPUB is valid: EPUBCheck (Debian package epubcheck, run with java) finds no error and no
# warning in build/book/book.epub -- no script, no duplicate id, every file in the manifest. A
# damaged EPUB must fail.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
jar=/usr/share/java/epubcheck.jar
command -v java >/dev/null && [ -r "$jar" ] ||
	{ not_ok "epubcheck is not installed (Debian package epubcheck)"; exit 1; }
epub=$B/book/book.epub
[ -f "$epub" ] || { not_ok "$epub is missing (make book)"; exit 1; }
out=$(java -jar "$jar" "$epub" 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '0 fatals / 0 errors / 0 warnings'; then
	ok "EPUBCheck finds no error and no warning in $epub"
else
	not_ok "EPUBCheck on $epub (status $rc)"; printf '%s\n' "$out" | grep -E '^(FATAL|ERROR|WARNING)|Messages' | head -n 15 | sed 's/^/# /'
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
head -c "$(( $(wc -c < "$epub") / 2 ))" "$epub" > "$tmp/cut.epub"
if ! java -jar "$jar" "$tmp/cut.epub" >/dev/null 2>&1; then ok "EPUBCheck catches a damaged EPUB (cut in half)"
else not_ok "EPUBCheck passes an EPUB cut in half"; fi
exit $FAILED
