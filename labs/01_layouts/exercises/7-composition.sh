#!/bin/sh
# title: Compose by hand
# Answer in exercises/7-composition.txt: five lines, each the layout that
# composition((_6,_4):(_4,_1), B) gives for the B of that line in the
# comment, written out by you, or the word error where CuTe refuses. Any
# layout with the same offsets, in the same order, is right.
. mk/checker-lib.sh
set -- '_3:_2' '_4:_3' '_4:_12' '_4:_2' '(_3,_2):(_2,_1)'
A='(_6,_4):(_4,_1)'
answers "$LAB_DIR/exercises/7-composition.txt" > "$WORK/answers"
k=0
for b in "$@"; do
	k=$((k + 1))
	answer=$(sed -n "${k}p" "$WORK/answers" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	[ -n "$answer" ] || not_solved "line $k of the answers is missing (composition($A, $b))"
	want=$(calc "composition($A, $b)")
	case $want in
	error:*)
		[ "$answer" = error ] || not_solved "line $k: CuTe refuses composition($A, $b) (which condition fails?)"
		continue ;;
	esac
	[ "$answer" != error ] || not_solved "line $k: composition($A, $b) is a layout, not an error"
	case $answer in *[a-z]*) not_solved "line $k: write the layout itself, not a call" ;; esac
	n=$(calc "size($want)"); got=$(calc "size($answer)")
	case $got in error:*) not_solved "line $k: the calculator rejects '$answer': $got" ;; esac
	[ "${got#_}" = "${n#_}" ] || not_solved "line $k: '$answer' has ${got#_} elements; composition($A, $b) has ${n#_}"
	i=0
	while [ "$i" -lt "${n#_}" ]; do
		a=$(calc "crd2idx($answer, $i)"); w=$(calc "crd2idx($want, $i)")
		[ "${a#_}" = "${w#_}" ] ||
			not_solved "line $k: '$answer' sends index $i to ${a#_}; composition($A, $b) sends it to ${w#_}"
		i=$((i + 1))
	done
done
solved
