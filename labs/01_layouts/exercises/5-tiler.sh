#!/bin/sh
# title: Find the tiler that deals out every fourth element
# Answer in exercises/5-tiler.txt: a tiler T such that logical_divide(_16:_1, T)
# has 4 tiles of 4 elements, tile k holding the elements k, k+4, k+8, k+12:
# as a grid, the function of (_4,_4):(_4,_1).
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/5-tiler.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/5-tiler.txt holds no tiler"
expr="logical_divide(_16:_1, $answer)"
got=$(calc "$expr")
case $got in error:*) not_solved "the calculator rejects $expr: $got" ;; esac
grid=$("$LAYOUT" --grid "$expr" 2>&1) ||
	not_solved "$expr is $got: not two modes (tile, rest)"
want=$("$LAYOUT" --grid '(_4,_4):(_4,_1)')
[ "$(printf '%s\n' "$grid" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "$expr is $got: its column k is not the tile k, k+4, k+8, k+12 (try: build/bin/layout --grid '$expr')"
solved
