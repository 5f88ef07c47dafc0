#!/bin/sh
# title: Tile the 41 x 55 example by (_8,_4) and keep it correct
# In predication.cu, change the example's tiler from (_4,_8) to (_8,_4)
# (EX_BM and EX_BN; the threads stay (_2,_4)).  The host part must print the
# new tiling as CuTe computes it -- zipped_divide of the identity tensor, the
# origin of the last tile -- and the host run of the kernel's thread code must
# still pass: every element right, the guard band untouched.
. mk/checker-lib.sh
lab_build
out=$("$WORK/lab" 2>&1) || not_solved "the lab exits with a failure: $(printf '%s\n' "$out" | grep FAIL | head -n 1)"
line() { printf '%s\n' "$out" | sed -n "s/^ *$1 *-> //p" | head -n 1; }
printf '%s\n' "$out" | grep -q '^the 41 x 55 example, tiler (_8,_4)' || not_solved "the example's tiler is not (_8,_4) yet"
want=$(calc 'zipped_divide((41,55):(_1@0,_1@1), (_8,_4))')
got=$(line 'zipped_divide(cA, tiler)')
[ "$got" = "$want" ] || not_solved "zipped_divide(cA, tiler) prints '$got', CuTe's is '$want'"
want=$(calc 'identity_local_tile((41,55), (_8,_4), (5,13))')
got=$(line 'cta_cA = local_tile(cA, tiler, last)')
[ "$got" = "$want" ] || not_solved "the last tile prints '$got', CuTe's is '$want'"
printf '%s\n' "$out" | grep -q '^PASS copy_scale host run: 41 x 55 in (_8,_4) tiles, 84 CTAs' ||
	not_solved "the host run does not pass with 84 tiles of (_8,_4)"
solved
