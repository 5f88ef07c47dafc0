# 07-pingpong-timeline.gp: the ping-pong of step 16, measured (lab 07 --timeline DIR, 07_timeline.dat).
#
#   gnuplot -c figures/07-pingpong-timeline.gp figures/data/07_timeline.dat OUT.svg
#
# The data: as figures/07-stream-k-timeline.gp's; here the rows of the run "ping-pong" (step 16 at
# 4096 x 4096 x 1024: 1024 tiles of 128 x 128, 16 k tiles each).  The first four SMs that ran it,
# a row per consumer warpgroup: a box for each tile's MMAs (from the turn to the last wgmma's
# completion), coloured by warpgroup, then a grey box for its epilogue (writing the tile to C).
# While one warpgroup writes, the other's MMAs run; where both boxes of an SM are grey or empty,
# its tensor cores wait.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
# the first four SMs of the run, in the order of their ids
sms = system(sprintf("awk '$1 == \"ping-pong\" { print $6 }' '%s' | sort -n | uniq | head -n 4 | tr '\\n' ' '", data))
nsm = words(sms)
row(sm, wg) = sum [i = 1:nsm] (int(word(sms, i)) == sm ? 2 * (i - 1) + wg : 0) + (strstrt(" " . sms, sprintf(" %d ", sm)) ? 0 : NaN)
pp(x) = strcol(1) eq "ping-pong" ? x : NaN

set terminal svg size 1000, 420 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("Step 16, ping-pong, 4096 × 4096 × 1024: four SMs, a row per consumer warpgroup\n%s", device) noenhanced
set autoscale xy
stats data using (pp($17)) nooutput
set xrange [0:STATS_max * 1.01]
set yrange [-0.6:2 * nsm - 0.4]
set ytics () 
do for [i = 1:nsm] {
    set ytics add (sprintf("SM %s, wg 0", word(sms, i)) 2 * (i - 1), sprintf("SM %s, wg 1", word(sms, i)) 2 * (i - 1) + 1)
}
set xlabel "time (µs)"
set key outside bottom center horizontal
plot data using (pp(($14 + $15) / 2)):(row($6, $8)):(($15 - $14) / 2):(0.4):($8 == 0 ? 0x4e79a7 : 0xf28e2b) \
         with boxxyerror fs solid 1.0 noborder lc rgb variable notitle, \
     data using (pp(($15 + $17) / 2)):(row($6, $8)):(($17 - $15) / 2):(0.4) \
         with boxxyerror fs solid 1.0 noborder lc rgb "#9a9a9a" notitle, \
     NaN with boxes fs solid 1.0 lc rgb "#4e79a7" title "MMAs, warpgroup 0", \
     NaN with boxes fs solid 1.0 lc rgb "#f28e2b" title "MMAs, warpgroup 1", \
     NaN with boxes fs solid 1.0 lc rgb "#9a9a9a" title "epilogue: the tile to C"
