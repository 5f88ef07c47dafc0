#!/bin/sh
# title: Write out a zipped divide by hand
# Answer in exercises/2-tiles.txt: the layout that
# zipped_divide((6,8):(_1,6), (_3,_4)) computes, written out as shape:stride
# (not as a call): mode 0 one 3x4 tile, mode 1 which tile. Any layout whose
# two modes give the same offsets (the same --grid) is right.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/2-tiles.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/2-tiles.txt holds no layout"
case $answer in *[a-z]*) not_solved "write the layout itself (shape:stride), not a call" ;; esac
got=$("$LAYOUT" --grid "$answer" 2>&1) || not_solved "'$answer' is not a rank-2 layout: $(printf '%s\n' "$got" | head -n 1)"
want=$("$LAYOUT" --grid 'zipped_divide((6,8):(_1,6), (_3,_4))')
[ "$(printf '%s\n' "$got" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "'$answer' is not the zipped divide: compare its --grid (row = element of a tile, column = which tile) with the tiles of the matrix"
solved
