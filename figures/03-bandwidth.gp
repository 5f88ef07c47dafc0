# 03-bandwidth.gp: lab 03's copy bandwidth, one bar per version, each
# labelled with its fraction of cudaMemcpy (interleaved blue, blocked orange
# and red).
#
#   gnuplot -c figures/03-bandwidth.gp DATA OUT.svg
#
# DATA  '"version" GB/s ratio' lines, after "#" lines whose first names the
#       device and the date (lk_data_open writes it so)

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))

set terminal svg size 760, 420 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("A 1 GiB fp32 copy, four ways of handing elements to threads\n%s", device) noenhanced
unset key
set style data histogram
set style fill solid 1.0 border rgb "#444444"
set boxwidth 0.7
set ylabel "GB/s (bytes read + written)"
set yrange [0:5000]
set grid ytics lc rgb "#dddddd"
set xtics scale 0 noenhanced
colour(i) = (i == 0) ? 0xd9d9d9 : ((i == 4) ? 0xfb8072 : ((i == 2) ? 0xfdb462 : 0x80b1d3))
plot data using 0:2:(colour($0)):xtic(1) with boxes lc rgb variable, \
     data using 0:2:(sprintf("%.0f GB/s\n%.3f", $2, $3)) with labels offset 0, 1.6
