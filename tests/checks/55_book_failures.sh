#!/usr/bin/env bash
# The book build stops, naming the culprit, when an included file or anchor,
# a recorded output, a figure or its data file, or a referenced id is missing,
# or when a live example disagrees with the library. Each case breaks one
# thing in a copy of the repository (with the fixture chapter of
# tests/book/fixture added); the real tree is never touched.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
P=$tmp/pristine
copy_repo "$P"
with_fixture "$P"

if out=$(cd "$P" && make --no-print-directory book 2>&1) && grep -q 'Figure.99\.2' "$P/$B/book/99_fixture.html"; then
	ok "the fixture chapter builds"
else
	not_ok "the fixture chapter does not build"; printf '%s\n' "$out" | tail -n 15 | sed 's/^/# /'
	exit 1
fi

# fresh W from the pristine copy, then the mutation in $1 (run in W)
broken() { rm -rf "$tmp/w"; cp -a "$P" "$tmp/w"; W=$tmp/w; (cd "$W" && eval "$1"); }
fx=tests/book/fixture
# A change to a chapter's text dates every page (each page's cross-references
# read all chapters), so "make book" would rebuild the whole book before it
# reached the broken page. The cases below that change one chapter build that
# page alone (TARGET): the same rule "make book" runs for it.
fixture_page=$B/book/99_fixture.html

broken "sed -i '/ANCHOR: fixture-kernel/d' $fx/example.cu"
expect_failure "a deleted anchor" "fixture-kernel" "$fx/example.cu"

broken "rm $fx/example.cu"
expect_failure "a deleted included file" "$fx/example.cu"

broken "rm $fx/output.txt"
expect_failure "a deleted recorded output" "$fx/output.txt"

broken "rm $fx/fixture-data.dat"
expect_failure "a deleted figure data file" "$fx/fixture-data.dat"

broken "sed -i 's/(figures\/99-fixture-grid.svg)/(figures\/99-no-such.svg)/' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a figure that no rule draws" "99-no-such.svg"

broken "sed -i 's/@fig:99-fixture-data/@fig:99-no-such-id/' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a reference to a missing id" "fig:99-no-such-id"

broken "sed -i 's/{#sec:fixture-target}//' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a referenced id that was removed" "sec:fixture-target"

broken "sed -i 's/=> ((_2,_2),(2,3,8))/=> ((_2,_2),(2,3,9))/' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a live example with a wrong stated result" \
	"zipped_divide((4,6,8):(48,8,_1), (_2,_2))" "((_2,_2),(2,3,9)):((48,8),(96,16,_1))" \
	"((_2,_2),(2,3,8)):((48,8),(96,16,_1))" "chapters/99_fixture.md"

broken "sed -i 's/^zipped_divide.*/&\nno_such_op((4,6):(6,_1)) => (4,6):(6,_1)/' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a live example that the calculator rejects" "no_such_op((4,6):(6,_1))" "error"

broken "sed -i 's/^zipped_divide.*/&\nno_such_op((4,6):(6,_1))/' chapters/99_fixture.md"
TARGET="$fixture_page" expect_failure "a live example with an unexpected error" "no_such_op((4,6):(6,_1))"

broken "rm $B/book/figures/01-row-major-tiles.svg; sed -i 's/^01-row-major-tiles /#01-row-major-tiles /' figures/01.list"
TARGET="$B/book/01_layouts.html" expect_failure "a figure removed from figures/01.list" "01-row-major-tiles.svg"
exit $FAILED
