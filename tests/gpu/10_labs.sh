#!/usr/bin/env bash
# make test-gpu: on a machine with a CUDA device, every lab verifies its
# device result (exit 0 and a PASS line, no FAIL), and compute-sanitizer's
# memcheck, racecheck and synccheck find nothing in it; the recorded outputs
# that need a GPU still match.
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
for lab in $labs; do
	bin=$B/bin/$lab
	[ -x "$bin" ] || { not_ok "$bin is not built"; continue; }
	out=$("$bin" 2>&1); rc=$?
	if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q PASS && ! printf '%s\n' "$out" | grep -q FAIL; then
		ok "$lab verifies on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
	else
		not_ok "$lab does not verify (status $rc)"; printf '%s\n' "$out" | tail -n 10 | sed 's/^/# /'
	fi
	# a small problem, verified but not timed: --quick --check-only, or what the lab's
	# labs/NN_name/sanitizer-args says (a GEMM of 4097^3 under memcheck would take hours)
	sargs="--quick --check-only"
	[ -f "labs/$lab/sanitizer-args" ] && sargs=$(cat "labs/$lab/sanitizer-args")
	for tool in memcheck racecheck synccheck; do
		out=$("$sanitizer" --tool "$tool" --error-exitcode 99 "$bin" $sargs 2>&1); rc=$?
		[ $rc -eq 0 ] && ok "$lab: compute-sanitizer $tool finds nothing ($sargs)" ||
			{ not_ok "$lab: compute-sanitizer $tool (status $rc)"; printf '%s\n' "$out" | tail -n 10 | sed 's/^/# /'; }
	done
done
mk/outputs.sh check || FAILED=1
exit $FAILED
