# The two copy kernels' SASS (recorded/h200-sass.txt: cuobjdump --dump-sass of
# the sm_90 build), counted by kind of instruction; NOP padding left out.
awk '
/^# _Z/ { k = ($2 ~ /hand/) ? "copy_hand_indexed" : "copy_local_tile"; order[++n] = k; next }
/^#/ || /^$/ || /^NOP/ { next }
{
	op = ($1 ~ /^@/) ? $2 : $1
	all[k]++
	if (op ~ /^LDG\.E\.128/) ldg[k]++
	if (op ~ /^STG\.E\.128/) stg[k]++
	if (op ~ /^(LDL|STL)/) local[k]++
	if (op ~ /^MUFU\.RCP/) div[k]++
	if (op ~ /^BRA/) bra[k]++
}
END {
	printf "%-18s %6s %9s %9s %8s %9s %8s\n", "kernel", "instrs", "LDG.E.128", "STG.E.128", "LDL/STL", "divisions", "branches"
	for (i = 1; i <= n; i++) { k = order[i]
		printf "%-18s %6d %9d %9d %8d %9d %8d\n", k, all[k], ldg[k], stg[k], local[k] + 0, div[k], bra[k] }
}' labs/02_local_tile/recorded/h200-sass.txt
