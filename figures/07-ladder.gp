# 07-ladder.gp: lab 07's GEMM ladder, one bar per version at 4096^3 and one at
# 8192^3, labelled with the fraction of cuBLAS in the same run (fp32 against
# SGEMM in pedantic fp32 math; bf16 against cublasGemmEx, fp32 accumulate).
#
#   gnuplot -c figures/07-ladder.gp DATA OUT.svg
#
# DATA  the CSV that `07_gemm --csv` writes: device,date,precision,version,M,N,K,tflops,ratio

data = ARG1; out = ARG2
if (system(sprintf("test -r '%s' && echo yes", data)) ne "yes") {
    print sprintf("error: missing figure data file: %s (for %s)", data, out)
    exit status 1
}
device = system(sprintf("awk -F'\"' 'NR == 2 { print $2 }' '%s'", data))
day = system(sprintf("awk -F, 'NR == 2 { print $(NF-7) }' '%s'", data))
# rows at one size, as: name tflops ratio, for steps 1 to 18, step 31 (the fp32 k loop on
# cp.async stages, which step 18 runs) and cuBLAS.  Steps 19 to 30 are kernels for other shape
# classes (split-K and small tiles for few tiles, (192,192) tiles, clusters for operands off
# 128-byte lines, skinny problems, one wave of narrower tiles, Stream-K in clusters, thin
# problems, one wave of (128,256) or (256,128) tiles): the best path, step 17's bar, sends neither
# size to any of them, and the recorded run (labs/07_gemm/output-gpu.txt) has their numbers
rows(n) = sprintf("< awk -F, 'NR > 1 && ($(NF-5) + 0 < 19 || $(NF-5) + 0 == 31) && $(NF-4) == %d && $(NF-3) == %d && $(NF-2) == %d { print $(NF-6) \"_\" $(NF-5), $(NF-1), $NF }' '%s'", n, n, n, data)

set terminal svg size 1100, 600 font "DejaVu Sans,11" background "#ffffff"
set rmargin 16
set output out
set multiplot layout 2, 1 title sprintf("C = A B, column-major: the kernel ladder against cuBLAS (%s, %s)", device, day) noenhanced
set style fill solid 1.0 border rgb "#444444"
set boxwidth 0.7
set ylabel "TFLOP/s"
set logscale y
set yrange [4:1400]
set grid ytics lc rgb "#dddddd"
set xtics scale 0 noenhanced font ",9" rotate by -20
unset key
colour(name) = strstrt(name, "cublas") > 0 ? 0xd9d9d9 : (strstrt(name, "bf16") > 0 ? 0xb3de69 : 0x80b1d3)
do for [n in "4096 8192"] {
    set title sprintf("%s^3", n)
    plot rows(int(n)) using 0:2:(colour(strcol(1))):xtic(1) with boxes lc rgb variable, \
         rows(int(n)) using 0:2:(sprintf("%.2f", $3)) with labels offset 0, 0.7 font ",9"
}
unset multiplot
