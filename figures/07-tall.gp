# 07-tall.gp: step 30's rule.  For C of 128 columns (K = 4096, 132 SMs), the rows of A that tiles of
# 256, 192 and 128 rows put on the busiest SM, ceil(ceil(M / bm) / 132) bm, against M, and the height
# the best path takes (what `07_gemm --route` prints, figures/07.mk: M, step, waves, rows of its
# tiles, rows on the busiest SM).
#
#   gnuplot -c figures/07-tall.gp build/figdata/07-tall.dat OUT.svg

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
rows(m, bm) = ceil(ceil(m / (1.0 * bm)) / 132.0) * bm
set terminal svg size 900, 460 font "DejaVu Sans,11" background "#ffffff"
set output out
set title "C of 128 columns on 132 SMs: rows of A on the busiest SM, and the height the route takes" noenhanced
set xlabel "M (rows of C)"
set ylabel "rows of A on the busiest SM"
set xrange [16384:136000]
set yrange [0:*]
set xtics 16896 format "%.0f" rotate by -30 font ",10"
set grid lc rgb "#dddddd"
set rmargin 6
set key left top box noenhanced
plot data using 1:(rows($1, 256)) with steps lw 1.5 lc rgb "#fb8072" title "(256, bn) tiles", \
     data using 1:(rows($1, 192)) with steps lw 1.5 lc rgb "#80b1d3" title "(192, bn) tiles", \
     data using 1:(rows($1, 128)) with steps lw 1.5 lc rgb "#8dd3c7" dt 2 title "(128, 128) tiles", \
     data using 1:($2 == 30 ? $5 : 1/0) with points pt 7 ps 0.5 lc rgb "#d7301f" title "route: step 30", \
     data using 1:($2 == 26 ? $5 : 1/0) with points pt 5 ps 0.5 lc rgb "#2166ac" title "route: step 26", \
     data using 1:($2 == 29 ? $5 : 1/0) with points pt 9 ps 0.6 lc rgb "#1b7837" title "route: step 29"
