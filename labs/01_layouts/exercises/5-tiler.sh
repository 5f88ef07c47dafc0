#!/bin/sh
# title: Find the tiler for split tiles
# Answer in exercises/5-tiler.txt: a tiler T such that logical_divide(_24:_1, T)
# has 6 tiles of 4 elements, tile k holding the elements 2k, 2k+1, 2k+12,
# 2k+13 in that order: as a grid, the function of ((_2,_2),_6):((_1,_12),_2).
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/5-tiler.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/5-tiler.txt holds no tiler"
expr="logical_divide(_24:_1, $answer)"
got=$(calc "$expr")
case $got in error:*) not_solved "the calculator rejects $expr: $got" ;; esac
grid=$("$LAYOUT" --grid "$expr" 2>&1) ||
	not_solved "$expr is $got: not two modes (tile, rest)"
want=$("$LAYOUT" --grid '((_2,_2),_6):((_1,_12),_2)')
[ "$(printf '%s\n' "$grid" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "$expr is $got: its column k is not the tile 2k, 2k+1, 2k+12, 2k+13 (try: build/bin/layout --grid '$expr')"
solved
