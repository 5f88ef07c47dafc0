#!/bin/sh
# title: The accumulator's thread-value layout
# Answer in exercises/3-accumulator.txt: the layout (thread, value) -> row + 64 * column of the
# wgmma accumulators in a warpgroup's (64,256) tile, checked at all 128 x 128 (t, v).
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/3-accumulator.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/3-accumulator.txt holds no layout"
s=$(calc "size($answer)")
[ "$s" = "16384" ] || not_solved "'$answer' has size $s, not 128 x 128 = 16384"
# every (t, v): what the answer says, and what the epilogue of hopper.h writes
awk -v L="$answer" 'BEGIN { for (t = 0; t < 128; t++) for (v = 0; v < 128; v++) printf "crd2idx(%s, (%d,%d))\n", L, t, v }' |
	"$LAYOUT" >"$WORK/got" 2>&1
awk 'BEGIN { for (t = 0; t < 128; t++) for (v = 0; v < 128; v++) {
	e = v % 2; h = int(v / 2) % 2; j = int(v / 4)
	row = 16 * int(t / 32) + int((t % 32) / 4) + 8 * h; col = 8 * j + 2 * (t % 4) + e
	print row + 64 * col } }' >"$WORK/want"
bad=$(paste -d' ' "$WORK/got" "$WORK/want" | awk '{ sub(/^_/, "", $1) } $1 != $2 { print NR - 1, $1, $2; exit }')
[ -z "$bad" ] && solved
set -- $bad
not_solved "thread $(( $1 / 128 )), value $(( $1 % 128 )): '$answer' gives $2, the epilogue writes element $3"
