# needs: gpu
# what cuBLAS runs (the first choice of cuBLASLt's heuristic) where chapter 7 compares with it, recorded on an H100
$B/bin/07_gemm --cublas-choice 4096,8192,12288,8192x8192x1024,1536x1536x16384,5120x5120x4096,3072x3072x4096,2560x2560x4096,1024x1024x4096,1000x1000x2000,1000,512
