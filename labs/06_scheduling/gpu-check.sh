#!/bin/sh
# gpu-check.sh OUTDIR -- lab 06 on a machine with a CUDA device, everything the chapter reports:
#   OUTDIR/run.txt        a full run (verification and timing); OUTDIR/data/ its figure data
#   OUTDIR/memcheck.txt   compute-sanitizer memcheck of the --quick --check-only run
#   OUTDIR/ncu.txt        DRAM bytes read by each schedule (ncu, one launch per schedule)
# Run from the repository root; copy OUTDIR/data/06_*.dat into figures/data/ to update the figures.
set -u
out=${1:?usage: labs/06_scheduling/gpu-check.sh OUTDIR}
PATH=$PATH:/usr/local/cuda/bin
B=${B:-build}
mkdir -p "$out/data"
make --no-print-directory "$B/bin/06_scheduling" >"$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
status=0
"$B/bin/06_scheduling" --data "$out/data" >"$out/run.txt" 2>&1 || status=1
tail -n 16 "$out/run.txt"
compute-sanitizer --tool memcheck --error-exitcode 99 "$B/bin/06_scheduling" --quick --check-only \
	>"$out/memcheck.txt" 2>&1 || status=1
tail -n 3 "$out/memcheck.txt"
ncu --clock-control none --metrics dram__bytes_read.sum "$B/bin/06_scheduling" --profile \
	>"$out/ncu.txt" 2>&1 || status=1
grep -E '^profile:|dram__bytes_read.sum' "$out/ncu.txt"
exit $status
