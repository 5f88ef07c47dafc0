#!/bin/sh
# title: Take the n predicate away and watch the guard band catch it
# Break the lab on purpose: in copy_scale_thread, drop the n predicate (set
# pn to all ones, as the DROP_PREDICATE_N switch does, or define that switch
# at the top of predication.cu).  First predict, from the tiling alone, which
# elements of the 41 x 55 example are then written outside the matrix: the
# last column of tiles spans columns 48..55.  The checker wants the lab to
# fail, naming the guard band after the matrix with exactly that many stray
# elements -- proof that the check catches a missing predicate by itself, not
# by luck.  (With a GPU, the device check must catch it too.)
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1) && not_solved "the lab still passes: every predicate is in place"
printf '%s\n' "$out" | grep -q '^FAIL guard band (copy_scale host run, 41 x 55, ld 41): 41 elements written outside the matrix; first at offset 2255 (after the matrix, row 0 of column 55)' ||
	not_solved "the host run does not fail with 41 stray elements from column 55 on (is it the n predicate that is gone?)"
if have_gpu; then
	printf '%s\n' "$out" | grep -q '^FAIL guard band (copy_scale_predicated' ||
		not_solved "the device check does not name the guard band"
fi
solved
