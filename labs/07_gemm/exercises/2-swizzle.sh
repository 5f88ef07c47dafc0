#!/bin/sh
# title: Where TMA puts an element
# Answer in exercises/2-swizzle.txt: the byte offsets in shared memory of elements (37,5) and
# (8,9) of A's (64 m, 64 k) box after TMA's 128-byte swizzle, one per line.
. mk/checker-lib.sh
n=0
for mk in "37 5" "8 9"; do
	n=$((n + 1))
	set -- $mk
	line=$(answers "$LAB_DIR/exercises/2-swizzle.txt" | sed -n "${n}p")
	[ -n "$line" ] || not_solved "exercises/2-swizzle.txt holds no line $n (element ($1,$2))"
	got=$(calc "$line")
	case $got in error*|"") not_solved "line $n: the calculator rejects '$line': $got";; esac
	got=${got#_}
	plain=$(( $1 * 2 + $2 * 128 ))
	want=$(( plain ^ ((plain >> 7 & 7) << 4) ))      # the 16-byte chunk XOR the row mod 8
	[ "$got" = "$want" ] && continue
	[ "$got" = "$plain" ] && not_solved "element ($1,$2): $got is where it lies in a plain box; TMA swizzles it"
	not_solved "element ($1,$2): $got is not where TMA puts it"
done
solved
