#!/bin/sh
# title: Step 19's parts and pairs
# Answer in exercises/9-split-pairs.txt: for five shapes whose route is step 19, on 132 SMs, the
# number of parts each tile's k loop is cut into and which operand the pairs share (A, B or -).
. mk/checker-lib.sh
gemm="$B/bin/07_gemm"
[ -x "$gemm" ] || { echo "$gemm is not built (make labs): cannot check"; exit 77; }
shapes="896x1000x6000 1200x300x4000 1000x600x8192 300x520x12000 384x768x16384"
i=0
for s in $shapes; do
	i=$((i + 1))
	got=$(answers "$LAB_DIR/exercises/9-split-pairs.txt" | sed -n "${i}p" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
	[ -n "$got" ] || not_solved "exercises/9-split-pairs.txt holds no line $i (shape $s)"
	line=$("$gemm" --route "$s" --sms 132 | grep '^route: ') || not_solved "07_gemm --route $s failed"
	parts=$(printf '%s\n' "$line" | sed -n 's/.*-> step 19, .* tile in \([0-9]*\) parts.*/\1/p')
	[ -n "$parts" ] || not_solved "07_gemm --route $s does not run step 19 (the lab has changed)"
	pairs=$(printf '%s\n' "$line" | sed -n 's/.*in pairs that share \([AB]\)$/\1/p')
	[ -n "$pairs" ] || pairs=-
	[ "$got" = "$parts $pairs" ] && continue
	case $got in
	"$parts "[AB-]) not_solved "shape $s: $parts parts, but not pairs '${got#* }': count the tile columns, ceil(N / 128), and the tile rows, ceil(M / 128), and ask whether B's columns (K bf16 apart) start on 128-byte lines" ;;
	[0-9]*\ [AB-]) not_solved "shape $s: not ${got%% *} parts: count the (128,128) tiles T and the k tiles k, then the most parts the SMs and the k tiles allow, min(132 / T, k / 4), and from 4 on take the larger of the two counts gh_split_parts compares" ;;
	*) not_solved "line $i: '$got' is not 'PARTS PAIRS' with PAIRS A, B or -" ;;
	esac
done
solved
