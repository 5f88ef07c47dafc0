# 06-timeline.gp: when and where every tile ran, measured (lab 06 --data DIR, 06_timeline.dat).
#
#   gnuplot -c figures/06-timeline.gp figures/data/06_timeline.dat OUT.svg
#
# The data: the device and date, a comment, then "launch sm cta iter m n start_us end_us" per tile
# of a 32 x 32-tile run, launched persistent (132 CTAs) and non-persistent (1024 CTAs).  One panel
# per launch: a row per SM, a box per tile from its start to its end, coloured by its wave:
# persistent, the CTA's iteration (column 4); non-persistent, blockIdx.z / 132 (the wave it would
# be in if the hardware started the CTAs 132 at a time in blockIdx order).  The run: raster along
# M, swizzle 1, K = 2048, 4096 x 4096 outputs in 128 x 128 tiles; A is 32 MiB, inside L2.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
# 8 waves, 8 colours that stay apart (alternating light and dark, so neighbouring waves differ)
array pal[8] = [0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0x76b7b2, 0xedc948, 0xb07aa1, 0x9c755f]
rgb(g) = pal[((int(g) % 8) + 8) % 8 + 1]
wave(launch, cta, iter) = (launch eq "persistent") ? iter : int(cta / 132)

stats data using 8 nooutput
T = STATS_max
set terminal svg size 900, 760 font "DejaVu Sans,11" background "#ffffff"
set output out
set multiplot layout 2, 1 title sprintf("32 x 32 tiles of 128 x 128, K = 2048, raster M, swizzle 1: a row per SM, a box per tile\n%s", device) noenhanced
set key outside right top vertical title "wave" box
set xrange [0:T * 1.02]
set yrange [-1:132]
set ylabel "SM"
set xlabel "time (µs)"
set ytics 0, 33
do for [launch in "persistent non-persistent"] {
    set title sprintf("%s launch", launch)
    plot data using (strcol(1) eq launch ? ($7 + $8) / 2 : NaN):2:(($8 - $7) / 2):(0.42):(rgb(wave(strcol(1), $3, $4))) \
         with boxxyerror fs solid 1.0 noborder lc rgb variable notitle, \
         for [w = 0:7] NaN with boxes fs solid 1.0 lc rgb pal[w + 1] title sprintf("%d", w)
}
unset multiplot
