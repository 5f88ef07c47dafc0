#!/bin/sh
# title: Make the first wave square
# 8 x 8 tiles, 16 CTAs: with raster along M and no swizzle, the first wave
# is two whole columns of tiles -- it reads all 8 A tiles and 2 B tiles.
# In scheduling.cu, choose EX1_SWIZZLE and EX1_RASTER_M so that the first
# wave is a 4 x 4 square of tiles: 4 A tiles and 4 B tiles, the fewest
# loads 16 tiles can share.  Predict the answer from the cluster layout
# before you try it.
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1) || not_solved "the lab exits with a failure: $(printf '%s\n' "$out" | grep -E 'FAIL|NO:' | head -n 1)"
line=$(printf '%s\n' "$out" | grep '^8 x 8 tiles, 16 CTAs' | head -n 1)
[ -n "$line" ] || not_solved "the lab no longer prints the 8 x 8 schedule"
printf '%s\n' "$line" | grep -q 'wave 0 reads 4 A tiles and 4 B tiles$' || not_solved "${line#*: }"
solved
