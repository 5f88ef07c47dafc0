#!/bin/sh
# title: Print the column of tiles local_tile(mC, (_32,_64), (_,1))
# The own_row_of_tiles kernel gives CTA bx the row of tiles (bx,_) of C =
# (128,192):(_1,128).  Add to the host part (seed_examples is a good place)
# the view that CTA column by = 1 would take instead, printed with show() and
# the calculator expression as its text:
#   local_tile((128,192):(_1,128), (_32,_64), (_,1))
#     -> offset o layout
# Predict it first: how many tiles, and what is the stride of the last mode?
. mk/checker-lib.sh
# The lab prints each expression, then its result on the next line after
# "->" (or both on one line): list them as "expression<TAB>result", with the
# expression's spaces removed, so that spacing never matters.
pairs() {
	awk 'function squeeze(s) { gsub(/[ \t]+/, "", s); return s }
	/^[ \t]*->/ { r = $0; sub(/^[ \t]*->[ \t]*/, "", r); print squeeze(prev) "\t" r; next }
	/ -> / { e = $0; r = $0; sub(/[ \t]*->.*/, "", e); sub(/.*->[ \t]*/, "", r); print squeeze(e) "\t" r; next }
	{ prev = $0 }' "$1"
}
# result_of FILE EXPR: the result printed for EXPR (spaces in EXPR ignored)
result_of() {
	e=$(printf '%s' "$2" | tr -d ' \t')
	pairs "$1" | awk -F'\t' -v e="$e" '$1 == e { print $2; exit }'
}
lab_build
CUDA_VISIBLE_DEVICES=-1 "$WORK/lab" > "$WORK/out" 2>&1 || not_solved "the lab's host part fails: $(tail -n 1 "$WORK/out")"
expr='local_tile((128,192):(_1,128), (_32,_64), (_,1))'
got=$(result_of "$WORK/out" "$expr")
[ -n "$got" ] || not_solved "the host part prints no line '$expr' followed by its result"
want=$(calc "$expr")
[ "$got" = "$want" ] || not_solved "the column of tiles prints as $got, but the calculator says $want"
solved
