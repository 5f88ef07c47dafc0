#!/bin/sh
# title: The (BM, BK, k) view of A
# Answer in exercises/1-k-tiles.txt: the calculator expression for all the k tiles of A that CTA
# row 31 reads, for a 4095 x 4095 column-major A and the Hopper steps' (128,64) tiles of A.
. mk/checker-lib.sh
answer=$(answers "$LAB_DIR/exercises/1-k-tiles.txt" | head -n 1)
[ -n "$answer" ] || not_solved "exercises/1-k-tiles.txt holds no expression"
got=$(calc "$answer")
case $got in error*|"") not_solved "the calculator rejects '$answer': $got";; esac
want=$(calc 'local_tile((4095,4095):(_1,4095), (_128,_64), (31,_))')
[ "$got" = "$want" ] && solved
case $got in
*"(_128,_64):"*) not_solved "'$answer' is one k tile, $got: keep the k mode with _" ;;
*) not_solved "'$answer' gives $got; try: build/bin/layout, then zipped_divide of A by the tile" ;;
esac
