# 06-schedule.gp: a predicted schedule of 4 x 4 tiles, as lab 06's host part computes it.
#
#   gnuplot -c figures/06-schedule.gp DATA OUT.svg
#
# DATA (lab 06 --data DIR, 06_seed_NAME.dat): "# ..." lines (the third names the configuration),
# then "m n cta wave" per tile.  Each tile is a cell, A tile m down, B tile n across, coloured by
# the CTA that takes it (the palette of figures/layout_grid.gp) and labelled "CTA c / wave w";
# the first wave's cells have a heavy border.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
what = system(sprintf("sed -n '3s/^# *//p' '%s'", data))

array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]

set terminal svg size 420, 400 font "DejaVu Sans,11" background "#ffffff"
set output out
set title what noenhanced
set size ratio -1
unset key
unset border
set xrange [-0.5:3.5]
set yrange [3.5:-0.5]
set x2range [-0.5:3.5]
unset xtics
set x2tics ("B0" 0, "B1" 1, "B2" 2, "B3" 3) scale 0
set ytics ("A0" 0, "A1" 1, "A2" 2, "A3" 3) scale 0
plot data using 2:1:(0.5):(0.5):(rgb($3)) with boxxyerror fs solid 1.0 border lc rgb "#444444" lc rgb variable, \
     data using ($4 == 0 ? $2 : NaN):1:(0.47):(0.47) with boxxyerror fs empty lw 3 lc rgb "#222222", \
     data using 2:1:(sprintf("CTA %d\nwave %d", $3, $4)) with labels font ",11"
