#!/usr/bin/env bash
# make test-gpu: on a machine with a CUDA device,
#   - every lab verifies its device result (--check-only: exit 0, a PASS line, no FAIL);
#   - compute-sanitizer's memcheck, racecheck and synccheck find nothing in it, on problems just
#     large enough to reach every code path: --quick --check-only, or each line of the lab's
#     labs/NN_name/sanitizer-args (one sanitizer run per line and tool; a line that starts with
#     "tools=memcheck,synccheck " runs only those);
#   - every recorded output still matches what its command prints (mk/outputs.sh: the GPU ones run
#     the labs in full, timings included, so each lab's timed kernels are verified there too).
# The runs are independent, so they go GPU_TEST_JOBS at a time (default: the cores, at most 8),
# the longest first; each result is reported in a fixed order. Sharing the GPU slows each run but
# changes no result: nothing here is a timing. GPU_TEST_PART=outputs runs only the recorded
# outputs, GPU_TEST_PART=runs only the rest (default: both), for machines lent in short slices.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
if ! { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }; then
	not_ok "make test-gpu needs a CUDA device (nvidia-smi -L finds none)"; exit 1
fi
labs=$(make --no-print-directory -s -f Makefile -f - print-labs <<'MK'
print-labs: ; @echo '$(CU_LABS)'
MK
)
[ -n "$(echo $labs)" ] || { ok "no CUDA lab yet # SKIP"; exit 0; }
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
jobs=${GPU_TEST_JOBS:-$(n=$(nproc); [ "$n" -gt 8 ] && n=8; echo "$n")}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# ---- the jobs: one line each, "KIND<TAB>LAB<TAB>ARGS", in the order they start
{
	# the recorded outputs, lab 07's (the longest: full GEMM benchmarks) first
	for cmd in $(ls labs/07_*/output*.cmd 2>/dev/null) $(ls labs/[0-9][0-9]_*/output*.cmd | grep -v '^labs/07_'); do
		printf 'output\t%s\t%s\n' "$(basename "$(dirname "$cmd")")" "$cmd"
	done
	for lab in $(printf '%s\n' $labs | sort -r); do
		args=("--quick --check-only")
		[ -f "labs/$lab/sanitizer-args" ] && mapfile -t args < <(grep -v '^[[:space:]]*\(#\|$\)' "labs/$lab/sanitizer-args")
		for a in "${args[@]}"; do
			tools="racecheck memcheck synccheck"   # or, after "tools=A,B ", those alone
			case $a in tools=*) tools=${a%% *}; tools=${tools#tools=}; tools=${tools//,/ }; a=${a#* } ;; esac
			for tool in $tools; do printf '%s\t%s\t%s\n' "$tool" "$lab" "$a"; done
		done
		printf 'verify\t%s\t--check-only\n' "$lab"
	done
} > "$tmp/all-jobs"
case ${GPU_TEST_PART:-all} in
outputs) grep '^output' "$tmp/all-jobs" ;;
runs)    grep -v '^output' "$tmp/all-jobs" ;;
all)     cat "$tmp/all-jobs" ;;
*)       not_ok "GPU_TEST_PART=$GPU_TEST_PART: not outputs, runs or all"; exit 1 ;;
esac > "$tmp/jobs"

# run_job N KIND LAB ARGS: writes $tmp/N.out, N.rc, N.s
run_job() {
	local n=$1 kind=$2 lab=$3 args=$4 start=$SECONDS
	case $kind in
	output) mk/outputs.sh check "$args" ;;
	verify) "$B/bin/$lab" $args ;;
	*)      "$sanitizer" --tool "$kind" --error-exitcode 99 "$B/bin/$lab" $args ;;
	esac >"$tmp/$n.out" 2>&1 </dev/null
	echo $? >"$tmp/$n.rc"
	echo $((SECONDS - start)) >"$tmp/$n.s"
}

start=$SECONDS n=0
while IFS=$'\t' read -r kind lab args; do
	n=$((n + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	if [ "$kind" != output ] && [ ! -x "$B/bin/$lab" ]; then
		echo "$B/bin/$lab is not built" >"$tmp/$n.out"; echo 127 >"$tmp/$n.rc"; echo 0 >"$tmp/$n.s"; continue
	fi
	run_job "$n" "$kind" "$lab" "$args" &
done < "$tmp/jobs"
wait

# ---- the results, in the order of the jobs
n=0
while IFS=$'\t' read -r kind lab args; do
	n=$((n + 1))
	out=$tmp/$n.out rc=$(cat "$tmp/$n.rc") s=$(cat "$tmp/$n.s")
	case $kind in
	output)
		grep -E '^(ok|not ok)' "$out" | sed "s/\$/ [${s} s]/"
		grep -q '^not ok' "$out" && { FAILED=1; grep '^#' "$out"; }
		[ "$rc" -eq 0 ] || grep -q '^not ok' "$out" || not_ok "$args: mk/outputs.sh exited $rc" ;;
	verify)
		if [ "$rc" -eq 0 ] && grep -q PASS "$out" && ! grep -q FAIL "$out"; then
			ok "$lab verifies on $gpu ($args) [$s s]"
		else
			not_ok "$lab does not verify ($args: status $rc)"; tail -n 10 "$out" | sed 's/^/# /'
		fi ;;
	*)
		if [ "$rc" -eq 0 ]; then ok "$lab: compute-sanitizer $kind finds nothing ($args) [$s s]"
		else not_ok "$lab: compute-sanitizer $kind ($args: status $rc)"; tail -n 10 "$out" | sed 's/^/# /'; fi ;;
	esac
done < "$tmp/jobs"
echo "# $n runs, $jobs at a time, in $((SECONDS - start)) s"
exit $FAILED
