# 06-schedules.gp: the time of each schedule, measured (lab 06 --data DIR, 06_schedules.dat).
#
#   gnuplot -c figures/06-schedules.gp figures/data/06_schedules.dat OUT.svg
#
# The data: the device and date, a comment, then "schedule ms GB/s" per schedule.

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("sed -n '1s/^# *//p' '%s'", data))
set terminal svg size 820, 420 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("C = (A 1)(1^T B), 16384 x 16384 outputs in 128 x 128 tiles, K = 2048: time per schedule\n%s", device) noenhanced
unset key
set style fill solid 0.8 border lc rgb "#444444"
set boxwidth 0.7
set ylabel "ms (lower is better)"
set yrange [0:*]
set xtics rotate by -35 noenhanced font ",10"
set bmargin 9
plot data using 0:2:xtic(1) with boxes lc rgb "#80b1d3", \
     data using 0:2:(sprintf("%.2f", $2)) with labels offset 0, 0.7 font ",10"
