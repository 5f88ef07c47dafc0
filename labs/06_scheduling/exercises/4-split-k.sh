#!/bin/sh
# title: Make the Stream-K schedule a split-K by 4
# split_k_by_4 in scheduling.cu schedules 3 x 2 tiles of 8 k tiles each with
# Stream-K (lib/tile_scheduler.h) on EX4_CTAS CTAs and prints every unit.
# Choose EX4_CTAS so that the schedule is split-K by 4: every tile's k loop
# cut into 4 equal parts, each part the only unit of its own CTA, the part
# holding the last k tile owning the tile.  Predict first: how many CTAs, which
# k tiles does CTA 5 take, and whose partial sums does CTA 7 add?
. mk/checker-lib.sh
lab_host_run
units=$(grep '^ex4 cta ' "$WORK/out")
head=$(grep '^ex4: ' "$WORK/out" | head -n 1)
[ -n "$head" ] || not_solved "the lab no longer prints its 'ex4: ...' line"
case $head in *refused*) not_solved "the scheduler refuses it: ${head#*refused: }" ;; esac
[ -n "$units" ] || not_solved "the lab prints no 'ex4 cta ...' units"
# one unit a CTA, every CTA once
ctas=$(printf '%s\n' "$units" | awk '{ print $3 }' | sort -n | uniq | wc -l)
n=$(printf '%s\n' "$units" | wc -l)
[ "$n" -eq "$ctas" ] || not_solved "some CTA has more than one unit ($n units on $ctas CTAs): a CTA's range crosses a tile boundary"
printf '%s\n' "$units" | grep -q ' whole$' &&
	not_solved "some CTA takes a whole tile: that is data-parallel, no split ($ctas CTAs)"
# every unit 2 k tiles (8 / 4), every tile in 4 parts
bad=$(printf '%s\n' "$units" | sed -n 's/.* k \[\([0-9]*\),\([0-9]*\)).*/\1 \2/p' | awk '$2 - $1 != 2' | head -n 1)
[ -z "$bad" ] || not_solved "a unit holds k tiles [${bad% *},${bad#* }), not 2 of the 8: the k loops are not cut in 4 equal parts ($ctas CTAs)"
parts=$(printf '%s\n' "$units" | awk '{ print $7 }' | sort | uniq -c | awk '$1 != 4' | head -n 1)
[ -z "$parts" ] || not_solved "a tile is not cut into exactly 4 parts ($ctas CTAs)"
[ "$ctas" -eq 24 ] || not_solved "expected 24 CTAs, 4 per tile; the lab has $ctas"
printf '%s\n' "$units" | grep -q '^ex4 cta 7 unit 0 tile 1 (1,0,0) k \[6,8) owner: adds the partial sums of CTAs 6 down to 4, writes the tile$' ||
	not_solved "CTA 7 should own tile 1, k tiles [6,8), and add the sums of CTAs 6, 5 and 4"
solved
