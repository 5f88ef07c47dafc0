#!/bin/sh
# title: Gather the 2x2 tiles of a 4x6 matrix into mode 0
# Answer in exercises/2-tiles.txt: an expression that divides (4,6):(6,_1)
# into (_2,_2) tiles, with the tile in mode 0 and the tiles in mode 1:
# ((_2,_2),(2,3)):((6,_1),(12,_2)), as the chapter's section on division shows.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/2-tiles.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/2-tiles.txt holds no expression"
got=$(calc "$answer")
want=$(calc 'zipped_divide((4,6):(6,_1), (_2,_2))')
[ "$got" = "$want" ] || not_solved "'$answer' gives $got, not the tile-first layout $want"
solved
