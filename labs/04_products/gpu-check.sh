#!/bin/sh
# gpu-check.sh OUTDIR: what lab 04 needs from a machine with a GPU, run from the repository root.
#   OUTDIR/run.txt        a full run (1 GiB copies), also written as labs/04_products/output-gpu.txt
#   OUTDIR/04_*.dat       the figure data (--data); copy 04_bandwidth.dat to figures/data/
#   OUTDIR/memcheck.txt   compute-sanitizer memcheck, --quick --check-only
#   OUTDIR/racecheck.txt  compute-sanitizer racecheck, --quick --check-only
#   OUTDIR/sass.txt       the load and store instructions of the copy kernels (sm_90)
#   OUTDIR/ptxas.txt      registers and stack frame of every kernel
set -eu
out=${1:?usage: labs/04_products/gpu-check.sh OUTDIR}
mkdir -p "$out"
B=${B:-build}
PATH=$PATH:/usr/local/cuda/bin
make --no-print-directory "$B/bin/04_products" >"$out/build.txt" 2>&1
nvidia-smi -L >"$out/device.txt" 2>&1 || true
"$B/bin/04_products" --data "$out" >"$out/run.txt" 2>&1 || echo "run failed: $?" >>"$out/run.txt"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
"$cs" --tool memcheck --error-exitcode 1 "$B/bin/04_products" --quick --check-only >"$out/memcheck.txt" 2>&1 ||
	echo "memcheck failed: $?" >>"$out/memcheck.txt"
"$cs" --tool racecheck --error-exitcode 1 "$B/bin/04_products" --quick --check-only >"$out/racecheck.txt" 2>&1 ||
	echo "racecheck failed: $?" >>"$out/racecheck.txt"
cuobjdump --dump-sass --gpu-architecture sm_90 "$B/bin/04_products" >"$out/sass-all.txt" 2>&1 || true
awk '/Function :/ { f = $0 } /LDG|STG/ { print f ": " $0 }' "$out/sass-all.txt" |
	sed 's@/\*[0-9a-f]*\*/@@; s/  */ /g' | grep copy >"$out/sass.txt" || true
nvcc -O3 -std=c++17 -Ilib -gencode arch=compute_90,code=sm_90 -Xptxas -v -c \
	-o "$out/p.o" labs/04_products/products.cu >"$out/ptxas.txt" 2>&1 || true
rm -f "$out/p.o" "$out/sass-all.txt"
echo "done: $out"
