#!/bin/sh
# title: Which height for a tall, narrow C
# Answer in exercises/8-tall.txt: for five shapes whose C has 65 to 128 columns and many rows, on 132
# SMs, the step the best path runs and the width of its tiles.
. mk/checker-lib.sh
gemm="$B/bin/07_gemm"
[ -x "$gemm" ] || { echo "$gemm is not built (make labs): cannot check"; exit 77; }
shapes="32768x128x8192 43264x68x7488 77696x111x10048 65536x100x4096 25000x90x4096"
i=0
for s in $shapes; do
	i=$((i + 1))
	got=$(answers "$LAB_DIR/exercises/8-tall.txt" | sed -n "${i}p" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
	[ -n "$got" ] || not_solved "exercises/8-tall.txt holds no line $i (shape $s)"
	line=$("$gemm" --route "$s" --sms 132 | grep '^route: ') || not_solved "07_gemm --route $s failed"
	step=$(printf '%s\n' "$line" | sed -n 's/.*-> step \([0-9]*\),.*/\1/p')
	bn=$(printf '%s\n' "$line" | sed -n 's/.* of ([0-9]*,\([0-9]*\)) tiles.*/\1/p')
	[ "$got" = "$step $bn" ] && continue
	case $got in
	"$step "*) not_solved "shape $s: step $step, but not width ${got#* } (how many columns of C does the tile need?)" ;;
	30\ *|26\ *|29\ *) not_solved "shape $s: not step ${got%% *}: count the tiles of each height, ceil(M / bm), their waves on 132 SMs, and the rows of A those put on one SM; where two tie, the taller" ;;
	*) not_solved "line $i: '$got' is not 'STEP WIDTH' with STEP 30, 26 or 29" ;;
	esac
done
solved
