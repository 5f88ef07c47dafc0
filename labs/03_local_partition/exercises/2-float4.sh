#!/bin/sh
# title: Give each of 128 threads its elements as float4s along m
# In local_partition.cu (exercise_2): change ex2_thread_view so that every
# thread's elements 4q..4q+3 are four neighbouring floats along m starting at
# a multiple of 4, and every element of the (64,16) tile has exactly one owner.
. mk/checker-lib.sh
lab_build
"$WORK/lab" --exercise 2 > "$WORK/out" 2>&1 || not_solved "the lab stops: $(tail -n 1 "$WORK/out")"
sed -n 's/^exercise 2: thread \([0-9]*\): \([^ ]*\) o \(.*\)$/\1 \2 \3/p' "$WORK/out" > "$WORK/views"
[ "$(wc -l < "$WORK/views")" -eq 128 ] || not_solved "expected 128 lines 'exercise 2: thread t: offset o layout'"
# every element of every view, evaluated by the calculator: "thread offset j L(j)"
while read -r t o l; do
	n=$(calc "size($l)" | tr -d _)
	case $n in ''|*[!0-9]*) not_solved "thread $t: the calculator cannot take the size of $l" ;; esac
	j=0; while [ "$j" -lt "$n" ]; do echo "$t $o $j $l"; j=$((j + 1)); done
done < "$WORK/views" > "$WORK/elems"
awk '{ print "crd2idx(" $4 ", " $3 ")" }' "$WORK/elems" | "$LAYOUT" 2>&1 | tr -d _ > "$WORK/vals"
[ "$(wc -l < "$WORK/vals")" -eq "$(wc -l < "$WORK/elems")" ] || not_solved "the calculator cannot evaluate every view"
why=$(paste -d ' ' "$WORK/elems" "$WORK/vals" | awk '
	$5 !~ /^-?[0-9]+$/ { print "thread " $1 ": the calculator cannot evaluate " $4; bad = 1; exit }
	{ t = $1; j = $3; a = $2 + $5
	  if (a < 0 || a >= 1024) { print "thread " t " reaches offset " a ", outside the tile"; bad = 1; exit }
	  if (a in owner) { print "offset " a " belongs to thread " owner[a] " and thread " t; bad = 1; exit }
	  owner[a] = t
	  if (j % 4 == 0) { start = a
	    if (a % 4 != 0) { print "thread " t ": element " j " is at offset " a ", not a multiple of 4"; bad = 1; exit } }
	  else if (a != start + j % 4) { print "thread " t ": element " j " is at offset " a ", not " start + j % 4 ": elements " j - j % 4 ".." j - j % 4 + 3 " must be one float4 along m"; bad = 1; exit }
	  n++ }
	END { if (!bad && n != 1024) print n " elements owned, not the 1024 of the tile" }')
[ -z "$why" ] || not_solved "$why"
solved
