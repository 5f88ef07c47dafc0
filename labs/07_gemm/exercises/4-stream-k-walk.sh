#!/bin/sh
# title: A CTA's Stream-K walk
# Answer in exercises/4-stream-k-walk.txt: the units CTA 115 runs, in order, as "tile k_begin k_end",
# for 800 tiles of 64 k tiles on 132 CTAs (the scheduler's default split, swizzle 1, raster M).
. mk/checker-lib.sh
predict="$B/bin/06_scheduling"
[ -x "$predict" ] || { echo "$predict is not built (make labs): cannot check"; exit 77; }
units() {   # the units of CTA 115 under Stream-K tiles $1 (auto: the default)
	"$predict" --predict-sk 40 20 1 1 m 64 132 "$1" |
		sed -n 's/^cta 115 unit [0-9]* tile \([0-9]*\) ([0-9,]*) k \[\([0-9]*\),\([0-9]*\)).*/\1 \2 \3/p'
}
units auto >"$WORK/want"
[ -s "$WORK/want" ] || not_solved "06_scheduling --predict-sk printed no units for CTA 115"
answers "$LAB_DIR/exercises/4-stream-k-walk.txt" | awk '{ $1 = $1; print }' >"$WORK/got"
cmp -s "$WORK/got" "$WORK/want" && solved
n=$(wc -l <"$WORK/want"); g=$(wc -l <"$WORK/got")
dp=$("$predict" --predict-sk 40 20 1 1 m 64 132 auto | sed -n 's/.*(waves: \([0-9]*\)).*/\1/p')   # data-parallel units
# the Stream-K units in the order of the tiles, and last tile first, instead of the walk's
{ head -n "$dp" "$WORK/want"; tail -n +"$((dp + 1))" "$WORK/want" | sort -n; } >"$WORK/forward"
{ head -n "$dp" "$WORK/want"; tail -n +"$((dp + 1))" "$WORK/want" | sort -rn; } >"$WORK/backward"
walk="whole tiles first, then the part of the range's last tile, then its first tile (lib/tile_scheduler.h, lts_sk_unit_at)"
cmp -s "$WORK/got" "$WORK/forward" &&
	not_solved "the right units, but in the order of the tiles: a CTA walks its Stream-K range $walk"
cmp -s "$WORK/got" "$WORK/backward" &&
	not_solved "the right units, but walked last tile first: a CTA walks its Stream-K range $walk"
units 8 >"$WORK/last-wave"
cmp -s "$WORK/got" "$WORK/last-wave" &&
	not_solved "that is the split with the last wave's 8 tiles alone; 8 is fewer than half of 132 CTAs: see lts_sk_default_tiles"
[ "$g" -le 5 ] && not_solved "CTA 115 runs more than its data-parallel tiles: it has a Stream-K range too ($n units in all)"
[ "$g" -eq "$n" ] || not_solved "CTA 115 runs $n units, not $g"
bad=$(paste -d'|' "$WORK/got" "$WORK/want" | awk -F'|' '$1 != $2 { print NR; exit }')
not_solved "unit $((bad - 1)) (line $bad) is not '$(sed -n "${bad}p" "$WORK/got")'"
