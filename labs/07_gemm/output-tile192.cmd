# needs: gpu
# step 21's (192,192) tiles against cuBLAS, step 13 (persistent (128,256) tiles) and step 15
# (Stream-K), at the shapes where the best path takes step 21, and at 4096^3, where it does not
$B/bin/07_gemm --sizes 3072x3072x2048,3072x3072x4096,3072x3072x8192,6144x3072x4096,5376x5376x4096,12288,4096 --versions 0,13,15,21 --shapes 0
