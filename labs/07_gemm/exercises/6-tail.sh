#!/bin/sh
# title: The idle tail of a run
# Answer in exercises/6-tail.awk: an awk program that prints a run's idle tail in percent from
# figures/data/07_timeline.dat; checked on the four runs of Stream-K's figure, and on a small made-up
# timeline whose answer is known.
. mk/checker-lib.sh
prog="$LAB_DIR/exercises/6-tail.awk"
data=figures/data/07_timeline.dat
[ -r "$data" ] || not_solved "$data is missing"
# the reference: every SM of the GPU counts, an SM that ran nothing is idle for all of T
tail_of() {
	awk -v run="$2" -v M="$3" 'NR == 1 { match($0, /[0-9]+ SMs/); P = substr($0, RSTART, RLENGTH) + 0 }
		/^#/ { next }
		$1 == run && $3 == M { if ($17 > e[$6]) e[$6] = $17; if ($17 > T) T = $17 }
		END { s = 0; for (k = 0; k < P; k++) s += T - e[k]; printf "%.2f\n", 100 * s / (P * T) }' "$1"
}
# a made-up GPU of 4 SMs: SM 0 ends at 10, SM 1 at 5, SM 2 at 8, SM 3 runs nothing: 42.50
{ echo "# A made-up GPU (sm_90, 4 SMs, 1 MiB L2), 2026-01-01"
  echo "# run version M N K sm cta wg m n k_begin k_end kind start_us mma_end_us fix_end_us end_us"
  echo "t x 1 1 1 0 0 0 0 0 0 1 0 0.00 6.00 6.00 10.00"
  echo "t x 1 1 1 1 1 0 0 0 0 1 0 0.00 4.00 4.00 5.00"
  echo "t x 1 1 1 2 2 0 0 0 0 1 0 1.00 7.00 7.00 8.00"
  echo "u x 1 1 1 3 3 0 0 0 0 1 0 0.00 9.00 9.00 20.00"; } >"$WORK/small.dat"
for c in "$data whole-tiles 1536" "$data Stream-K 1536" "$data whole-tiles 5120" "$data Stream-K 5120" \
         "$WORK/small.dat t 1"; do
	set -- $c
	want=$(tail_of "$1" "$2" "$3")
	got=$(awk -v run="$2" -v M="$3" -f "$prog" "$1" 2>&1 | head -n 1)
	[ "$got" = "$want" ] && continue
	what="run $2, M = $3"
	[ "$1" = "$data" ] || what="a made-up timeline of 4 SMs (SM 3 runs nothing; another run is in the file)"
	not_solved "$what: the program prints '$got', the idle tail is $want%"
done
solved
