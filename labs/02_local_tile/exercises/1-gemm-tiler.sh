#!/bin/sh
# title: Tile the GEMM with (_64,_32,_8) and predict gA, gB and gC
# In gemm_projections (local_tile.cu), make the CTA tiler (BLK_M,BLK_N,BLK_K)
# = (_64,_32,_8), keeping the tensors and cta_coord (1,2,_).  Before you run
# the lab, write down the three views it will print (offset o layout): each
# is local_tile of its tensor, the tiler with one mode dropped by the step,
# and the coordinate with the same mode dropped.
. mk/checker-lib.sh
lab_host_run
grep -q '^GEMM projections' "$WORK/out" || not_solved "the lab no longer prints its 'GEMM projections, ...' line"
head=$(grep 'cta_tiler.*cta_coord' "$WORK/out" | head -n 1 | tr -d ' \t')
[ -n "$head" ] || not_solved "the lab no longer prints its 'cta_tiler ..., cta_coord ...' line"
tiler=$(printf '%s\n' "$head" | sed -n 's/.*cta_tiler\(([^)]*)\),cta_coord.*/\1/p')
coord=$(printf '%s\n' "$head" | sed -n 's/.*cta_coord\(([^)]*)\).*/\1/p')
[ "$tiler" = "(_64,_32,_8)" ] || not_solved "the GEMM tiler is $tiler; make it (_64,_32,_8)"
[ "$coord" = "(1,2,_)" ] || not_solved "keep cta_coord (1,2,_) (it is $coord)"
for x in "A (128,16):(_1,128) (_1,X,_1)" "B (256,16):(_1,256) (X,_1,_1)" "C (128,256):(_1,128) (_1,_1,X)"; do
	set -- $x
	got=$(result_of "$WORK/out" "g$1 = local_tile(m$1, tiler, coord, $3)")
	[ -n "$got" ] || not_solved "no line 'g$1 = local_tile(m$1, tiler, coord, $3)' with its result in the lab's output"
	want=$(calc "local_tile($2, $tiler, $coord, $3)")
	[ "$got" = "$want" ] || not_solved "g$1 prints $got, but local_tile($2, $tiler, $coord, $3) is $want"
done
solved
