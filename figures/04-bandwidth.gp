# 04-bandwidth.gp: lab 04's copy bandwidth, one bar per version (assignment
# and access width), each labelled with its fraction of cudaMemcpy; 4-byte
# accesses blue, 16-byte accesses green, cudaMemcpy grey.
#
#   gnuplot -c figures/04-bandwidth.gp DATA OUT.svg
#
# DATA  '"version" GB/s ratio' lines, after "#" lines whose first names the
#       device and the date (lk_data_open writes it so)

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))

set terminal svg size 820, 440 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("A 1 GiB fp32 copy in 64x64 tiles: three thread-value layouts, two access widths\n%s", device) noenhanced
unset key
set style fill solid 1.0 border rgb "#444444"
set boxwidth 0.7
set ylabel "GB/s (bytes read + written)"
set yrange [0:5200]
set grid ytics lc rgb "#dddddd"
set xtics scale 0 noenhanced font ",10"
colour(name, i) = (i == 0) ? 0xd9d9d9 : (strstrt(name, "16 B") > 0 ? 0xb3de69 : 0x80b1d3)
# The ratio is stored to 4 decimals; round it half up to 3, as the lab's own
# table does from the unrounded ratio (gnuplot's "%.3f" of 0.8755, read as
# 0.87549999..., would print 0.875 where the table says 0.876).
ratio3(r) = floor(r * 1000 + 0.5 + 1e-6) / 1000.0
plot data using 0:2:(colour(strcol(1), $0)):xtic(1) with boxes lc rgb variable, \
     data using 0:2:(sprintf("%.0f GB/s\n%.3f", $2, ratio3($3))) with labels offset 0, 1.6
