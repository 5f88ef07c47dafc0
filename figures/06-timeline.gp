# 06-timeline.gp: when and where every tile ran, measured (lab 06 --data DIR, 06_timeline.dat).
#
#   gnuplot -c figures/06-timeline.gp figures/data/06_timeline.dat OUT.svg
#
# The data: the device and date, a comment, then "launch sm cta iter m n start_us end_us" per tile
# of a 32 x 32-tile run, launched persistent (132 CTAs) and non-persistent (1024 CTAs).  One panel
# per launch: a row per SM, a box per tile from its start to its end, coloured by the tile's
# column n of tiles (persistent: the same colour runs down a wave).

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]

stats data using 8 nooutput
T = STATS_max
set terminal svg size 900, 760 font "DejaVu Sans,11" background "#ffffff"
set output out
set multiplot layout 2, 1 title sprintf("Every tile of a 32 x 32-tile run: a row per SM, a box per tile\n%s", device) noenhanced
unset key
set xrange [0:T * 1.02]
set yrange [-1:132]
set ylabel "SM"
set xlabel "time (µs)"
set ytics 0, 33
do for [launch in "persistent non-persistent"] {
    set title sprintf("%s launch", launch)
    plot data using (strcol(1) eq launch ? ($7 + $8) / 2 : NaN):2:(($8 - $7) / 2):(0.42):(rgb($6)) \
         with boxxyerror fs solid 1.0 border lc rgb "#666666" lc rgb variable
}
unset multiplot
