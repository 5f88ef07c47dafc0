#!/bin/sh
# outputs.sh update|check [CMD...]
#
# A recorded output is a pair in a lab directory:
#   labs/NN_name/output*.cmd   a shell command, run from the repository root
#   labs/NN_name/output*.txt   what it printed (stdout and stderr), committed
# A chapter shows the .txt with ```{.output include-output="..."}```.
# "update" rewrites the .txt files; "check" prints one ok/not ok line per
# pair. Lines that describe the run rather than what the program computed are
# left out of the comparison: measurement lines, which hold timings ("bench:",
# "choice:", "schedule:", "shape:", "shapes:", "launch:"), what cuBLAS chose to
# run on the GPU ("cublas:", which depends on the GPU and the cuBLAS release), and
# the "device:" line, which names the GPU. A GPU output recorded on an H200 thus
# checks on an H100 too.
# A .cmd whose first line is "# needs: gpu" is run only where a CUDA device
# is present; one that names $B/bin/NN_name is skipped when that lab could not
# be built (no nvcc).
set -u
B=${B:-build}
export B LAYOUT="${LAYOUT:-$B/bin/layout}"
mode=${1:-check}; shift 2>/dev/null
[ $# -gt 0 ] || set -- labs/[0-9][0-9]_*/output*.cmd

have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }
strip() { grep -Ev '^(bench|choice|schedule|shapes?|launch|cublas|device):' "$1" || true; }

status=0 n=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for cmd in "$@"; do
	[ -f "$cmd" ] || continue
	n=$((n + 1))
	txt=${cmd%.cmd}.txt
	lab=$(basename "$(dirname "$cmd")")
	if head -n 1 "$cmd" | grep -q '^# needs: gpu' && ! have_gpu; then
		echo "ok - $txt # SKIP needs a CUDA device"; continue
	fi
	if grep -q "bin/$lab" "$cmd" && [ ! -x "$B/bin/$lab" ]; then
		echo "ok - $txt # SKIP $B/bin/$lab not built (no nvcc)"; continue
	fi
	sh "$cmd" >"$tmp/out" 2>&1
	rc=$?
	if [ "$mode" = update ]; then
		cp "$tmp/out" "$txt"
		echo "wrote $txt (exit status $rc)"
		continue
	fi
	if [ ! -f "$txt" ]; then
		echo "not ok - $txt is missing (make outputs writes it)"; status=1; continue
	fi
	strip "$txt" >"$tmp/want"; strip "$tmp/out" >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then
		echo "ok - $txt matches what $cmd prints"
	else
		echo "not ok - $txt differs from what $cmd prints now (make outputs rewrites it)"
		diff -u "$tmp/want" "$tmp/got" | head -n 40 | sed 's/^/# /'
		status=1
	fi
done
[ $n -gt 0 ] || echo "ok - no recorded outputs to check # SKIP"
exit $status
