#!/bin/sh
# title: Predict what coalesce prints
# Answer in exercises/4-coalesce.txt: four layouts, one a line, each what
# coalesce prints for the layout of that line in the comment, static marks
# included, written out by you (not as a call to coalesce).
. mk/checker-lib.sh
set -- '((_3,_1),(_2,_4)):((_1,_5),(_3,_6))' '(_3,_2,_5):(_10,_1,_2)' '(_4,_2,3):(_1,_4,_8)' '(_2,1,_3):(_1,_7,_2)'
answers "$LAB_DIR/exercises/4-coalesce.txt" > "$WORK/answers"
k=0
for layout in "$@"; do
	k=$((k + 1))
	answer=$(sed -n "${k}p" "$WORK/answers")
	[ -n "$answer" ] || not_solved "line $k of the answers is missing (the prediction for coalesce($layout))"
	case $answer in *[a-z]*) not_solved "line $k: predict the result and write it out, not a call" ;; esac
	got=$(calc "$answer"); want=$(calc "coalesce($layout)")
	[ "$got" = "$want" ] ||
		not_solved "line $k: coalesce($layout) does not print $got (walk right to left; mind which integers are static)"
done
solved
