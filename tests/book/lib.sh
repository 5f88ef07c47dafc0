# Helpers for the book and pipeline checks (tests/checks/5x..9x).
#   . tests/book/lib.sh
B=${B:-build}
export B

ok()     { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; FAILED=1; }
FAILED=0

# copy_repo DEST: the working tree (with its build outputs, so nothing is
# rebuilt that need not be) copied to DEST, never touching the real tree
copy_repo() {
	mkdir -p "$1"
	tar --exclude=./.git -cf - . | tar -C "$1" -xf -
}

# with_fixture DIR: adds the fixture chapter of tests/book/fixture to the
# copy in DIR (a chapter, a figure from the calculator, one from a data file)
with_fixture() {
	cp tests/book/fixture/99_fixture.md "$1/chapters/"
	cat tests/book/fixture/layouts.line >> "$1/figures/99.list"
	echo 'include tests/book/fixture/fixture.mk' >> "$1/figures/figures.mk"
}

# expect_failure WHAT NEEDLE... : run "make book" in $W (or "make $TARGET",
# where TARGET names one page); it must fail and its output must name every
# NEEDLE
expect_failure() {
	what=$1; shift
	out=$(cd "$W" && make --no-print-directory "${TARGET:-book}" 2>&1); rc=$?
	missing=
	for n in "$@"; do printf '%s' "$out" | grep -qF -- "$n" || missing="$missing '$n'"; done
	if [ $rc -ne 0 ] && [ -z "$missing" ]; then
		ok "$what stops the build, naming it"
	else
		not_ok "$what: make book exited $rc, output lacks:$missing"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/# /'
	fi
}
