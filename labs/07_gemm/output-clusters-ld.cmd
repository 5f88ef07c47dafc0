# needs: gpu
# the best path's clusters where B's columns lie off 128-byte lines (K a multiple of 8 but not of
# 64): step 17's launcher, which runs them, against cuBLAS, step 13 (whole tiles) and step 15
# (Stream-K), the kernels the best path ran at these shapes before
$B/bin/07_gemm --sizes 4096x4096x9000,7000x7000x3000,8192x8192x1000 --versions 0,13,15,17 --shapes 0
