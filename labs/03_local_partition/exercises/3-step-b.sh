#!/bin/sh
# title: Give the B operand its projection step
# In local_partition.cu (exercise_3): set ex3_step_b to the step that
# partitions B, an (N,K) tile, with the thread layout
# (_16,_16,_1):(_16,_1,_0) over (M,N,K).
. mk/checker-lib.sh
lab_build
"$WORK/lab" --exercise 3 > "$WORK/out" 2>&1 || not_solved "the lab stops: $(tail -n 1 "$WORK/out")"
step=$(sed -n 's/^exercise 3: step //p' "$WORK/out" | head -n 1)
sed -n 's/^exercise 3: thread \([0-9]*\): \(.*\)$/\1 \2/p' "$WORK/out" > "$WORK/got"
[ "$(wc -l < "$WORK/got")" -eq 256 ] || not_solved "expected 256 lines 'exercise 3: thread t: offset o layout'"
# what each thread must take of B: its n coordinate picks 4 rows of n, all of k
awk '{ print "local_partition((_64,_16):(_1,_64), (_16,_16,_1):(_16,_1,_0), " $1 ", (X,_1,_1))" }' "$WORK/got" |
	"$LAYOUT" > "$WORK/want" 2>&1
why=$(paste -d '|' "$WORK/got" "$WORK/want" | awk -F'|' -v step="$step" '
	{ split($1, a, " "); got = substr($1, length(a[1]) + 2)
	  if (got != $2) { print "with step " step ", thread " a[1] " takes " got " of B, but it must take " $2; exit } }')
[ -z "$why" ] || not_solved "$why"
solved
