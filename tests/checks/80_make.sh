#!/usr/bin/env bash
# The Makefile: a parallel build from scratch (make -j2) in a copy of the
# repository, after which nothing is left to do; the help, exercise list and
# usage messages; one clear line for a missing tool; the note when nvcc is
# missing.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
W=$tmp/repo
copy_repo "$W"
rm -rf "$W/$B"

if out=$(cd "$W" && make --no-print-directory -j2 all 2>&1); then
	ok "make -j2 builds everything from scratch"
else
	not_ok "make -j2 fails from scratch"; printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
fi
for f in book/index.html book/book.epub book/book.pdf bin/layout lib/liblayout.a; do
	[ -s "$W/$B/$f" ] || not_ok "make -j2 did not build $B/$f"
done
again=$(cd "$W" && make --no-print-directory -j2 all 2>&1 | grep -v '^note:')
if [ -z "$(printf '%s' "$again" | grep -v "Nothing to be done\|is up to date")" ]; then
	ok "a second make -j2 has nothing to do"
else
	not_ok "a second make -j2 does work again"; printf '%s\n' "$again" | head -n 10 | sed 's/^/# /'
fi

help=$(make --no-print-directory help)
for t in test labs run exercises check bench gpu-data test-gpu clean; do
	printf '%s\n' "$help" | grep -q "^make $t" || not_ok "make help does not mention make $t"
done
ok "make help lists the targets"

bad=$(mk/exercise.sh list | grep -vE '^[0-9]{2} [0-9]+ .+$')
[ -z "$bad" ] && ok "make exercises prints NN K title lines" || not_ok "make exercises: $bad"

out=$(make --no-print-directory run 2>&1) && not_ok "make run without LAB succeeds" ||
	{ printf '%s' "$out" | grep -q 'usage: make run LAB=NN' && ok "make run without LAB prints its usage" ||
		not_ok "make run without LAB: $out"; }
out=$(make --no-print-directory check LAB=01 2>&1) && not_ok "make check without EX succeeds" ||
	{ printf '%s' "$out" | grep -q 'usage: make check' && ok "make check without EX prints its usage" ||
		not_ok "make check without EX: $out"; }

out=$(make --no-print-directory INSTALL_TOOLS=no PANDOC=no-such-pandoc book-tools 2>&1)
if [ $? -ne 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^error: missing tools: no-such-pandoc; install the Debian packages: pandoc')" = 1 ]; then
	ok "a missing tool stops make with one line naming its package"
else
	not_ok "a missing tool: $out"
fi

out=$(cd "$W" && mkdir -p labs/97_nvcc_probe && touch labs/97_nvcc_probe/probe.cu &&
	make --no-print-directory NVCC= labs 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s' "$out" | grep -q '^note: nvcc not found.*97_nvcc_probe'; then
	ok "without nvcc the labs are skipped with a note"
else
	not_ok "without nvcc (status $rc): $out"
fi
exit $FAILED
