#!/bin/sh
# title: Find the tiler that makes a 2-D logical product a blocked product
# In products.cu, replace `ex3_tiler` -- the intuitive (_2,_4) -- by the tuple of two layouts
# that makes logical_product(ex3_block, ex3_tiler) equal to
# blocked_product(ex3_block, ex3_repeat), character for character, as the chapter does for
# (_2,_5):(_5,_1) with <_3:_5, _4:_6>.  Leave the block and the repeat layout as they are.
. mk/checker-lib.sh
lab_build
"$WORK/lab" --quick --check-only >"$WORK/out" 2>&1 || not_solved "the lab fails: $(tail -n 1 "$WORK/out")"
lp=$(sed -n 's/^ex3 logical_product(\(.*\)): \(.*\)$/\1|\2/p' "$WORK/out")
bp=$(sed -n 's/^ex3 blocked_product(\(.*\)): \(.*\)$/\1|\2/p' "$WORK/out")
want=$(calc 'blocked_product((_2,_3):(_3,_1), (_2,_4):(_1,_2))')
[ "$bp" = "(_2,_3):(_3,_1), (_2,_4):(_1,_2)|$want" ] || not_solved "the blocked product line changed: leave ex3_block and ex3_repeat as shipped"
case $lp in "(_2,_3):(_3,_1), "*) ;; *) not_solved "the logical product must take the block (_2,_3):(_3,_1)";; esac
got=${lp#*|}
[ "$got" = "$want" ] || not_solved "logical_product(${lp%%|*}) gives $got, not $want"
solved
