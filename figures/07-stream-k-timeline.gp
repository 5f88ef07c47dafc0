# 07-stream-k-timeline.gp: whole tiles against Stream-K, measured (lab 07 --timeline DIR, 07_timeline.dat).
#
#   gnuplot -c figures/07-stream-k-timeline.gp figures/data/07_timeline.dat OUT.svg
#
# The data: the device and date, the columns, then one row per unit of work (a tile, or a k range
# of one): "run version M N K sm cta wg m n k_begin k_end kind start mma_end fix_end end", times
# in µs from the run's first unit.  Four panels, two problems (rows) run two ways (columns): whole
# tiles (steps 12 and 13) and Stream-K (step 15).  A row per SM, and for each unit a box for its
# MMAs, coloured by kind (a whole tile, a tile's owner, partial sums for an owner), then a dark box
# for an owner's fix-up (waiting for and adding its peers' partial sums) and a grey one for writing
# C or the partial sums.  The two panels of a problem share their time axis.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
kindcol(k) = k == 0 ? 0x4e79a7 : k == 1 ? 0x59a14f : 0xf28e2b
sel(run, M) = (strcol(1) eq run && $3 == M)

set terminal svg size 1000, 960 font "DejaVu Sans,11" background "#ffffff"
set output out
set multiplot layout 2, 2 title sprintf("When and where each unit of work ran: a row per SM\n%s", device) noenhanced
set ytics 0, 33
set xlabel "time (µs)"
set key off
do for [row = 1:2] {
    M = row == 1 ? 1536 : 5120
    shape = row == 1 ? "1536 × 1536 × 16384" : "5120 × 5120 × 4096"
    set autoscale xy
    stats data using (strcol(1) ne "ping-pong" && $3 == M ? $17 : NaN) nooutput
    T = STATS_max
    if (row == 2) { set bmargin 6 }
    do for [col = 1:2] {
        r = col == 1 ? "whole-tiles" : "Stream-K"
        set autoscale xy
        stats data using (sel(r, M) ? $17 : NaN) nooutput
        done = STATS_max
        set xrange [0:T * 1.03]
        set yrange [-1:132]
        set title sprintf("%s, %s: done at %.0f µs", shape, col == 1 ? "whole tiles" : r, done) noenhanced
        set ylabel (col == 1 ? "SM" : "")
        if (row == 2 && col == 2) {                  # the legend, under the panels
            array lc[5] = [0x4e79a7, 0x59a14f, 0xf28e2b, 0x8b1a1a, 0x9a9a9a]
            array lt[5] = ["MMAs of a whole tile", "of an owner's k range", "of partial sums' k range", \
                           "fix-up", "writing C or the partial sums"]
            array lx[5] = [0.06, 0.25, 0.44, 0.64, 0.75]
            do for [i = 1:5] {
                set object 100 + i rectangle from screen lx[i], 0.018 to screen lx[i] + 0.02, 0.034 \
                    fc rgb lc[i] fs solid 1.0 noborder
                set label 100 + i lt[i] at screen lx[i] + 0.025, 0.026 left noenhanced
            }
        }
        plot data using (sel(r, M) ? ($14 + $15) / 2 : NaN):6:(($15 - $14) / 2):(0.5):(kindcol($13)) \
                 with boxxyerror fs solid 1.0 noborder lc rgb variable notitle, \
             data using (sel(r, M) && $16 > $15 ? ($15 + $16) / 2 : NaN):6:(($16 - $15) / 2):(0.5) \
                 with boxxyerror fs solid 1.0 noborder lc rgb "#8b1a1a" notitle, \
             data using (sel(r, M) ? ($16 + $17) / 2 : NaN):6:(($17 - $16) / 2):(0.5) \
                 with boxxyerror fs solid 1.0 noborder lc rgb "#9a9a9a" notitle
    }
}
unset multiplot
