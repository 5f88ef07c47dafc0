# 03-owners.gp: the (64,16) tile as the GPU wrote it, each element labelled
# with the thread that wrote it and coloured by that thread's warp. The tile
# is drawn transposed -- m across (the contiguous direction of a column-major
# tile, in two halves of 32), k down -- so that a warp's access reads as a row.
#
#   gnuplot -c figures/03-owners.gp DATA OUT.svg
#
# DATA  "row col thread" lines (row = m, col = k), after "#" lines whose
#       first names the device and the date (lk_data_open writes it so)

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))

stats data using 1:2 nooutput
M = int(STATS_max_x) + 1
K = int(STATS_max_y) + 1

array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]

# two panels of 32 m each (m 0-31 above, m 32-63 below), so that the cells
# stay large enough to read
H = M / 2
cell = 24
panel = K * cell + 46
W = H * cell + 90
set terminal svg size W, (2 * panel + 84) font "DejaVu Sans,8" background "#ffffff"
set output out
set multiplot title sprintf("Thread that wrote each element of the (64,16) tile, thread layout (_32,_8):(_1,_32); colour = warp\n%s", device) noenhanced
set border 0
unset key
set xrange [-0.5:H - 0.5]
set yrange [K - 0.5:-0.5]
unset xtics
set x2range [-0.5:H - 0.5]
set ytics 0, 1, K - 1 scale 0 nomirror textcolor rgb "#666666" font ",7"
set ylabel "k" textcolor rgb "#444444"
set lmargin at screen 50.0 / W
set rmargin at screen (W - 40.0) / W

do for [p = 0:1] {
    lo = p * H
    set x2tics scale 0 nomirror textcolor rgb "#666666"
    set x2tics (sprintf("%d", lo) 0, sprintf("%d", lo + 8) 8, sprintf("%d", lo + 16) 16, sprintf("%d", lo + 24) 24, sprintf("%d", lo + H - 1) H - 1)
    set x2label (p == 0 ? "m (contiguous in memory)" : "m, continued") textcolor rgb "#444444"
    top = 1.0 - (84.0 + p * panel) / (2 * panel + 84)
    set tmargin at screen top
    set bmargin at screen top - (K * cell) / (2.0 * panel + 84)
    plot data using ($1 >= lo && $1 < lo + H ? $1 - lo : NaN):2:(0.5):(0.5):(rgb(int($3 / 32))) with boxxyerror \
             fillstyle solid 1.0 border lc rgb "#888888" lc rgb variable, \
         data using ($1 >= lo && $1 < lo + H ? $1 - lo : NaN):2:(sprintf("%d", $3)) with labels font ",7" noenhanced
}
unset multiplot
