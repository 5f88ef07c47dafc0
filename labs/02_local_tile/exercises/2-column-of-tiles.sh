#!/bin/sh
# title: Print the column of tiles local_tile(mC, (_32,_64), (_,1))
# The own_row_of_tiles kernel gives CTA bx the row of tiles (bx,_) of C =
# (128,192):(_1,128).  Add to the host part (seed_examples is a good place)
# the view that CTA column by = 1 would take instead, printed with show() and
# the calculator expression as its text:
#   local_tile((128,192):(_1,128), (_32,_64), (_,1))
#     -> offset o layout
# Predict it first: how many tiles, and what is the stride of the last mode?
. mk/checker-lib.sh
lab_host_run
expr='local_tile((128,192):(_1,128), (_32,_64), (_,1))'
got=$(result_of "$WORK/out" "$expr")
[ -n "$got" ] || not_solved "the host part prints no line '$expr' followed by its result"
want=$(calc "$expr")
[ "$got" = "$want" ] || not_solved "the column of tiles prints as $got, but the calculator says $want"
solved
