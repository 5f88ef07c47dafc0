# needs: gpu
# skinny problems, C 64 rows or columns or fewer: step 25's narrow tiles (the best path there now)
# against cuBLAS and the kernels the route ran before (step 19's split-K, step 16's ping-pong at
# 8 x 14336 x 4096)
$B/bin/07_gemm --sizes 16x4096x4096,64x4096x4096,8x14336x4096,16x14336x4096,32x28672x4096,16x4096x16384,4096x16x4096,4096x64x4096,8192x64x8192,14336x16x4096 --versions 0,16,19,25 --shapes 0
