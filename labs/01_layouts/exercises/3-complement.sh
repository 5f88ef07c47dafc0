#!/bin/sh
# title: Compute a complement by hand
# Answer in exercises/3-complement.txt: the layout complement((_2,_3):(_1,_8), _48),
# worked out on paper and written as shape:stride (not as a call to complement).
# Any layout with the same offsets, in the same order, is right.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/3-complement.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/3-complement.txt holds no layout"
case $answer in *[a-z]*) not_solved "work it out by hand: write the layout itself, not a call" ;; esac
want='complement((_2,_3):(_1,_8), _48)'
got=$(calc "size($answer)")
case $got in error:*) not_solved "the calculator rejects '$answer': $got" ;; esac
n=$(calc "size($want)")
[ "${got#_}" = "${n#_}" ] ||
	not_solved "'$answer' has ${got#_} elements; the complement has ${n#_} (48 divided by the size of the layout)"
i=0
while [ "$i" -lt "${n#_}" ]; do
	a=$(calc "crd2idx($answer, $i)"); w=$(calc "crd2idx($want, $i)")
	[ "${a#_}" = "${w#_}" ] ||
		not_solved "'$answer' sends index $i to ${a#_}; the complement sends it to ${w#_}"
	i=$((i + 1))
done
solved
