#!/bin/sh
# title: Write a 4x6 row-major layout
# Answer in exercises/1-row-major.txt: one layout whose (row, col) cell holds
# row*6 + col, as cute::print_layout would show it.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/1-row-major.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/1-row-major.txt holds no expression"
got=$("$LAYOUT" --grid "$answer" 2>&1) || not_solved "the calculator rejects '$answer': $got"
want=$("$LAYOUT" --grid 'make_layout_right((4,6))')
[ "$(printf '%s\n' "$got" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "'$answer' does not map (row, col) to row*6 + col; try: make run LAB=01, then --grid"
solved
