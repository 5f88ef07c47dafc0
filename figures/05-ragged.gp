# 05-ragged.gp: figure 5.1, the 41 x 55 matrix in (_4,_8) tiles, drawn tile by tile.
#
#   gnuplot -c figures/05-ragged.gp OUT.svg
#
# The cells of a tile share one colour (tiles alternate between two), cells outside the matrix
# are red, and each tile carries one label: its CTA index (tile_m + 11 tile_n, the rest mode of
# zipped_divide read colexicographically) over its tile coordinate (tile_m,tile_n).  One label per
# tile instead of one per cell keeps the 44 x 56 grid legible at page width.
out = ARG1
M = 41; N = 55; BM = 4; BN = 8
TM = int((M + BM - 1) / BM); TN = int((N + BN - 1) / BN)
R = TM * BM; C = TN * BN
cell = 15
set terminal svg size (C * cell + 70), (R * cell + 110) font "DejaVu Sans,11" background "#ffffff"
set output out
set title "41 x 55 in (_4,_8) tiles: 11 x 7 CTAs, CTA = tile_m + 11 * tile_n" font ",13" noenhanced
set size ratio -1
set border 0
unset key
set xrange [-0.5:C - 0.5]
set yrange [R - 0.5:-0.5]
unset xtics
set x2range [-0.5:C - 0.5]
set x2tics ("0" 0, "8" 8, "16" 16, "24" 24, "32" 32, "40" 40, "48" 48, "55" 55) scale 0 nomirror textcolor rgb "#444444"
set ytics ("0" 0, "4" 4, "8" 8, "12" 12, "16" 16, "20" 20, "24" 24, "28" 28, "32" 32, "36" 36, "40" 40, "43" 43) \
    scale 0 nomirror textcolor rgb "#444444"
set x2label "column n" textcolor rgb "#444444"
set ylabel "row m" textcolor rgb "#444444"
set lmargin at screen 55.0 / (C * cell + 70)

# tile boundaries (dark), the matrix's edge (black, thick)
do for [t = 0:TN] { set arrow from t * BN - 0.5, -0.5 to t * BN - 0.5, R - 0.5 nohead lc rgb "#333333" lw 1.5 front }
do for [t = 0:TM] { set arrow from -0.5, t * BM - 0.5 to C - 0.5, t * BM - 0.5 nohead lc rgb "#333333" lw 1.5 front }
set arrow from -0.5, M - 0.5 to N - 0.5, M - 0.5 nohead lc rgb "#000000" lw 3 front
set arrow from N - 0.5, -0.5 to N - 0.5, M - 0.5 nohead lc rgb "#000000" lw 3 front

# one label per tile: the CTA index over (tile_m,tile_n)
do for [tn = 0:TN - 1] {
  do for [tm = 0:TM - 1] {
    set label sprintf("%d", tm + TM * tn) at tn * BN + BN / 2.0 - 0.5, tm * BM + 1.0 center front font ",12"
    set label sprintf("(%d,%d)", tm, tn) at tn * BN + BN / 2.0 - 0.5, tm * BM + 2.2 center front font ",9" textcolor rgb "#333333"
  }
}

colour(r, c) = (r >= M || c >= N) ? 0xfb8072 : ((int(r / BM) + int(c / BN)) % 2 ? 0x8dd3c7 : 0xd5e8f5)
set samples C
set isosamples R
set urange [0:C - 1]
set vrange [0:R - 1]
plot '++' using 1:2:(0.5):(0.5):(colour($2, $1)) with boxxyerror \
     fillstyle solid 1.0 border lc rgb "#bbbbbb" lc rgb variable
