#!/bin/sh
# title: Print the column of tiles local_tile(mC, (_32,_64), (_,1))
# The own_row_of_tiles kernel gives CTA bx the row of tiles (bx,_) of C =
# (128,192):(_1,128).  Add to the host part (seed_examples is a good place)
# the view that CTA column by = 1 would take instead, printed with show() and
# the calculator expression as its text:
#   local_tile((128,192):(_1,128), (_32,_64), (_,1))   -> offset o layout
# Predict it first: how many tiles, and what is the stride of the last mode?
. mk/checker-lib.sh
lab_build
CUDA_VISIBLE_DEVICES=-1 "$WORK/lab" > "$WORK/out" 2>&1 || not_solved "the lab's host part fails: $(tail -n 1 "$WORK/out")"
expr='local_tile((128,192):(_1,128),(_32,_64),(_,1))'
line=$(sed 's/ *-> */\t/' "$WORK/out" | awk -F'\t' -v e="$expr" '{ l = $1; gsub(/ /, "", l) } l == e { print; exit }')
[ -n "$line" ] || not_solved "the host part prints no line 'local_tile((128,192):(_1,128), (_32,_64), (_,1)) -> ...'"
got=$(printf '%s\n' "$line" | cut -f2)
want=$(calc 'local_tile((128,192):(_1,128), (_32,_64), (_,1))')
[ "$got" = "$want" ] || not_solved "the column of tiles prints as $got, but the calculator says $want"
solved
