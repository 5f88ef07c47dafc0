# 06-stream-k.gp: a Stream-K schedule, as lab 06's host part predicts it (--predict-sk).
#
#   gnuplot -c figures/06-stream-k.gp DATA OUT.svg
#
# DATA (figures/06.mk): "cta start end tile kind k_begin k_end" per unit, start and end counted in
# the CTA's own k tiles; kind 0: a whole tile, 1: the owner's part (it adds its peers' partial sums
# and writes the tile), 2: a peer's part (partial sums to the workspace).  A row per CTA, a box per
# unit coloured by its tile (the palette of figures/layout_grid.gp), labelled with the tile and its
# k tiles; owners have a heavy border, peers' parts are hatched.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
array pal[16] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 16) + 16) % 16 + 1]

stats data using 3 nooutput
X = STATS_max
stats data using 1 nooutput
C = STATS_max + 1

set terminal svg size 760, 90 + 52 * C font "DejaVu Sans,11" background "#ffffff"
set output out
unset key
set xrange [0:X]
set yrange [C - 0.5:-0.5]
set xtics 0, 4 out nomirror
set ytics 0, 1 out nomirror
set xlabel "k tiles done by the CTA"
set ylabel "CTA"
set border 3
label(t, b, e) = e - b == 1 ? sprintf("tile %d\nk %d", t, b) : sprintf("tile %d\nk %d-%d", t, b, e - 1)
plot data using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.38):(rgb($4)) \
         with boxxyerror fs solid 1.0 border lc rgb "#555555" lc rgb variable, \
     data using ($5 == 2 ? ($2 + $3) / 2 : NaN):1:(($3 - $2) / 2):(0.38) \
         with boxxyerror fs transparent pattern 4 noborder lc rgb "#777777", \
     data using ($5 == 1 ? ($2 + $3) / 2 : NaN):1:(($3 - $2) / 2):(0.38) \
         with boxxyerror fs empty border lw 3 lc rgb "#000000", \
     data using (($2 + $3) / 2):1:(label($4, $6, $7)) with labels font ",9" noenhanced
