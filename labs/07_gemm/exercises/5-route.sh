#!/bin/sh
# title: Which kernel the best path runs
# Answer in exercises/5-route.txt: for eight shapes on 132 SMs, the step the best path runs.
. mk/checker-lib.sh
gemm="$B/bin/07_gemm"
[ -x "$gemm" ] || { echo "$gemm is not built (make labs): cannot check"; exit 77; }
shapes="1280x1280x20480 896x896x896 2048x2048x16384 7168x7168x4096 3072x3072x4096 1024x1024x4096 6144x6144x8192 8192x8192x8192"
i=0
for s in $shapes; do
	i=$((i + 1))
	got=$(answers "$LAB_DIR/exercises/5-route.txt" | sed -n "${i}p" | tr -d ' \t')
	[ -n "$got" ] || not_solved "exercises/5-route.txt holds no line $i (shape $s)"
	line=$("$gemm" --route "$s" --sms 132) || not_solved "07_gemm --route $s failed"
	want=$(printf '%s\n' "$line" | sed -n 's/^route: .*-> step \([0-9]*\),.*/\1/p')
	[ "$got" = "$want" ] && continue
	est=$(printf '%s\n' "$line" | sed -n 's/^route: .*SMs: \(.*\) ->.*/\1/p' | tr -s ' ')
	case $got in
	25|26|27|28|29|30|14|23|24|21|22|15|20|16|19|12|17) not_solved "shape $s: not step $got; the estimates, in k tiles of one SM: $est" ;;
	*) not_solved "line $i: '$got' is not one of 25, 26, 27, 28, 29, 30, 14, 23, 24, 21, 22, 15, 20, 16, 19, 12, 17" ;;
	esac
done
solved
