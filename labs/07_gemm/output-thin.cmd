# needs: gpu
# thin problems, C with a side of 1 or 2 or K of 1 or 2: step 28's kernels on the CUDA cores (the
# best path there now) against cuBLAS and the kernels the route ran before (step 25's narrow tiles
# where M or N is 1 or 2; step 9 where K is 1 or 2, B's columns too short for TMA)
$B/bin/07_gemm --sizes 1x3079x2399,1x1277x1377,1x4096x4096,1x8192x8192,2x4096x4096,4709x1x3068,4096x1x4096,8192x1x8192,4096x2x4096,37x1x2314,738x1x4330,2049x4787x1,4237x793x1,4096x4096x1,8192x8192x1,4096x4096x2 --versions 0,9,25,28 --shapes 0
