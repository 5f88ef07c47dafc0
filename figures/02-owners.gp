# 02-owners.gp: which CTA wrote each element of C, as measured on a GPU.
#
#   gnuplot -c figures/02-owners.gp figures/data/02_owners.dat OUT.svg
#
# The data (lab 02 --data DIR, 02_owners.dat) is one "row col cta" line per
# element of C (128 x 192, column-major, tiles of 32 x 64), after the own_tile
# kernel ran; its first line names the device and the date.  Every element is
# drawn (as an image: one pixel per element), coloured by the CTA that wrote
# it, and each tile is labelled with that CTA's number.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))

# the palette of figures/02-tile-grid.gp (layout_grid.gp's without its grey,
# which means "not in the view" in this chapter), so CTA k has the colour of
# tile k in the chapter's numbered tile figures
array pal[15] = [0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462, \
                 0xb3de69, 0xfccde5, 0xbc80bd, 0xccebc5, 0xffed6f, \
                 0xa6cee3, 0xfdbf6f, 0xcab2d6, 0xb2df8a]
rgb(g) = pal[((int(g) % 15) + 15) % 15 + 1]
r(g) = int(rgb(g) / 65536) % 256
g(x) = int(rgb(x) / 256) % 256
b(g) = int(rgb(g)) % 256

stats data using 1:2 nooutput
R = int(STATS_max_x) + 1
C = int(STATS_max_y) + 1

set terminal svg size 760, 600 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("C (%d x %d), each element coloured by the CTA that wrote it\n%s", R, C, device) noenhanced
set size ratio -1
set tmargin 5
unset key
set border 1+2+4+8 lc rgb "#444444"
set xrange [-0.5:C - 0.5]
set yrange [R - 0.5:-0.5]
set x2range [-0.5:C - 0.5]
unset xtics
# ticks on the tile borders, both ends included: element n lies between n - 0.5
# and n + 0.5, so the tick "64" is the border before column 64
set x2tics nomirror out textcolor rgb "#666666" ("0" -0.5)
set ytics nomirror out textcolor rgb "#666666" ("0" -0.5)
do for [n = 64 : C : 64] { set x2tics add (sprintf("%d", n) n - 0.5) }
do for [m = 32 : R : 32] { set ytics add (sprintf("%d", m) m - 0.5) }
set x2label "column n"
set ylabel "row m"

# tile borders every 32 rows and 64 columns
do for [m = 1 : R / 32 - 1] { set arrow from -0.5, m * 32 - 0.5 to C - 0.5, m * 32 - 0.5 nohead lc rgb "#444444" front }
do for [n = 1 : C / 64 - 1] { set arrow from n * 64 - 0.5, -0.5 to n * 64 - 0.5, R - 0.5 nohead lc rgb "#444444" front }

plot data using 2:1:(r($3)):(g($3)):(b($3)) with rgbimage, \
     data using ((int($1) % 32 == 16 && int($2) % 64 == 32) ? $2 : NaN):1:(sprintf("CTA %d", $3)) \
          with labels font ",12"
