#!/bin/sh
# title: Step 18's choice for fp32
# Answer in exercises/10-fp32-route.txt: for five fp32 shapes on 132 SMs, what step 18's launcher
# runs: whole (step 31's whole tiles), stream-k, or split N (split-K, each tile in N parts).
. mk/checker-lib.sh
gemm="$B/bin/07_gemm"
[ -x "$gemm" ] || { echo "$gemm is not built (make labs): cannot check"; exit 77; }
shapes="2000x2000x2000 1000x1000x4000 1024x1024x4096 1000x1000x96 300x600x2000"
i=0
for s in $shapes; do
	i=$((i + 1))
	got=$(answers "$LAB_DIR/exercises/10-fp32-route.txt" | sed -n "${i}p" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
	[ -n "$got" ] || not_solved "exercises/10-fp32-route.txt holds no line $i (shape $s)"
	line=$("$gemm" --route "$s" --sms 132 | grep '^route fp32: ') || not_solved "07_gemm --route $s failed"
	case $line in
	*"-> step 31, whole tiles") want=whole ;;
	*"-> step 18, Stream-K") want=stream-k ;;
	*"-> step 18, split-K, each tile in "*" parts") want="split $(printf '%s\n' "$line" | sed 's/.* in \([0-9]*\) parts$/\1/')" ;;
	*) not_solved "07_gemm --route $s prints a choice this checker does not know (the lab has changed)" ;;
	esac
	[ "$got" = "$want" ] && continue
	est=$(printf '%s\n' "$line" | sed 's/^route fp32: *//; s/ *->.*//; s/  */ /g')
	case $got in
	whole|stream-k|"split "[0-9]*)
		case $want in
		"split "*) case $got in "split "*) not_solved "shape $s: split-K, but not in ${got#split } parts: s is the smallest of floor(P / T), floor(k / 4) and 32" ;; esac ;;
		esac
		not_solved "shape $s: not '$got'; the estimates, in k tiles of one CTA: $est" ;;
	*) not_solved "line $i: '$got' is not whole, stream-k or split N" ;;
	esac
done
solved
