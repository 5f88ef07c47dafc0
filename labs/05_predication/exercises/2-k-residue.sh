#!/bin/sh
# title: Predicate the k residue of the reduction
# row_sum_thread in predication.cu walks k in tiles of BLK_K = 8 and handles
# only K that 8 divides (row_sum_supports); the 41 x 55 example has K = 55,
# so the host run skips it.  Make it right for every K: predicate k in the
# last k tile (the m predicate stays computed once, outside the k loop), and
# let row_sum_supports accept every K.  The source's guard band holds NaN, so
# a load past column 54 poisons the sum and the check fails.
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1)
printf '%s\n' "$out" | grep -q '^FAIL row_sum' && not_solved "$(printf '%s\n' "$out" | grep '^FAIL row_sum' | head -n 1)"
printf '%s\n' "$out" | grep -q '^PASS row_sum host run: 41 x 55, k tiles of 8, the last one 7 wide' ||
	not_solved "the host run of row_sum does not pass on 41 x 55 (K = 55, a k residue of 7)"
printf '%s\n' "$out" | grep -q '^FAIL' && not_solved "the lab fails: $(printf '%s\n' "$out" | grep '^FAIL' | head -n 1)"
solved
