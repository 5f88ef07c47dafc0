#!/bin/sh
# title: Take the n predicate away and watch the guard band catch it
# Break the lab on purpose: take the n predicate away by adding the line
#   #define DROP_PREDICATE_N
# to predication.cu above its #include lines (make check passes no -D flags;
# the switch sets pn to all ones in copy_scale_thread).  First predict, from
# the tiling alone, how many elements of the 41 x 55 example the host run then
# writes outside the matrix, and at which offset the first one lands.  The
# checker wants the lab to fail, naming the guard band after the matrix with
# exactly that count and offset -- proof that the check catches a missing
# predicate by itself, not by luck.  (On a machine with a GPU the lab also
# runs its device part, and the device check must name the guard band too.)
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
