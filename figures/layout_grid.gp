# layout_grid.gp: a rank-2 layout drawn as a grid of cells, as
# cute::print_layout prints it (row 0 at the top) and as CuTe's print_latex
# colours it: each cell shows its value and is coloured by a group.
#
#   gnuplot -c figures/layout_grid.gp DATA OUT.svg COLOUR [TITLE]
#
# DATA   the file `layout --plot DATA EXPR` writes: "# layout ..." and
#        "# rows R cols C" comments, then one "row col value" line per cell
# COLOUR a gnuplot expression over $1 (row), $2 (col), $3 (value) giving the
#        cell's group, an integer; e.g. $3 (by value), int($1/2)*3+int($2/2)
#        (by 2x2 tile of a 6-column layout), 0 (all alike)
# TITLE  the figure's title; empty or absent: the layout itself

data = ARG1; out = ARG2
colour = (ARG3 eq "") ? "$3" : ARG3
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
title = (ARGC >= 4 && ARG4 ne "") ? ARG4 : \
    system(sprintf("sed -n 's/^# layout //p' '%s' | head -n 1", data))

stats data using 1:2 nooutput
R = int(STATS_max_x) + 1
C = int(STATS_max_y) + 1

# ANCHOR: palette
# 16 distinct colours, light enough for black labels (cycled by group)
array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]
# ANCHOR_END: palette

cell = (C > 24) ? 22 : (C > 12 ? 32 : 44)
fs = (cell >= 40) ? 11 : (cell >= 30 ? 9 : 7)
set terminal svg size (C * cell + 90), (R * cell + 100) font "DejaVu Sans,".fs background "#ffffff"
set output out

set title title font ",".(fs + 2) noenhanced
set size ratio -1
set border 0
unset key
set xrange [-0.5:C - 0.5]
set yrange [R - 0.5:-0.5]
unset xtics
set x2range [-0.5:C - 0.5]
set x2tics 0, 1, C - 1 scale 0 nomirror textcolor rgb "#666666"
set ytics 0, 1, R - 1 scale 0 nomirror textcolor rgb "#666666"
set lmargin at screen 50.0 / (C * cell + 90)

plot data using 2:1:(0.5):(0.5):(rgb(@colour)) with boxxyerror \
         fillstyle solid 1.0 border lc rgb "#444444" lc rgb variable, \
     data using 2:1:(sprintf("%d", $3)) with labels font ",".fs noenhanced
