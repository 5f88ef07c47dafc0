#!/bin/sh
# title: Place the copies of a block with a logical product
# Answer in exercises/6-product.txt: a layout B such that
# logical_product((_2,_2):(_1,_6), B) puts its six copies of the block at the
# offsets 0, 12, 24, 2, 14, 26, in that order.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/6-product.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/6-product.txt holds no layout"
expr="logical_product((_2,_2):(_1,_6), $answer)"
got=$(calc "$expr")
case $got in error:*) not_solved "the calculator rejects $expr: $got" ;; esac
grid=$("$LAYOUT" --grid "$expr" 2>&1) || not_solved "$expr is $got: not two modes"
want=$("$LAYOUT" --grid '((_2,_2),(_3,_2)):((_1,_6),(_12,_2))')
[ "$(printf '%s\n' "$grid" | tail -n +2)" = "$(printf '%s\n' "$want" | tail -n +2)" ] ||
	not_solved "$expr is $got: its copies (row 0 of --grid) do not start at 0, 12, 24, 2, 14, 26"
solved
