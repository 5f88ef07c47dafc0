# 02-bandwidth.gp: the tiled copy's bandwidth, as measured on a GPU.
#
#   gnuplot -c figures/02-bandwidth.gp figures/data/02_bandwidth.dat OUT.svg
#
# The data (lab 02 --data DIR, 02_bandwidth.dat) is one "version GB/s ratio"
# line per copy (cudaMemcpy first), after a line naming the device and date.
# Each bar is labelled with its GB/s and its fraction of cudaMemcpy.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
stats data using 2 nooutput
top = STATS_max

set terminal svg size 720, 420 font "DejaVu Sans,12" background "#ffffff"
set output out
set title sprintf("1 GiB device-to-device copy, GB/s (read + written)\n%s", device) noenhanced
unset key
set border 1+2 lc rgb "#444444"
set style fill solid 1.0 border lc rgb "#444444"
set boxwidth 0.6
set yrange [0:top * 1.18]
set xrange [-0.6:2.6]
set ylabel "GB/s"
set ytics nomirror textcolor rgb "#444444"
set xtics nomirror scale 0 noenhanced
set grid ytics lc rgb "#dddddd"

colour(i) = (i == 0) ? 0xd9d9d9 : ((i == 1) ? 0x80b1d3 : 0xfdb462)
plot data using 0:2:(colour($0)):xtic(1) with boxes lc rgb variable, \
     data using 0:2:(sprintf("%.0f GB/s\n%.3f of cudaMemcpy", $2, $3)) with labels offset 0, 1.6
