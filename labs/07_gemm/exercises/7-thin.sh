#!/bin/sh
# title: Step 28's kernels and parts
# Answer in exercises/7-thin.txt: for five thin shapes on 132 SMs, the kernel step 28 runs and the
# parts its k loop is cut into.
. mk/checker-lib.sh
gemm="$B/bin/07_gemm"
[ -x "$gemm" ] || { echo "$gemm is not built (make labs): cannot check"; exit 77; }
shapes="1x66x5000 4709x1x3068 37x1x2314 1x3079x2399 2049x4787x1"
i=0
for s in $shapes; do
	i=$((i + 1))
	got=$(answers "$LAB_DIR/exercises/7-thin.txt" | sed -n "${i}p" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
	[ -n "$got" ] || not_solved "exercises/7-thin.txt holds no line $i (shape $s)"
	line=$("$gemm" --route "$s" --sms 132 | grep '^route: ') || not_solved "07_gemm --route $s failed"
	kernel=$(printf '%s\n' "$line" | sed -n 's/.*-> step 28, thin, the \([a-z]*\) kernel.*/\1/p')
	[ -n "$kernel" ] || not_solved "shape $s: the best path does not run step 28 there ($line)"
	parts=$(printf '%s\n' "$line" | sed -n 's/.*each k loop in \([0-9]*\) parts of \([0-9]*\) k.*/\1/p')
	kpart=$(printf '%s\n' "$line" | sed -n 's/.*each k loop in \([0-9]*\) parts of \([0-9]*\) k.*/\2/p')
	want="$kernel ${parts:-1}"
	[ "$got" = "$want" ] && continue
	case $got in
	"$kernel "*) not_solved "shape $s: the $kernel kernel, but not '$got'${parts:+: the parts' k is a multiple of $([ "$kernel" = rows ] && echo 256 || echo 64), here $kpart}" ;;
	rows\ *|cols\ *|outer\ *) not_solved "shape $s: not the ${got%% *} kernel (which side of C is thin, or is K?)" ;;
	*) not_solved "line $i: '$got' is not 'rows P', 'cols P' or 'outer P'" ;;
	esac
done
solved
