#!/bin/sh
# title: Number the threads along k first and predict thread 37's elements
# In local_partition.cu (exercise_1): set ex1_thread_layout to a (32,8) thread
# layout that numbers threads along k first, and write into ex1_prediction the
# view of the (64,16) tile, ld 1024, that thread 37 takes ("offset o layout",
# static marks as the program prints them).
. mk/checker-lib.sh
lab_build
"$WORK/lab" --exercise 1 > "$WORK/out" 2>&1 || not_solved "the lab stops: $(tail -n 1 "$WORK/out")"
field() { sed -n "s/^exercise 1: $1 //p" "$WORK/out" | head -n 1; }
thr=$(field 'thread layout')
pred=$(field 'predicted thread 37:')
got=$(field 'computed thread 37:')
grid=$("$LAYOUT" --grid "$thr" 2>&1) || not_solved "the calculator rejects the thread layout '$thr'"
want=$("$LAYOUT" --grid 'make_layout_right((_32,_8))')
[ "$(printf '%s\n' "$grid" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "$thr does not number the threads along k first (thread m*8+k at (m,k)); try: build/bin/layout --grid '$thr'"
ref=$(calc "local_partition((_64,_16):(_1,1024), $thr, 37)")
[ "$got" = "$ref" ] || not_solved "the lab computes '$got' for thread 37, the calculator '$ref': is the tile still (_64,_16):(_1,1024)?"
[ "$pred" = "$ref" ] || not_solved "your prediction '$pred' is not what thread 37 takes (static marks count); work it out from zipped_divide((_64,_16):(_1,1024), (_32,_8))"
solved
