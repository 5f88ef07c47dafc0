#!/usr/bin/env bash
# Every CUDA lab is built (when nvcc is there) and its host part runs: on a
# machine without a GPU it says so and exits 0; with one it verifies itself.
# --data into a directory that does not exist is a usage error, before any work.
cd "$(dirname "$0")/../.." && . tests/book/lib.sh
labs=$(make --no-print-directory -s -f Makefile -f - print-labs <<'MK'
print-labs: ; @echo '$(CU_LABS)|$(NVCC)'
MK
)
nvcc=${labs#*|}; labs=${labs%%|*}
if [ -z "$(echo $labs)" ]; then ok "no CUDA lab yet # SKIP"; exit 0; fi
if [ -z "$nvcc" ]; then ok "nvcc not found: CUDA labs not built # SKIP"; exit 0; fi
for lab in $labs; do
	bin=$B/bin/$lab
	if [ ! -x "$bin" ]; then not_ok "$bin is not built"; continue; fi
	if out=$(timeout 300 "$bin" 2>&1); then
		ok "$lab runs"
	else
		not_ok "$lab exits with status $?"; printf '%s\n' "$out" | tail -n 10 | sed 's/^/# /'
	fi
	out=$(timeout 60 "$bin" --data "$B/no-such-dir/data" 2>&1); rc=$?
	if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = "error: not a directory that can be written to: $B/no-such-dir/data" ]; then
		ok "$lab --data into a missing directory: a usage error"
	else
		not_ok "$lab --data into a missing directory: exit $rc"; printf '%s\n' "$out" | head -n 3 | sed 's/^/# /'
	fi
done
exit $FAILED
