# needs: gpu
$B/bin/07_gemm --cublas-choice 1152,1216
