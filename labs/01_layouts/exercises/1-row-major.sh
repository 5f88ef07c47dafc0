#!/bin/sh
# title: Write a padded row-major layout
# Answer in exercises/1-row-major.txt: one layout of a 3x5 matrix stored row by
# row in rows of 8 elements, its (row, col) cell holding row*8 + col, as
# cute::print_layout would show it.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/1-row-major.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/1-row-major.txt holds no expression"
got=$("$LAYOUT" --grid "$answer" 2>&1) || not_solved "the calculator rejects '$answer': $(printf '%s\n' "$got" | head -n 1)"
want=$("$LAYOUT" --grid '(3,5):(8,1)')
[ "$(printf '%s\n' "$got" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "'$answer' does not map (row, col) of a 3x5 matrix to row*8 + col; try: build/bin/layout --grid '$answer'"
solved
