#!/bin/sh
# title: Give each thread contiguous vectors of 8 bf16
# A 16-byte access holds 8 bf16 (2 bytes each), not 4 floats.  In products.cu, change
# `bf16_vectors` (thread layout, value layout, repeat) so that its TV layout hands a 64x64 bf16
# tile to 256 threads, 16 values each, with values 0..7 and 8..15 of every thread contiguous
# (each vector starting at a multiple of 8) and threads side by side: thread 1's first vector
# right after thread 0's.  The lab prints the result as "ex1 bf16 tv: ...".
. mk/checker-lib.sh
lab_build
"$WORK/lab" --quick --check-only >"$WORK/out" 2>&1 || not_solved "the lab fails: $(tail -n 1 "$WORK/out")"
tv=$(sed -n 's/^ex1 bf16 tv: //p' "$WORK/out")
[ -n "$tv" ] || not_solved "the lab prints no 'ex1 bf16 tv:' line"
case $(calc "size($tv)") in _4096|4096) ;; *) not_solved "$tv has $(calc "size($tv)") elements, not 4096";; esac
t=0
while [ $t -lt 256 ]; do v=0; while [ $v -lt 16 ]; do echo "crd2idx($tv, ($t,$v))"; v=$((v + 1)); done; t=$((t + 1)); done |
	"$LAYOUT" >"$WORK/offs" 2>&1 || not_solved "$tv cannot be evaluated at every (thread, value) of (256,16)"
why=$(awk '{ t = int((NR - 1) / 16); v = (NR - 1) % 16; o[t, v] = $1; seen[$1]++ }
END {
	for (x in seen) if (x + 0 < 0 || x + 0 >= 4096 || seen[x] > 1) { print "element " x " is owned " seen[x] " times or lies outside the tile"; exit }
	for (t = 0; t < 256; t++) for (v = 0; v < 16; v++) {
		b = o[t, v - v % 8]
		if (b % 8) { print "thread " t " value " (v - v % 8) " starts at element " b ", not a multiple of 8"; exit }
		if (o[t, v] != b + v % 8) { print "thread " t ": value " v " is element " o[t, v] ", not " b + v % 8 " (vectors of 8 are not contiguous)"; exit }
	}
	if (o[1, 0] != o[0, 0] + 8) { print "thread 1 starts at element " o[1, 0] ", not right after thread 0 (" o[0, 0] + 8 ")"; exit }
}' "$WORK/offs")
[ -z "$why" ] || not_solved "$why"
solved
