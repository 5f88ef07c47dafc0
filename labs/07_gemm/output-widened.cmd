# needs: gpu
# step 26's narrow tiles in two waves where the route ran step 12's (128,256) tiles, and step 14's
# clusters where it ran step 21's or 22's (192,192) tiles: the best path (step 17's launcher) against
# cuBLAS and the kernels it ran there before (chapter 7)
$B/bin/07_gemm --sizes 2048x3072x1024,1536x4096x2048,3072x2048x1024,2816x2048x2048,7168,7424,6144,13312,9216 --versions 0,12,21,22,17 --shapes 0
