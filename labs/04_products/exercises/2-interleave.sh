#!/bin/sh
# title: Turn the blocked assignment into an interleaved one
# `interleaved` in products.cu is, as shipped, the blocked assignment of the 64x64 tile: each of
# the (_16,_16) threads owns a 4x4 block.  Change the product (one word) so that the same thread
# layout and the same 4x4 value layout give each thread one element of every 16x16 square:
# thread (t0,t1) owns the elements (m,n) with m % 16 == t0 and n % 16 == t1 -- for every value
# index the 256 threads cover a 16x16 square side by side, as local_partition would.
# The lab prints the TV layout as "ex2 interleaved tv: ...".
. mk/checker-lib.sh
lab_build
"$WORK/lab" --quick --check-only >"$WORK/out" 2>&1 || not_solved "the lab fails: $(tail -n 1 "$WORK/out")"
tv=$(sed -n 's/^ex2 interleaved tv: //p' "$WORK/out")
[ -n "$tv" ] || not_solved "the lab prints no 'ex2 interleaved tv:' line"
t=0
while [ $t -lt 256 ]; do v=0; while [ $v -lt 16 ]; do echo "crd2idx($tv, ($t,$v))"; v=$((v + 1)); done; t=$((t + 1)); done |
	"$LAYOUT" >"$WORK/offs" 2>&1 || not_solved "$tv cannot be evaluated at every (thread, value) of (256,16)"
why=$(awk '{ t = int((NR - 1) / 16); v = (NR - 1) % 16; e = $1; seen[e]++
	if (e < 0 || e >= 4096 || seen[e] > 1) { print "element " e " is owned twice or lies outside the tile"; exit }
	m = e % 64; n = int(e / 64)
	if (m % 16 != t % 16 || n % 16 != int(t / 16)) { print "thread " t " value " v " is element (" m "," n "): not in row " t % 16 " and column " int(t / 16) " of a 16x16 square"; exit }
}' "$WORK/offs")
[ -z "$why" ] || not_solved "$why"
solved
