#!/bin/sh
# title: Handle a batch, L > 1
# The scheduler hands out tiles (m, n, l), but the tile code (a_slab, b_slab
# and c_tile in scheduling.cu) ignores l: with L = 3 every batch reads and
# writes batch 0.  The batches lie one after another: A[l] is M x K, B[l]
# K x N, C[l] M x N.  Make the three functions add batch l's offset; the
# host run of the tile code (and the kernel, which uses the same functions)
# must then get every element of all three batches right.
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1) || not_solved "the lab exits with a failure: $(printf '%s\n' "$out" | grep FAIL | head -n 1)"
printf '%s\n' "$out" | grep -q '^PASS batch host run: L = 3 batches' ||
	not_solved "$(printf '%s\n' "$out" | grep 'batch host run' | head -n 1 | sed 's/^note batch host run: //')"
solved
