# Exercise 6: the idle tail of a run, from the measured timeline (figures/data/07_timeline.dat,
# written by `build/bin/07_gemm --timeline DIR`).  Its first line names the GPU and its SM count,
# "(sm_90, 132 SMs, ...)"; every other line not starting with # is one unit of work:
#   $1 run  $3 M  $6 the SM it ran on  $14 start  $17 end (µs)
# The idle tail of a run is the time the SMs spend idle after their own last unit, until the
# run's last unit ends, as a percentage of all the SMs' time: with T the latest end and e(s) the
# end of SM s's last unit,  100 * sum over the GPU's SMs of (T - e(s)) / (SMs * T).  Complete
# this program so that
#   awk -v run=whole-tiles -v M=5120 -f labs/07_gemm/exercises/6-tail.awk figures/data/07_timeline.dat
# prints it, with two decimals, for any run and M of the file.  As shipped, it is right for the
# 5120 x 5120 x 4096 runs and wrong for one of the 1536 x 1536 x 16384 runs: find out why (figure
# "whole tiles against Stream-K" of chapter 7), then run:
#   make check LAB=07 EX=6
/^#/ { next }
$1 == run && $3 == M {
  if ($17 > end[$6]) end[$6] = $17
  if ($17 > T) T = $17
}
END {
  n = 0; s = 0
  for (sm in end) { n++; s += T - end[sm] }
  printf "%.2f\n", 100 * s / (n * T)
}
