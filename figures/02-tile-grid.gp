# 02-tile-grid.gp: a rank-2 layout drawn as figures/layout_grid.gp draws it
# (each cell shows its offset, row 0 at the top), cut into tiles, each tile
# labelled with its index in the rest mode of the zipped divide: the number
# of the CTA that takes it.
#
#   gnuplot -c figures/02-tile-grid.gp DATA OUT.svg TR TC TITLE [OVERHANG]
#
# DATA      the cells of the layout (`layout --plot`, as for the list figures)
# TR x TC   the tile's shape; tile (m,n) is numbered m + (tiles down)*n,
#           colexicographically, and coloured by that number (the palette of
#           layout_grid.gp, with its grey left out: grey means "not in the
#           view" in this chapter's other figures)
# OVERHANG  "yes": also draw the cells the last tiles cover beyond the
#           matrix, dashed, each with the offset the last tile computes for
#           it (the layout's own strides continued), and mark in the matrix
#           the cells that the last tile reaches a second time

data = ARG1; out = ARG2; TR = int(ARG3); TC = int(ARG4); title = ARG5
over = (ARGC >= 6 && ARG6 eq "yes")
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
stats data using 1:2 nooutput
R = int(STATS_max_x) + 1
C = int(STATS_max_y) + 1
TM = int((R + TR - 1) / TR); TN = int((C + TC - 1) / TC)   # tiles, rounded up
RR = over ? TM * TR : R; CC = over ? TN * TC : C           # the area drawn
# the layout's strides, read off the data: offset(i,j) = s0*i + s1*j
s0 = system(sprintf("awk '$1==1 && $2==0 {print $3}' '%s'", data)) + 0
s1 = system(sprintf("awk '$1==0 && $2==1 {print $3}' '%s'", data)) + 0

array pal[15] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[int(g) % 15 + 1]
tile(r, c) = int(r / TR) + TM * int(c / TC)
# the middle of the part of a tile inside the matrix (a cell border, for even counts)
min(a, b) = (a < b) ? a : b
mid(x0, t, n) = (x0 + min(x0 + t, n) - 1) / 2.0

cell = (CC > 12) ? 40 : 48
set terminal svg size (CC * cell + 90), (RR * cell + 110) font "DejaVu Sans,11" background "#ffffff"
set output out
set title title font ",13" noenhanced
set size ratio -1
set border 0
unset key
set xrange [-0.5:CC - 0.5]
set yrange [RR - 0.5:-0.5]
unset xtics
set x2range [-0.5:CC - 0.5]
set x2tics 0, 1, CC - 1 scale 0 nomirror textcolor rgb "#666666"
set ytics 0, 1, RR - 1 scale 0 nomirror textcolor rgb "#666666"
set lmargin at screen 50.0 / (CC * cell + 90)
set style textbox opaque fillcolor rgb "#ffffff" border lc rgb "#444444" margins 2, 1

# thick tile borders
do for [m = 0 : TM] { set arrow from -0.5, m * TR - 0.5 to (m * TR <= R ? C : CC) - 0.5, m * TR - 0.5 nohead lw 2.5 lc rgb "#222222" front }
do for [n = 0 : TN] { set arrow from n * TC - 0.5, -0.5 to n * TC - 0.5, (n * TC <= C ? R : RR) - 0.5 nohead lw 2.5 lc rgb "#222222" front }
if (over) {
    # the last tile's outline, all of it, and the dashed cells beyond the matrix
    set arrow from (TN - 1) * TC - 0.5, (TM - 1) * TR - 0.5 to CC - 0.5, (TM - 1) * TR - 0.5 nohead lw 2.5 lc rgb "#222222" front
    set arrow from (TN - 1) * TC - 0.5, RR - 0.5 to CC - 0.5, RR - 0.5 nohead lw 2.5 lc rgb "#222222" front
    set arrow from (TN - 1) * TC - 0.5, (TM - 1) * TR - 0.5 to (TN - 1) * TC - 0.5, RR - 0.5 nohead lw 2.5 lc rgb "#222222" front
    set arrow from CC - 0.5, (TM - 1) * TR - 0.5 to CC - 0.5, RR - 0.5 nohead lw 2.5 lc rgb "#222222" front
    r0 = (TM - 1) * TR; c0 = (TN - 1) * TC; base = s0 * r0 + s1 * c0
    do for [r = r0 : RR - 1] { do for [c = c0 : CC - 1] {
        if (r >= R || c >= C) {
            o = base + s0 * (r - r0) + s1 * (c - c0)
            set object rectangle from c - 0.5, r - 0.5 to c + 0.5, r + 0.5 fc rgb "#ffffff" fs empty border lc rgb "#999999" dt 2 back
            set label sprintf("%d", o) at c, r center font ",11" tc rgb (o >= R * C ? "#c00000" : "#000000") front
            if (o < R * C) {
                # a cell of the matrix that the last tile reaches again
                rr = int(o / s0) % R; cc = int(o / s1)
                if (s0 == 1) { rr = o % R; cc = int(o / R) }
                set object rectangle from cc - 0.45, rr - 0.45 to cc + 0.45, rr + 0.45 fs empty border lc rgb "#c00000" lw 3 front
            }
        }
    } }
}

plot data using 2:1:(0.5):(0.5):(rgb(tile($1, $2))) with boxxyerror \
         fillstyle solid 1.0 border lc rgb "#444444" lc rgb variable, \
     data using 2:1:(sprintf("%d", $3)) with labels font ",11" noenhanced, \
     data using ((int($1) % TR == 0 && int($2) % TC == 0) ? mid($2, TC, C) : NaN):(mid($1, TR, R)):(sprintf("tile %d", tile($1, $2))) \
          with labels boxed font ",12" tc rgb "#000000"
