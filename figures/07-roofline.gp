# 07-roofline.gp: lab 07's bf16 GEMMs on a roofline: each measured rate (TFLOP/s) against the
# problem's arithmetic intensity, 2 M N K flops over the fewest bytes a GEMM must move (A and B in
# bf16 read once, C in fp32 written once: 2 M K + 2 K N + 4 M N).  The roofs are the datasheet's
# dense bf16 rate and memory bandwidth for the device named in the data (H200 or H100 SXM).
#
#   gnuplot -c figures/07-roofline.gp DATA OUT.svg
#
# DATA  the CSV that `07_gemm --csv` writes: device,date,precision,version,M,N,K,tflops,ratio

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("awk -F'\"' 'NR == 2 { print $2 }' '%s'", data))
day = system(sprintf("awk -F, 'NR == 2 { print $(NF-7) }' '%s'", data))
peak = 989.0                                   # dense bf16 TFLOP/s, H100/H200 SXM datasheet
bw = strstrt(device, "H200") > 0 ? 4.8 : 3.35  # TB/s, datasheet
# rows of one version: intensity tflops
rows(v) = sprintf("< awk -F, 'NR > 1 && $(NF-6) == \"bf16\" && $(NF-5) == \"%s\" { m = $(NF-4); n = $(NF-3); k = $(NF-2); print 2*m*n*k / (2*m*k + 2*k*n + 4*m*n), $(NF-1) }' '%s'", v, data)

set terminal svg size 900, 520 font "DejaVu Sans,11" background "#ffffff"
set output out
set title sprintf("bf16 GEMM on a roofline (%s, %s)", device, day) noenhanced
set logscale xy
set xrange [50:5000]
set yrange [20:1500]
set xlabel "arithmetic intensity (flop per byte of A, B and C moved at least once)"
set ylabel "TFLOP/s"
set grid lc rgb "#dddddd"
set key right bottom noenhanced box
roof(x) = (bw * x < peak) ? bw * x : peak
plot roof(x) with lines lw 2 lc rgb "#555555" title sprintf("roof: %.0f TFLOP/s, %.2f TB/s (datasheet)", peak, bw), \
     rows("cublas") with points pt 7 ps 1.2 lc rgb "#999999" title "cuBLAS", \
     rows("9_mma_multistage_epilogue") with points pt 5 ps 1.0 lc rgb "#b3de69" title "step 9 (mma.sync)", \
     rows("12_warp_specialized") with points pt 9 ps 1.1 lc rgb "#80b1d3" title "step 12 (wgmma, warp-specialized)", \
     rows("14_cluster_multicast") with points pt 13 ps 1.1 lc rgb "#fb8072" title "step 14 (clusters, multicast)"
