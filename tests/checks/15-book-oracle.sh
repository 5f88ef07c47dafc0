#!/usr/bin/env bash
# Every live example of the book was asked of real CuTe: its expression is a line of
# tests/data/oracle/book_examples.tsv (CuTe computed it; 10-library.sh and 11-calculator.sh check
# that the library gives CuTe's result) or of book_refused.tsv (CuTe refuses it, as the book
# shows; 14-oracle-refusals.sh checks that the library refuses it too).
# tests/oracle/book_examples.py says how the files are made.
cd "$(dirname "$0")/../.." || exit 1
if ! command -v python3 >/dev/null 2>&1; then
	echo "not ok - the live examples against CuTe: python3 not found (make test installs it)"; exit 1
fi
python3 tests/oracle/book_examples.py check
rc=$?
# the check can fail: an example nobody asked CuTe about, and an error CuTe does not give
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '```layout\n%s\n```\n' 'coalesce((_3,_7):(_1,_3)) => _21:_1' 'size(_5:_1) => error: invented' >"$tmp/99_new.md"
out=$(python3 tests/oracle/book_examples.py check "$tmp/99_new.md")
if [ $? -eq 1 ] && grep -q 'coalesce((_3,_7):(_1,_3)) was not asked' <<<"$out"; then
	echo "ok - a live example that was not asked of CuTe is caught"
else echo "not ok - a live example that was not asked of CuTe passes"; rc=1; fi
printf '```layout\n%s\n```\n' 'composition((_4,_6):(_6,_1), _3:_2) => (_3):(_12)' 'coalesce((_2,_1,_6):(_1,_7,_2)) => error: invented' >"$tmp/99_new.md"
out=$(python3 tests/oracle/book_examples.py check "$tmp/99_new.md")
if [ $? -eq 1 ] && grep -q 'CuTe refuses composition' <<<"$out" && grep -q 'shows an error for coalesce' <<<"$out"; then
	echo "ok - a result where CuTe refuses, and an error where CuTe computes, are caught"
else echo "not ok - a result where CuTe refuses, or an error where CuTe computes, passes"; rc=1; fi
exit $rc
