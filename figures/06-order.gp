# 06-order.gp: the work index of every tile of a 4 x 4 problem, as a layout gives it.
#
#   gnuplot -c figures/06-order.gp DATA OUT.svg TITLE
#
# DATA (`layout --plot DATA EXPR`): "# layout ..." and "# rows R cols C" comments, then "row col
# value" per cell: row = m (A tile), col = n (B tile), value = the work index.  Each cell shows its
# work index and is coloured by the CTA that takes it with 8 CTAs, index mod 8 (the palette of
# figures/layout_grid.gp); the axes are labelled like the schedule figures, A0.. down, B0.. across.

data = ARG1; out = ARG2; what = ARG3
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]

set terminal svg size 360, 380 font "DejaVu Sans,11" background "#ffffff"
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
set x2label "n (B tile)"
set ylabel "m (A tile)"
plot data using 2:1:(0.5):(0.5):(rgb(int($3) % 8)) with boxxyerror fs solid 1.0 border lc rgb "#444444" lc rgb variable, \
     data using 2:1:(sprintf("%d\ncta %d", $3, int($3) % 8)) with labels font ",11"
